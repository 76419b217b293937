package io.github.qsbench.jmh.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * How long the core and the service take to warm up, measured with no stopping rule: the
 * page's two warm-up curves ({@code scripts/study.sh --curves}). Each iteration or window
 * is set against the same fork's or start's settled level, the median of its second half,
 * so that strategies of very different speeds share one curve.
 */
final class WarmupCurves {

	/** How far from the settled level a window may be and count as settled. */
	static final double SETTLED = 0.25;

	private WarmupCurves() {
	}

	/**
	 * The core's curve: JMH forks run with no warm-up, every iteration measured. Per
	 * cell, each iteration over its fork's settled level (median over the forks of every
	 * strategy); then for each warm-up the study could give, its check (the last of
	 * {@code measured} iterations over the first, over every fork) had it warmed so long.
	 * @param dir JMH result files of one run ({@code jdkJ-GC-STRATEGY-R-W.json})
	 * @param measured the measured iterations a fork of the study has
	 */
	static String core(Path dir, int measured) throws IOException {
		Map<String, List<double[]>> byCell = new TreeMap<>();
		Set<String> times = new TreeSet<>();
		try (Stream<Path> list = Files.list(dir)) {
			for (Path file : list.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
				for (JmhResult r : JmhResult.read(file)) {
					byCell.computeIfAbsent(r.run().shortLabel() + " " + r.setup(), k -> new ArrayList<>())
						.addAll(r.forks().iterations());
					times.add(r.settings().measurementTime());
				}
			}
		}
		if (byCell.isEmpty()) {
			return "No core warm-up curve was measured: `scripts/study.sh --curves`.\n";
		}
		String time = String.join(" or ", times);
		int iterations = byCell.values().stream().flatMap(List::stream).mapToInt(f -> f.length).min().orElseThrow();
		StringBuilder md = new StringBuilder();
		md.append("Each iteration (")
			.append(time)
			.append(") over its fork's settled level (the median of iterations ")
			.append(iterations / 2 + 1)
			.append('-')
			.append(iterations)
			.append("), median over all forks:\n\n| cell | forks |");
		for (int i = 1; i <= iterations; i++) {
			md.append(' ').append(i).append(" |");
		}
		md.append("\n|---|---:|").append("---:|".repeat(iterations)).append('\n');
		byCell.forEach((cell, forks) -> {
			md.append("| ").append(cell).append(" | ").append(forks.size()).append(" |");
			for (int i = 0; i < iterations; i++) {
				int at = i;
				md.append(' ')
					.append(Findings.fmt(
							Stats.median(forks.stream().mapToDouble(f -> f[at] / settled(f, iterations)).toArray()), 2))
					.append(" |");
			}
			md.append('\n');
		});
		md.append("\nThe study's warm-up check had a fork been warmed by the first W iterations: its iteration W + ")
			.append(measured)
			.append(" over its iteration W + 1, over every fork, 95% (1 inside: no drift left to see).\n\n| warm-up W |");
		byCell.keySet().forEach(cell -> md.append(' ').append(cell).append(" |"));
		md.append("\n|---|").append("---|".repeat(byCell.size())).append('\n');
		for (int w = 0; w + measured <= iterations; w++) {
			int warmup = w;
			md.append("| ").append(w).append(" × ").append(time).append(" |");
			byCell.values().forEach(forks -> {
				RatioInterval drift = RatioInterval.paired(
						forks.stream().mapToDouble(f -> f[warmup + measured - 1]).toArray(),
						forks.stream().mapToDouble(f -> f[warmup]).toArray());
				md.append(' ').append(drift.format()).append(" |");
			});
			md.append('\n');
		}
		return md.toString();
	}

	/**
	 * The service's curve: starts warmed by a fixed number of windows, every window's CPU
	 * per message recorded. Per start, each window over the start's settled level, where
	 * the study's rule would have stopped, and from which window on every window stays
	 * within 25% of the settled level.
	 * @param dir an {@code scripts/e2e-study.sh} OUT run with {@code WARMUP_TOLERANCE=0}
	 * @param tolerance the study's stopping rule: how close two windows in a row agree
	 */
	static String endToEnd(Path dir, double tolerance) throws IOException {
		Map<String, List<Double>> starts = new LinkedHashMap<>();
		Map<String, List<String>> seconds = new LinkedHashMap<>();
		for (Window w : windows(dir)) {
			starts.computeIfAbsent(w.start(), k -> new ArrayList<>()).add(w.cpuMicrosPerMessage());
			seconds.computeIfAbsent(w.start(), k -> new ArrayList<>()).add(w.seconds());
		}
		if (starts.isEmpty()) {
			return "No end-to-end warm-up curve was measured: `scripts/study.sh --curves`.\n";
		}
		int windows = starts.values().stream().mapToInt(List::size).min().orElseThrow();
		StringBuilder md = new StringBuilder();
		md.append("Each window's CPU per message over the start's settled level (the median of windows ")
			.append(windows / 2 + 1)
			.append('-')
			.append(windows)
			.append("); windows of ")
			.append(String.join(", ", seconds.values().iterator().next().stream().distinct().toList()))
			.append(" s (the study's first start gets a longer first window). Rule met at: the first window within ")
			.append(Double.isNaN(tolerance) ? "the study's tolerance (n/a: its parts set different ones)"
					: Findings.fmt(100 * tolerance, 0) + "%")
			.append(" of the one before, where the study stops warming. Settled from: the first window from which ")
			.append("every later one lies within ")
			.append(Findings.fmt(100 * SETTLED, 0))
			.append("% of the settled level.\n\n| start |");
		for (int i = 1; i <= windows; i++) {
			md.append(' ').append(i).append(" |");
		}
		md.append(" rule met at | settled from |\n|---|").append("---:|".repeat(windows + 2)).append('\n');
		starts.forEach((start, all) -> {
			double[] cpu = all.stream().limit(windows).mapToDouble(Double::doubleValue).toArray();
			double level = settled(cpu, windows);
			md.append("| ").append(start).append(" |");
			Arrays.stream(cpu).forEach(x -> md.append(' ').append(Findings.fmt(x / level, 2)).append(" |"));
			int rule = Findings.WarmupStart.ruleMetAt(all.subList(0, windows), tolerance);
			int from = windows + 1;
			while (from > 1 && Math.abs(cpu[from - 2] / level - 1) <= SETTLED) {
				from--;
			}
			md.append(' ')
				.append(Double.isNaN(tolerance) ? "n/a" : (rule == 0) ? "not met" : String.valueOf(rule))
				.append(" | ")
				.append((from > windows) ? "not settled" : String.valueOf(from))
				.append(" |\n");
		});
		return md.toString();
	}

	/**
	 * One warm-up window of a service start, a line of {@code scripts/e2e-study.sh}'s
	 * {@code warmups.tsv}.
	 *
	 * @param start the service start's name
	 * @param seconds the window's length
	 * @param cpuMicrosPerMessage the service's CPU per message completed in the window
	 */
	record Window(String start, String seconds, double cpuMicrosPerMessage) {

	}

	/**
	 * The warm-up windows of an end-to-end run, in order; none where it recorded none (a
	 * window with no CPU figure is left out).
	 */
	static List<Window> windows(Path dir) throws IOException {
		Path file = dir.resolve("warmups.tsv");
		List<Window> windows = new ArrayList<>();
		if (Files.exists(file)) {
			for (String line : Files.readAllLines(file).stream().skip(1).toList()) {
				String[] f = line.split("\t", -1);
				if (f.length >= 6 && !f[5].isEmpty()) {
					windows.add(new Window(f[0], f[2], Double.parseDouble(f[5])));
				}
			}
		}
		return windows;
	}

	/** The median of a fork's or start's second half: the level it settled at. */
	private static double settled(double[] series, int length) {
		return Stats.median(Arrays.copyOfRange(series, length / 2, length));
	}

}
