package io.github.qsbench.jmh.report;

/**
 * Readers and writers of one thread group; the thesis's four setups have names of their
 * own.
 */
record Setup(int readers, int writers) implements Comparable<Setup> {

	/** File-name and CSV key, as in the thesis reference data. */
	String key() {
		return switch (readers + "-" + writers) {
			case "1-1" -> "uncontended";
			case "4-1" -> "contended-readers";
			case "1-4" -> "contended-writers";
			case "4-4" -> "contended-readers-writers";
			default -> readers + "r-" + writers + "w";
		};
	}

	/** Heading as in the thesis's chapter 4. */
	String title() {
		return switch (key()) {
			case "uncontended" -> "Uncontended";
			case "contended-readers" -> "Contended readers";
			case "contended-writers" -> "Contended writers";
			case "contended-readers-writers" -> "Contended readers + writers";
			default -> readers + " readers, " + writers + " writers";
		};
	}

	/** "R-W", as the study's plan and file names write it. */
	static Setup parse(String readersDashWriters) {
		String[] parts = readersDashWriters.split("-");
		return new Setup(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]));
	}

	int threads() {
		return readers + writers;
	}

	@Override
	public String toString() {
		return readers + "-" + writers;
	}

	/** The thesis's order: 1-1, 4-1, 1-4, 4-4. */
	@Override
	public int compareTo(Setup other) {
		int byThreads = Integer.compare(threads(), other.threads());
		return (byThreads != 0) ? byThreads : Integer.compare(other.readers, readers);
	}

}
