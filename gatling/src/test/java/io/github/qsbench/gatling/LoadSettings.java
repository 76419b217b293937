package io.github.qsbench.gatling;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What a load test does, read from system properties ({@code -Dname=value} on the Maven
 * command line). A {@link Preset} sets the users, bodies, think time, rate and back
 * pressure at once; any of them given as a property wins over the preset's value.
 *
 * <p>
 * The presets are the thesis's four setups, named {@code CONSUMERS-PRODUCERS}, and the
 * five use cases of the seeds' queue benchmark (reactive-bench), translated to a queue
 * served over HTTP:
 * <ul>
 * <li>{@code 1-1}, {@code 4-1}, {@code 1-4}, {@code 4-4}: 100-byte bodies, consumers
 * complete at once, unthrottled.</li>
 * <li>{@code heavy} (reactive-bench's heavy lifting): 4 consumers, 2 producers, 64 KiB
 * bodies: few messages, each costly to copy, parse and hold.</li>
 * <li>{@code waiting} (its waiting): 4 consumers, 1 producer throttled to 100 messages/s,
 * 100-byte bodies, each consumer works 20 ms on what it polled before completing it:
 * consumers are mostly idle, which is where empty polls burn CPU and long polling should
 * not.</li>
 * <li>{@code mixed} (its mixed load): 4-4, 100-byte bodies with every 50th message (2%)
 * 64 KiB.</li>
 * <li>{@code backpressure} (its back pressure): 1 consumer, 4 producers, 100-byte bodies,
 * so the producers outrun the consumer until a cap of the service is reached (the study
 * starts the service with a small {@code qs.limits.max-total-bytes}); a producer answered
 * 429 waits its {@code Retry-After} and pushes the same message(s) again. 429s are
 * counted as back pressure, not as failures.</li>
 * <li>{@code fast} (its throughput): 4-4, 16-byte bodies, no latency, no back
 * pressure.</li>
 * </ul>
 *
 * @param baseUrl the service, for example {@code http://127.0.0.1:8080}
 * @param preset the preset's name as given, or {@code CONSUMERS-PRODUCERS} when the user
 * counts are overridden
 * @param producers virtual users that push in a loop
 * @param consumers virtual users that poll and complete in a loop
 * @param rate messages pushed per second over all producers; 0 means as fast as the
 * service answers
 * @param ramp how long the load runs before the window opens: requests and messages of
 * the ramp are not counted (the loss check counts them all)
 * @param duration the counted window: how long producers push and consumers consume after
 * the ramp, before the drain
 * @param messageBytes size of each pushed body
 * @param largeBytes size of a large body (see largeShare)
 * @param largeShare the share (0 to 1) of messages whose body is largeBytes instead of
 * messageBytes, spread evenly over the pushes
 * @param think what a consumer spends on each poll answer (one message, or one batch)
 * before it completes what it got
 * @param batchSize messages per request: 1 uses the single-message endpoints (push, poll,
 * {@code DELETE} with {@code If-Match}); 2 to 100 push with
 * {@code POST .../messages/batch}, poll with {@code ?max=batchSize} and complete with
 * {@code POST .../messages/completions} (id and lease of each message)
 * @param waitSeconds long polling: a poll inside the load window asks the service to wait
 * up to this long for a message ({@code ?wait=}, 0 to 20); 0 = off, and a consumer then
 * pauses emptyPollPause after an empty poll instead. The drain always polls without
 * waiting, so it ends as soon as the queues are empty
 * @param honourRetryAfter whether a push answered 429 is back pressure (wait
 * {@code Retry-After}, push again) or a failed request
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
record LoadSettings(String baseUrl, String preset, int producers, int consumers, double rate, Duration ramp,
		Duration duration, int messageBytes, int largeBytes, double largeShare, Duration think, int batchSize,
		int waitSeconds, boolean honourRetryAfter, int queues, Duration drain, Duration emptyPollPause,
		String queuePrefix, String countsFile, double abandonShare) {

	/** Largest batch and longest wait the API accepts. */
	static final int MAX_BATCH = 100;

	static final int MAX_WAIT_SECONDS = 20;

	/**
	 * One named load.
	 *
	 * @param name what {@code -Dpreset} says
	 * @param consumers virtual users that poll and complete
	 * @param producers virtual users that push
	 * @param messageBytes body size
	 * @param largeBytes size of a large body
	 * @param largeShare share of messages with a large body
	 * @param thinkMs a consumer's work on each poll answer before it completes
	 * @param rate messages per second over all producers, 0 = unthrottled
	 * @param backPressure whether producers expect 429 and honour {@code Retry-After}
	 */
	record Preset(String name, int consumers, int producers, int messageBytes, int largeBytes, double largeShare,
			long thinkMs, double rate, boolean backPressure) {

		static final List<Preset> ALL = List.of(thesis("1-1", 1, 1), thesis("4-1", 4, 1), thesis("1-4", 1, 4),
				thesis("4-4", 4, 4), new Preset("heavy", 4, 2, 64 * 1024, 64 * 1024, 0, 0, 0, false),
				new Preset("waiting", 4, 1, 100, 100, 0, 20, 100, false),
				new Preset("mixed", 4, 4, 100, 64 * 1024, 0.02, 0, 0, false),
				new Preset("backpressure", 1, 4, 100, 100, 0, 0, 0, true),
				new Preset("fast", 4, 4, 16, 16, 0, 0, 0, false));

		private static Preset thesis(String name, int consumers, int producers) {
			return new Preset(name, consumers, producers, 100, 100, 0, 0, 0, false);
		}

		static Preset named(String name) {
			return ALL.stream()
				.filter(p -> p.name.equals(name.toLowerCase(Locale.ROOT)))
				.findFirst()
				.orElseThrow(() -> new IllegalArgumentException("Unknown preset '" + name + "': use "
						+ ALL.stream().map(Preset::name).collect(Collectors.joining(", "))));
		}

	}

	static LoadSettings fromSystemProperties() {
		Preset preset = Preset.named(System.getProperty("preset", "4-4"));
		int consumers = Integer.getInteger("consumers", preset.consumers());
		int producers = Integer.getInteger("producers", preset.producers());
		if (consumers < 1 || producers < 1) {
			throw new IllegalArgumentException("consumers and producers must be at least 1");
		}
		boolean custom = System.getProperty("consumers") != null || System.getProperty("producers") != null;
		int batchSize = Integer.getInteger("batchSize", 1);
		if (batchSize < 1 || batchSize > MAX_BATCH) {
			throw new IllegalArgumentException("batchSize must be 1 to " + MAX_BATCH + ", was " + batchSize);
		}
		int waitSeconds = Integer.getInteger("waitSeconds", 0);
		if (waitSeconds < 0 || waitSeconds > MAX_WAIT_SECONDS) {
			throw new IllegalArgumentException("waitSeconds must be 0 to " + MAX_WAIT_SECONDS + ", was " + waitSeconds);
		}
		int messageBytes = Integer.getInteger("messageBytes", preset.messageBytes());
		int largeBytes = Integer.getInteger("largeBytes", preset.largeBytes());
		if (messageBytes < 1 || largeBytes < 1) {
			throw new IllegalArgumentException("messageBytes and largeBytes must be at least 1");
		}
		return new LoadSettings(stripSlash(System.getProperty("baseUrl", "http://127.0.0.1:8080")),
				custom ? consumers + "-" + producers : preset.name(), producers, consumers,
				Double.parseDouble(System.getProperty("rate", Double.toString(preset.rate()))),
				seconds("rampSeconds", 0), seconds("durationSeconds", 30), messageBytes, largeBytes,
				share("largeShare", preset.largeShare()), Duration.ofMillis(Long.getLong("thinkMs", preset.thinkMs())),
				batchSize, waitSeconds,
				Boolean.parseBoolean(System.getProperty("retryAfter", Boolean.toString(preset.backPressure()))),
				Integer.getInteger("queues", 8), seconds("drainSeconds", 120),
				Duration.ofMillis(Long.getLong("emptyPollPauseMs", 5)),
				System.getProperty("queuePrefix", "load-" + Long.toString(System.currentTimeMillis(), 36)),
				System.getProperty("countsFile", "target/gatling/last-run-counts.json"), share("abandonShare", 0));
	}

	private static double share(String name, double defaultShare) {
		double share = Double.parseDouble(System.getProperty(name, Double.toString(defaultShare)));
		if (share < 0 || share > 1) {
			throw new IllegalArgumentException(name + " must be between 0 and 1, was " + share);
		}
		return share;
	}

	String queue(long index) {
		return this.queuePrefix + "-" + Math.floorMod(index, this.queues);
	}

	/**
	 * Whether the n-th message (from 1) is large: spreads largeShare evenly, the n-th
	 * message being large when n * share crosses a whole number.
	 */
	boolean large(long n) {
		return Math.floor(n * this.largeShare) > Math.floor((n - 1) * this.largeShare);
	}

	/**
	 * How often each producer pushes (one message or one batch) to reach {@link #rate}
	 * messages per second, or null when unthrottled.
	 */
	Duration producerPace() {
		return this.rate > 0 ? Duration.ofNanos((long) (1e9 * this.batchSize * this.producers / this.rate)) : null;
	}

	String describe() {
		return String.format(Locale.ROOT,
				"%s: %d consumers, %d producers, rate %s, %ds ramp + %ds, %d-byte bodies%s over %d queues '%s-*', batches of %d,"
						+ " long polling %s, consumer think %d ms, 429 %s, drain <= %ds,"
						+ " %.0f%% of first deliveries abandoned",
				this.preset, this.consumers, this.producers, this.rate > 0 ? this.rate + " messages/s" : "unthrottled",
				this.ramp.toSeconds(), this.duration.toSeconds(), this.messageBytes,
				(this.largeShare > 0)
						? String.format(Locale.ROOT, " (%.1f%% of %d bytes)", 100 * this.largeShare, this.largeBytes)
						: "",
				this.queues, this.queuePrefix, this.batchSize, (this.waitSeconds > 0) ? this.waitSeconds + " s" : "off",
				this.think.toMillis(), this.honourRetryAfter ? "= back pressure (honour Retry-After)" : "= failure",
				this.drain.toSeconds(), 100 * this.abandonShare);
	}

	private static Duration seconds(String name, long defaultSeconds) {
		return Duration.ofSeconds(Long.getLong(name, defaultSeconds));
	}

	private static String stripSlash(String url) {
		return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
	}

}
