package io.github.qsbench.gatling;

import java.time.Duration;
import java.util.Locale;

/**
 * What a load test does, read from system properties ({@code -Dname=value} on the Maven
 * command line). A preset names one of the thesis's four setups as
 * {@code CONSUMERS-PRODUCERS}; explicit {@code consumers} and {@code producers} win over
 * it.
 *
 * @param baseUrl the service, for example {@code http://127.0.0.1:8080}
 * @param preset the setup's name as given, or {@code custom}
 * @param producers virtual users that push in a loop
 * @param consumers virtual users that poll and complete in a loop
 * @param rate pushes per second over all producers; 0 means as fast as the service
 * answers
 * @param duration how long producers push and consumers consume before the drain
 * @param messageBytes size of each pushed body
 * @param queues how many queues the load is spread over
 * @param drain the longest time consumers keep draining once producers have stopped
 * @param emptyPollPause what a consumer waits after an empty poll (204) before it polls
 * again
 * @param queuePrefix the queues are {@code <prefix>-0 .. <prefix>-(queues-1)}; unique per
 * run so that runs against a long-lived service do not mix
 * @param countsFile where the run's own counts are written as JSON at the end
 * @param abandonShare the share (0 to 1) of first deliveries a consumer never completes,
 * as if it crashed; the service must deliver them again once their lease lapses
 */
record LoadSettings(String baseUrl, String preset, int producers, int consumers, double rate, Duration duration,
		int messageBytes, int queues, Duration drain, Duration emptyPollPause, String queuePrefix, String countsFile,
		double abandonShare) {

	static LoadSettings fromSystemProperties() {
		String preset = System.getProperty("preset", "4-4");
		int[] setup = preset(preset);
		int consumers = Integer.getInteger("consumers", setup[0]);
		int producers = Integer.getInteger("producers", setup[1]);
		if (consumers < 1 || producers < 1) {
			throw new IllegalArgumentException("consumers and producers must be at least 1");
		}
		boolean custom = System.getProperty("consumers") != null || System.getProperty("producers") != null;
		return new LoadSettings(stripSlash(System.getProperty("baseUrl", "http://127.0.0.1:8080")),
				custom ? consumers + "-" + producers : preset, producers, consumers,
				Double.parseDouble(System.getProperty("rate", "0")), seconds("durationSeconds", 30),
				Integer.getInteger("messageBytes", 100), Integer.getInteger("queues", 8), seconds("drainSeconds", 120),
				Duration.ofMillis(Long.getLong("emptyPollPauseMs", 5)),
				System.getProperty("queuePrefix", "load-" + Long.toString(System.currentTimeMillis(), 36)),
				System.getProperty("countsFile", "target/gatling/last-run-counts.json"), abandonShareProperty());
	}

	private static double abandonShareProperty() {
		double share = Double.parseDouble(System.getProperty("abandonShare", "0"));
		if (share < 0 || share > 1) {
			throw new IllegalArgumentException("abandonShare must be between 0 and 1, was " + share);
		}
		return share;
	}

	/** The thesis's setups, named consumers-producers: 1-1, 4-1, 1-4 and 4-4. */
	static int[] preset(String name) {
		return switch (name.toLowerCase(Locale.ROOT)) {
			case "1-1" -> new int[] { 1, 1 };
			case "4-1" -> new int[] { 4, 1 };
			case "1-4" -> new int[] { 1, 4 };
			case "4-4" -> new int[] { 4, 4 };
			default -> throw new IllegalArgumentException(
					"Unknown preset '" + name + "': use 1-1, 4-1, 1-4 or 4-4 (consumers-producers)");
		};
	}

	String queue(long index) {
		return this.queuePrefix + "-" + Math.floorMod(index, this.queues);
	}

	/**
	 * How often each producer pushes to reach {@link #rate}, or null when unthrottled.
	 */
	Duration producerPace() {
		return this.rate > 0 ? Duration.ofNanos((long) (1e9 * this.producers / this.rate)) : null;
	}

	String describe() {
		return String.format(Locale.ROOT,
				"%s: %d consumers, %d producers, rate %s, %ds, %d-byte bodies over %d queues '%s-*', drain <= %ds,"
						+ " %.0f%% of first deliveries abandoned",
				this.preset, this.consumers, this.producers, this.rate > 0 ? this.rate + "/s" : "unthrottled",
				this.duration.toSeconds(), this.messageBytes, this.queues, this.queuePrefix, this.drain.toSeconds(),
				100 * this.abandonShare);
	}

	private static Duration seconds(String name, long defaultSeconds) {
		return Duration.ofSeconds(Long.getLong(name, defaultSeconds));
	}

	private static String stripSlash(String url) {
		return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
	}

}
