package io.github.qsbench.gatling;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
 * <p>
 * Four more stress one part of the core each:
 * <ul>
 * <li>{@code deep-inflight}: what does a poll cost when many messages are leased and not
 * yet completed? The thesis's AbstractQS poll (its 5.2.3.1) walks from the queue's head
 * past every leased message to the first ready one. 4-4, 100-byte bodies, 2 queues; each
 * consumer holds its share of {@code -DinFlight} messages per queue (default 20,000,
 * 1,000 to 50,000) and completes the oldest it holds after each poll, so the walk meets
 * that many leased messages. Give a ramp long enough to fill the depth
 * ({@code -DrampSeconds}); the counts report the service's in-flight gauge at the
 * window's edges. A held message is completed before half its lease has passed
 * ({@code -DleaseSeconds}, default 30 as the service's {@code qs.lease-timeout}), so
 * under the default lease the depth is what consumers cycle in 15 s
 * ({@code releasedBeforeLease} counts the early ones); for the full depth start the
 * service with {@code --qs.lease-timeout=10m} and pass {@code -DleaseSeconds=600}.</li>
 * <li>{@code many-queues}: what do the map and its lock cost when queues come and go?
 * 4-4, 100-byte bodies over 10,000 queues: each push goes to the next queue, so a queue
 * is created by its first push and removed once polled empty. Consumers follow the
 * producers ({@code followProducers}): each poll goes to the queue of the oldest push no
 * consumer has followed yet, so polls find messages. Consumers each sweeping all 10,000
 * queues would mostly meet empty queues and measure empty polls instead. The service's
 * default {@code qs.limits.max-queues} is 10,000: run it alone on the service, or raise
 * the cap.</li>
 * <li>{@code hot-queue}: what does one queue cost with many consumers waiting on it? One
 * queue, 256 consumers (try 64 to 512) long-polling it for up to 2 s, 4 producers
 * unthrottled. The study runs the service on virtual threads
 * ({@code --spring.threads.virtual.enabled=true}, JDK 25) so that the threads are not the
 * limit.</li>
 * <li>{@code large-batches}: how far apart are the strategies once batches take most of
 * the HTTP cost away? 4-4, batches of 100, unthrottled, back pressure honoured. Start the
 * service with a large cap ({@code -Xmx2g}, or {@code --qs.limits.max-total-bytes=1GB} as
 * docs/archive/e2e-study-batches.md did) so that 429s do not decide the rate.</li>
 * </ul>
 *
 * <p>
 * With {@code -DbaseUrls=URL,URL,...} one load is spread over several services (separate
 * in-memory instances, typically running two strategies side by side): each gets an equal
 * share of the producers, consumers and rate ({@link #share}), its own queues (a message
 * pushed to one exists only there) and the same shape of load.
 *
 * @param baseUrls the services, for example {@code http://127.0.0.1:8080}; the load is
 * spread evenly over them
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
 * @param inFlight messages each queue keeps leased and not completed (0 = consumers
 * complete what they poll at once); consumers release them at the drain
 * @param leaseSeconds the service's lease ({@code qs.lease-timeout}): a held message is
 * completed before half of it has passed, whatever inFlight says, so that no lease lapses
 * and no redelivery passes for a duplicate
 * @param followProducers whether consumers poll the queues the producers pushed to, in
 * push order, instead of each walking the queues round-robin
 */
record LoadSettings(List<String> baseUrls, String preset, int producers, int consumers, double rate, Duration ramp,
		Duration duration, int messageBytes, int largeBytes, double largeShare, Duration think, int batchSize,
		int waitSeconds, boolean honourRetryAfter, int queues, Duration drain, Duration emptyPollPause,
		String queuePrefix, String countsFile, double abandonShare, int inFlight, int leaseSeconds,
		boolean followProducers) {

	/** Largest batch and longest wait the API accepts. */
	static final int MAX_BATCH = 100;

	static final int MAX_WAIT_SECONDS = 20;

	/** The range of {@code -DinFlight}, messages leased per queue (0 = off). */
	static final int MIN_IN_FLIGHT = 1_000;

	static final int MAX_IN_FLIGHT = 50_000;

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
	 * @param defaults the preset's values of other properties ({@code queues},
	 * {@code batchSize}, {@code waitSeconds}, {@code inFlight}, {@code followProducers})
	 */
	record Preset(String name, int consumers, int producers, int messageBytes, int largeBytes, double largeShare,
			long thinkMs, double rate, boolean backPressure, Map<String, String> defaults) {

		static final List<Preset> ALL = List.of(thesis("1-1", 1, 1), thesis("4-1", 4, 1), thesis("1-4", 1, 4),
				thesis("4-4", 4, 4), new Preset("heavy", 4, 2, 64 * 1024, 64 * 1024, 0, 0, 0, false, Map.of()),
				new Preset("waiting", 4, 1, 100, 100, 0, 20, 100, false, Map.of()),
				new Preset("mixed", 4, 4, 100, 64 * 1024, 0.02, 0, 0, false, Map.of()),
				new Preset("backpressure", 1, 4, 100, 100, 0, 0, 0, true, Map.of()),
				new Preset("fast", 4, 4, 16, 16, 0, 0, 0, false, Map.of()),
				new Preset("deep-inflight", 4, 4, 100, 100, 0, 0, 0, false, Map.of("queues", "2", "inFlight", "20000")),
				new Preset("many-queues", 4, 4, 100, 100, 0, 0, 0, false,
						Map.of("queues", "10000", "followProducers", "true")),
				new Preset("hot-queue", 256, 4, 100, 100, 0, 0, 0, false, Map.of("queues", "1", "waitSeconds", "2")),
				new Preset("large-batches", 4, 4, 100, 100, 0, 0, 0, true, Map.of("batchSize", "100")));

		private static Preset thesis(String name, int consumers, int producers) {
			return new Preset(name, consumers, producers, 100, 100, 0, 0, 0, false, Map.of());
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
		int batchSize = Integer.parseInt(property(preset, "batchSize", "1"));
		if (batchSize < 1 || batchSize > MAX_BATCH) {
			throw new IllegalArgumentException("batchSize must be 1 to " + MAX_BATCH + ", was " + batchSize);
		}
		int waitSeconds = Integer.parseInt(property(preset, "waitSeconds", "0"));
		if (waitSeconds < 0 || waitSeconds > MAX_WAIT_SECONDS) {
			throw new IllegalArgumentException("waitSeconds must be 0 to " + MAX_WAIT_SECONDS + ", was " + waitSeconds);
		}
		int messageBytes = Integer.getInteger("messageBytes", preset.messageBytes());
		int largeBytes = Integer.getInteger("largeBytes", preset.largeBytes());
		if (messageBytes < 1 || largeBytes < 1) {
			throw new IllegalArgumentException("messageBytes and largeBytes must be at least 1");
		}
		int inFlight = Integer.parseInt(property(preset, "inFlight", "0"));
		if (inFlight != 0 && (inFlight < MIN_IN_FLIGHT || inFlight > MAX_IN_FLIGHT)) {
			throw new IllegalArgumentException(
					"inFlight must be 0 (off) or " + MIN_IN_FLIGHT + " to " + MAX_IN_FLIGHT + ", was " + inFlight);
		}
		double abandonShare = share("abandonShare", 0);
		if (inFlight > 0 && abandonShare > 0) {
			// Abandoned messages would sit among the held ones until their lease lapses.
			throw new IllegalArgumentException("inFlight and abandonShare do not combine");
		}
		int leaseSeconds = Integer.getInteger("leaseSeconds", 30);
		if (leaseSeconds < 2) {
			throw new IllegalArgumentException("leaseSeconds must be at least 2, was " + leaseSeconds);
		}
		List<String> baseUrls = Arrays
			.stream(System.getProperty("baseUrls", System.getProperty("baseUrl", "http://127.0.0.1:8080")).split(","))
			.map(String::trim)
			.filter(url -> !url.isEmpty())
			.map(LoadSettings::stripSlash)
			.toList();
		if (baseUrls.isEmpty()) {
			throw new IllegalArgumentException("baseUrls names no service");
		}
		return new LoadSettings(baseUrls, custom ? consumers + "-" + producers : preset.name(), producers, consumers,
				Double.parseDouble(System.getProperty("rate", Double.toString(preset.rate()))),
				seconds("rampSeconds", 0), seconds("durationSeconds", 30), messageBytes, largeBytes,
				share("largeShare", preset.largeShare()), Duration.ofMillis(Long.getLong("thinkMs", preset.thinkMs())),
				batchSize, waitSeconds,
				Boolean.parseBoolean(System.getProperty("retryAfter", Boolean.toString(preset.backPressure()))),
				Integer.parseInt(property(preset, "queues", "8")), seconds("drainSeconds", 120),
				Duration.ofMillis(Long.getLong("emptyPollPauseMs", 5)),
				System.getProperty("queuePrefix", "load-" + Long.toString(System.currentTimeMillis(), 36)),
				System.getProperty("countsFile", "target/gatling/last-run-counts.json"), abandonShare, inFlight,
				leaseSeconds, Boolean.parseBoolean(property(preset, "followProducers", "false")));
	}

	/** A property as given, else the preset's value, else the fallback. */
	private static String property(Preset preset, String name, String fallback) {
		return System.getProperty(name, preset.defaults().getOrDefault(name, fallback));
	}

	/** The service, when the load goes to one (as it does for each {@link #share}). */
	String baseUrl() {
		if (this.baseUrls.size() != 1) {
			throw new IllegalStateException("one service expected, got " + this.baseUrls);
		}
		return this.baseUrls.get(0);
	}

	/**
	 * What the i-th service gets: its equal share of the producers, consumers and rate,
	 * everything else the same. The users must divide evenly, so that every service sees
	 * the same shape of load.
	 */
	LoadSettings share(int instance) {
		int n = this.baseUrls.size();
		if (this.producers % n != 0 || this.consumers % n != 0) {
			throw new IllegalArgumentException(String.format(Locale.ROOT,
					"%d producers and %d consumers do not divide evenly over %d services: give -Dproducers and"
							+ " -Dconsumers as multiples of %d",
					this.producers, this.consumers, n, n));
		}
		return new LoadSettings(List.of(this.baseUrls.get(instance)), this.preset, this.producers / n,
				this.consumers / n, this.rate / n, this.ramp, this.duration, this.messageBytes, this.largeBytes,
				this.largeShare, this.think, this.batchSize, this.waitSeconds, this.honourRetryAfter, this.queues,
				this.drain, this.emptyPollPause, this.queuePrefix, this.countsFile, this.abandonShare, this.inFlight,
				this.leaseSeconds, this.followProducers);
	}

	/**
	 * How many messages each consumer holds at most (with inFlight): the queues' depth
	 * spread over the consumers, who all poll every queue.
	 */
	int heldPerConsumer() {
		return (int) Math.ceil((double) this.inFlight * this.queues / this.consumers);
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
						+ " %.0f%% of first deliveries abandoned%s%s%s",
				this.preset, this.consumers, this.producers, this.rate > 0 ? this.rate + " messages/s" : "unthrottled",
				this.ramp.toSeconds(), this.duration.toSeconds(), this.messageBytes,
				(this.largeShare > 0)
						? String.format(Locale.ROOT, " (%.1f%% of %d bytes)", 100 * this.largeShare, this.largeBytes)
						: "",
				this.queues, this.queuePrefix, this.batchSize, (this.waitSeconds > 0) ? this.waitSeconds + " s" : "off",
				this.think.toMillis(), this.honourRetryAfter ? "= back pressure (honour Retry-After)" : "= failure",
				this.drain.toSeconds(), 100 * this.abandonShare,
				(this.inFlight > 0) ? String.format(Locale.ROOT,
						", %d in flight per queue (%d per consumer, each completed within %d s)", this.inFlight,
						heldPerConsumer(), this.leaseSeconds / 2) : "",
				this.followProducers ? ", consumers follow the producers' queues" : "",
				(this.baseUrls.size() > 1) ? ", spread evenly over " + this.baseUrls : "");
	}

	private static Duration seconds(String name, long defaultSeconds) {
		return Duration.ofSeconds(Long.getLong(name, defaultSeconds));
	}

	private static String stripSlash(String url) {
		return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
	}

}
