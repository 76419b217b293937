package io.github.qsbench.gatling;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.bodyString;
import static io.gatling.javaapi.core.CoreDsl.details;
import static io.gatling.javaapi.core.CoreDsl.doIf;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.jmesPath;
import static io.gatling.javaapi.core.CoreDsl.pace;
import static io.gatling.javaapi.core.CoreDsl.pause;
import static io.gatling.javaapi.core.CoreDsl.responseTimeInMillis;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.header;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.IntStream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gatling.javaapi.core.Assertion;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.core.Simulation;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import io.gatling.javaapi.http.HttpRequestActionBuilder;

/**
 * Producers push and consumers poll and complete over a few queues, as fast as the
 * service answers (or at {@code -Drate}); then consumers drain, and two checks compare
 * what was pushed with what was completed, through the API ({@code GET /queues}) and the
 * service's {@code qs_*} counters. A lost message, a failed request or a check that does
 * not hold fails the run. {@link LoadSettings} lists the presets and properties.
 *
 * <p>
 * Every message is accounted for one by one, whether it travelled alone or in a batch
 * ({@code -DbatchSize}). An empty poll (204) is a normal answer. A delivery whose
 * {@code deliveries} exceeds 1, or of an id already received, is counted as a duplicate.
 * Consumers complete with the lease of their delivery ({@code If-Match}, or the lease of
 * each entry of a batch completion), so completing a message another consumer also got
 * may be refused (404: completed by the other; 412: delivered again since); a refusal is
 * allowed only for a message this run saw delivered more than once, which the final check
 * verifies.
 *
 * <p>
 * With back pressure on (preset {@code backpressure}, or {@code -DretryAfter=true}) a
 * push answered 429 is not a failure: the producer waits the {@code Retry-After} seconds
 * and pushes the same message(s) again. Refused messages were never accepted, so the loss
 * check still holds exactly.
 *
 * <p>
 * With {@code -DabandonShare}, consumers never complete that share of first deliveries,
 * as if they crashed; the redelivery of such a message after its lease is expected, not a
 * duplicate, and the drain lasts until every abandoned message came back and was
 * completed.
 *
 * <p>
 * With {@code -DinFlight} (preset {@code deep-inflight}) consumers hold what they poll
 * and complete the oldest held once they hold more than their share; they complete a held
 * message before half its lease ({@code -DleaseSeconds}) has passed in any case, since a
 * lapsed lease would bring it back as a duplicate (allowed by the loss check, but
 * misleading for an exactly-once strategy), and complete everything held at the drain.
 *
 * <p>
 * With {@code -DrampSeconds} the load runs that long before the counted window opens, so
 * that Gatling's own JVM (fresh each run) is past its JIT warm-up when counting starts.
 *
 * <p>
 * With {@code -DbaseUrls} each service gets its share of the load ({@link Instance}), its
 * own checks (named with its host and port, as are its requests in Gatling's report) and
 * its own counts; the counts file adds them up and lists each under {@code instances}.
 *
 * <p>
 * Besides its counts, the run records the service's process CPU time
 * ({@code process_cpu_time_ns_total}) from the baseline scrape before the load to the
 * check after the drain; inside the window its core contention
 * ({@code qs_contention_seconds_total}), the time its threads spent inside the core
 * ({@code qs_core_seconds_total}) and answering requests at all
 * ({@code http_server_requests_seconds_sum}), when the service exports them; its messages
 * in flight ({@code qs_messages_inflight}) at the window's start and end; and the
 * machine's CPU in the window beside the service's and Gatling's ({@link MachineSample}).
 *
 * <pre>
 * ./mvnw -f gatling/pom.xml gatling:test -DbaseUrl=http://127.0.0.1:8080 -Dpreset=4-4 -DdurationSeconds=60
 * ./mvnw -f gatling/pom.xml gatling:test -Dpreset=waiting -DbatchSize=10 -DwaitSeconds=2
 * ./mvnw -f gatling/pom.xml gatling:test -Dpreset=deep-inflight -DrampSeconds=20 -DleaseSeconds=600
 * ./mvnw -f gatling/pom.xml gatling:test -DbaseUrls=http://127.0.0.1:8081,http://127.0.0.1:8082
 * </pre>
 */
public class QueueSimulation extends Simulation {

	private static final ObjectMapper JSON = new ObjectMapper();

	private static final String CPU_METRIC = "process_cpu_time_ns_total";

	private static final String CONTENTION_METRIC = "qs_contention_seconds_total";

	private static final String INFLIGHT_METRIC = "qs_messages_inflight";

	/** Seconds the service's threads spent inside calls into the queue core. */
	private static final String CORE_METRIC = "qs_core_seconds_total";

	/** Seconds the service spent answering HTTP requests (Spring's request timer). */
	private static final String HTTP_SECONDS_METRIC = "http_server_requests_seconds_sum";

	private final LoadSettings settings = LoadSettings.fromSystemProperties();

	private final boolean batches = this.settings.batchSize() > 1;

	/** Load starts at once; counting starts after the ramp, at windowStart. */
	private volatile long windowStart;

	private volatile long windowEnd;

	private volatile long drainDeadline;

	private volatile long baselineNanos;

	/** The machine's CPU at the window's start, and what it spent inside the window. */
	private volatile MachineSample windowOpenMachine;

	private final Map<String, Object> machine = new ConcurrentHashMap<>();

	private final ScheduledExecutorService windowScrapes = Executors.newSingleThreadScheduledExecutor(runnable -> {
		Thread thread = new Thread(runnable, "window-scrapes");
		thread.setDaemon(true);
		return thread;
	});

	private final String smallBody = "m".repeat(this.settings.messageBytes());

	private final String largeBody = "m".repeat(this.settings.largeBytes());

	/**
	 * JSON of a batch push by how many of its messages are large: which ones are does not
	 * change the cost, so at most batchSize + 1 bodies are ever built.
	 */
	private final Map<Integer, String> batchBodies = new ConcurrentHashMap<>();

	/** The services loaded, each with its share of the load (one, unless baseUrls). */
	private final List<Instance> instances = IntStream.range(0, this.settings.baseUrls().size())
		.mapToObj(i -> new Instance(this.settings.share(i)))
		.toList();

	{
		System.out.println("QueueSimulation " + this.settings.describe());
		List<PopulationBuilder> populations = new ArrayList<>();
		List<Assertion> assertions = new ArrayList<>(List.of(global().failedRequests().count().is(0L)));
		for (Instance instance : this.instances) {
			populations.addAll(instance.populations());
			assertions.add(details("check: nothing lost" + instance.tag).failedRequests().count().is(0L));
			assertions.add(details("check: queues empty" + instance.tag).failedRequests().count().is(0L));
		}
		setUp(populations).assertions(assertions);
	}

	@Override
	public void before() {
		this.instances.forEach(Instance::before);
		this.baselineNanos = System.nanoTime();
		this.windowStart = this.baselineNanos + this.settings.ramp().toNanos();
		this.windowEnd = this.windowStart + this.settings.duration().toNanos();
		this.drainDeadline = this.windowEnd + this.settings.drain().toNanos();
		this.windowScrapes.schedule(() -> {
			this.windowOpenMachine = MachineSample.now();
			this.instances.forEach(Instance::openWindow);
		}, this.windowStart - System.nanoTime(), TimeUnit.NANOSECONDS);
		this.windowScrapes.schedule(() -> {
			MachineSample open = this.windowOpenMachine;
			MachineSample close = MachineSample.now();
			if (open != null && close != null) {
				close.putSince(open, this.machine::put);
			}
			this.instances.forEach(Instance::closeWindow);
		}, this.windowEnd - System.nanoTime(), TimeUnit.NANOSECONDS);
	}

	/**
	 * Writes the run's settings and counts; with several services the counts added up,
	 * and each service's own under {@code instances}.
	 */
	@Override
	public void after() {
		Map<String, Object> run = new LinkedHashMap<>();
		run.put("preset", this.settings.preset());
		run.put("consumers", this.settings.consumers());
		run.put("producers", this.settings.producers());
		run.put("rate", this.settings.rate());
		run.put("messageBytes", this.settings.messageBytes());
		run.put("largeBytes", this.settings.largeBytes());
		run.put("largeShare", this.settings.largeShare());
		run.put("thinkMs", this.settings.think().toMillis());
		run.put("batchSize", this.settings.batchSize());
		run.put("waitSeconds", this.settings.waitSeconds());
		run.put("retryAfter", this.settings.honourRetryAfter());
		run.put("queues", this.settings.queues());
		run.put("inFlight", this.settings.inFlight());
		run.put("followProducers", this.settings.followProducers());
		run.put("rampSeconds", this.settings.ramp().toMillis() / 1000.0);
		run.put("windowSeconds", this.settings.duration().toMillis() / 1000.0);
		List<Map<String, Object>> each = this.instances.stream().map(instance -> instance.counts.toMap()).toList();
		if (each.size() == 1) {
			run.putAll(each.get(0));
		}
		else {
			run.putAll(RunCounts.total(each));
			run.put("instances", each);
		}
		run.putAll(this.machine);
		RunCounts.write(this.settings.countsFile(), run);
		System.out.println("QueueSimulation counts: " + run + " (written to " + this.settings.countsFile() + ")");
	}

	/** Producers push, and consumers may long-poll, until the window closes. */
	private boolean loading() {
		return System.nanoTime() < this.windowEnd;
	}

	/** Whether what happens now is counted: after the ramp, before the window closes. */
	private boolean inWindow() {
		long now = System.nanoTime();
		return now >= this.windowStart && now < this.windowEnd;
	}

	/**
	 * One service's share of the load: its producers, consumers and checks, and what the
	 * run counts against it. With one service it is the whole load.
	 */
	private final class Instance {

		private final LoadSettings share;

		/**
		 * Appended to scenario and request names when several services are loaded (
		 * {@code " @host:port"}), so that Gatling's report tells them apart.
		 */
		private final String tag;

		private final ServiceProbe probe;

		private final RunCounts counts = new RunCounts();

		/**
		 * Id of every delivery seen, to count duplicates (ids are unique within the
		 * service).
		 */
		private final Set<Long> seen = ConcurrentHashMap.newKeySet();

		/**
		 * Ids seen delivered more than once: the only ones a completion may be refused.
		 */
		private final Set<Long> deliveredAgain = ConcurrentHashMap.newKeySet();

		/** Ids whose completion was refused (404 or 412). */
		private final Set<Long> refused = ConcurrentHashMap.newKeySet();

		/** Ids completed (204), to tell lost from completed twice. */
		private final Set<Long> completedIds = ConcurrentHashMap.newKeySet();

		/** Ids of every delivery a consumer abandoned. */
		private final Set<Long> abandoned = ConcurrentHashMap.newKeySet();

		/** Abandoned messages not yet delivered again and completed. */
		private final Set<Long> abandonedOpen = ConcurrentHashMap.newKeySet();

		private final AtomicLong firstDeliveries = new AtomicLong();

		/** Pushes (requests) so far: picks each push's queue. */
		private final AtomicLong pushSequence = new AtomicLong();

		/** Messages put into pushes so far: picks which are large. */
		private final AtomicLong messageSequence = new AtomicLong();

		/** Pushes whose queue a consumer has polled (with followProducers). */
		private final AtomicLong followSequence = new AtomicLong();

		private final AtomicInteger producersRunning;

		private volatile String baseline;

		/** The exposition at the window's start, for the contention inside the window. */
		private volatile String windowOpen;

		Instance(LoadSettings share) {
			this.share = share;
			this.tag = (QueueSimulation.this.settings.baseUrls().size() > 1)
					? " @" + share.baseUrl().replaceFirst("^[a-z]+://", "") : "";
			this.probe = new ServiceProbe(share.baseUrl());
			this.producersRunning = new AtomicInteger(share.producers());
		}

		List<PopulationBuilder> populations() {
			HttpProtocolBuilder protocol = http.baseUrl(this.share.baseUrl())
				.acceptHeader("application/json")
				.userAgentHeader("queue-service-gatling")
				// Every poll leases a new delivery: with its ETag cached, Gatling would
				// send
				// If-None-Match and get 304, no body, for a message it was just leased.
				.disableCaching();
			ScenarioBuilder producers = scenario("producers" + this.tag).asLongAs(session -> loading())
				.on(push())
				.exec(session -> {
					this.producersRunning.decrementAndGet();
					return session;
				});
			ScenarioBuilder consumers = scenario("consumers" + this.tag)
				.exec(session -> session.set("next", (long) session.userId())
					.set("emptyRound", 0)
					.set("holding", new Holding()))
				.asLongAs(this::keepConsuming)
				.on(consume());
			ScenarioBuilder checks = scenario("checks" + this.tag).exec(
					http("check: queues empty" + this.tag).get("/queues")
						.check(status().is(200))
						.check(bodyString().transform(body -> ServiceProbe.leftInQueues(body, this.share.queuePrefix()))
							.is(0L)),
					http("check: nothing lost" + this.tag).get("/actuator/prometheus")
						.header("Accept", "text/plain")
						.check(status().is(200))
						.check(bodyString().transform(this::lossVerdict).is("nothing lost")));
			return List.of(producers.injectOpen(atOnceUsers(this.share.producers())).protocols(protocol),
					consumers.injectOpen(atOnceUsers(this.share.consumers()))
						.protocols(protocol)
						.andThen(checks.injectOpen(atOnceUsers(1)).protocols(protocol)));
		}

		void before() {
			this.baseline = this.probe.get("/actuator/prometheus");
			this.counts.put("baseUrl", this.share.baseUrl());
			this.counts.put("strategy", this.probe.strategy());
			this.counts.put("consumers", this.share.consumers());
			this.counts.put("producers", this.share.producers());
			this.counts.put("rate", this.share.rate());
		}

		void openWindow() {
			this.windowOpen = scrape();
			if (this.windowOpen != null) {
				ServiceProbe.find(this.windowOpen, INFLIGHT_METRIC)
					.ifPresent(n -> this.counts.put("inflightAtWindowStart", Math.round(n)));
			}
		}

		/**
		 * Core contention, core time and HTTP request time inside the load window only (a
		 * rate: the ramp and the drain run at another load), from the scrapes at the
		 * window's start and end, each where the service exports it; and the messages in
		 * flight when it closes.
		 */
		void closeWindow() {
			String open = this.windowOpen;
			String close = scrape();
			if (close != null) {
				ServiceProbe.find(close, INFLIGHT_METRIC)
					.ifPresent(n -> this.counts.put("inflightAtWindowEnd", Math.round(n)));
			}
			if (open != null && close != null) {
				delta(open, close, CPU_METRIC).ifPresent(ns -> this.counts.put("serviceCpuSecondsInWindow", ns / 1e9));
				delta(open, close, CONTENTION_METRIC).ifPresent(s -> this.counts.put("contentionSeconds", s));
				delta(open, close, CORE_METRIC).ifPresent(s -> this.counts.put("coreSeconds", s));
				delta(open, close, HTTP_SECONDS_METRIC).ifPresent(s -> this.counts.put("httpServerSeconds", s));
			}
		}

		private ChainBuilder push() {
			ChainBuilder push = exec(this::nextPush).exec(pushRequest())
				.exec(this::pushAnswered)
				.doIf(session -> session.contains("retryAfter"))
				.then(pause(session -> Duration.ofSeconds(session.getLong("retryAfter"))));
			Duration pace = this.share.producerPace();
			return pace == null ? push : exec(pace(pace)).exec(push);
		}

		/**
		 * The next push's queue and body; after a 429 the same ones again, so the refused
		 * message(s) are the ones pushed once the service has room.
		 */
		private Session nextPush(Session session) {
			boolean retry = session.contains("retryAfter");
			Session next = session.removeAll("pushStatus", "retryAfter");
			if (retry) {
				return next;
			}
			int n = this.share.batchSize();
			long first = this.messageSequence.getAndAdd(n) + 1;
			int large = 0;
			for (long i = first; i < first + n; i++) {
				large += this.share.large(i) ? 1 : 0;
			}
			String body = QueueSimulation.this.batches
					? QueueSimulation.this.batchBodies.computeIfAbsent(large, QueueSimulation.this::batchBody)
					: (large > 0) ? QueueSimulation.this.largeBody : QueueSimulation.this.smallBody;
			return next.set("queue", this.share.queue(this.pushSequence.getAndIncrement())).set("pushBody", body);
		}

		private HttpRequestActionBuilder pushRequest() {
			boolean backPressure = this.share.honourRetryAfter();
			Integer[] accepted = backPressure ? new Integer[] { 201, 429 } : new Integer[] { 201 };
			HttpRequestActionBuilder request = (QueueSimulation.this.batches
					? http("push" + this.tag).post("/queues/#{queue}/messages/batch")
						.header("Content-Type", "application/json")
					: http("push" + this.tag).post("/queues/#{queue}/messages").header("Content-Type", "text/plain"))
				.body(StringBody(session -> session.getString("pushBody")))
				.check(status().in(accepted), status().saveAs("pushStatus"))
				.checkIf((response, session) -> response.status().code() == 201)
				// All or nothing: a batch answers every id, in push order.
				.then(QueueSimulation.this.batches ? jmesPath("length(ids)").ofInt().is(this.share.batchSize())
						: jmesPath("id").exists());
			return backPressure ? request.checkIf((response, session) -> response.status().code() == 429)
				.then(header("Retry-After").saveAs("retryAfterHeader")) : request;
		}

		private Session pushAnswered(Session session) {
			countInWindow();
			if (!session.contains("pushStatus")) {
				return session;
			}
			int status = session.getInt("pushStatus");
			if (status == 201) {
				this.counts.pushed.add(this.share.batchSize());
				return session;
			}
			if (status != 429 || !this.share.honourRetryAfter()) {
				return session;
			}
			this.counts.backPressured.increment();
			return session.set("retryAfter", retryAfterSeconds(session.getString("retryAfterHeader")));
		}

		/**
		 * One round of a consumer: poll, count what came and complete it (or, with
		 * inFlight, hold it and complete the oldest held). A round that must release held
		 * messages (the drain, or a lease half gone) only completes, without polling.
		 */
		private ChainBuilder consume() {
			Duration think = this.share.think();
			ChainBuilder completing = doIf(session -> !this.<List<Leased>>toComplete(session).isEmpty())
				.then(think.isZero() ? complete() : exec(pause(think)).exec(complete()));
			ChainBuilder poll = exec(pollRequest()).doIfOrElse(session -> session.contains("pollBody"))
				.then(exec(this::received).exec(completing))
				.orElse(exec(this::emptyPoll).doIf(session -> session.getBoolean("pauseAfterEmpty"))
					.then(pause(this.share.emptyPollPause())));
			return exec(this::nextRound).doIfOrElse(session -> session.contains("toComplete"))
				.then(completing)
				.orElse(poll);
		}

		private Session nextRound(Session session) {
			Session round = session.removeAll("pollStatus", "pollMillis", "pollBody", "toComplete", "completeStatus",
					"completeBody");
			Holding holding = round.get("holding");
			long staleBefore = staleBefore();
			if (holding.size() > 0 && (!loading() || holding.oldestPolledAt() < staleBefore)) {
				return round.set("toComplete", holding.release(loading() ? this.share.heldPerConsumer() : 0,
						this.share.batchSize(), staleBefore, this.counts.releasedBeforeLease));
			}
			long next = round.getLong("next");
			long followed = this.share.followProducers() ? follow() : -1;
			return round.set("queue", this.share.queue((followed >= 0) ? followed : next))
				.set("next", (followed >= 0) ? next : next + 1)
				.set("longPoll", this.share.waitSeconds() > 0 && loading())
				.set("producersDone", this.producersRunning.get() == 0);
		}

		/**
		 * The oldest push whose queue no consumer has polled yet, or -1 once the
		 * consumers have caught up with the producers (then a consumer walks the queues
		 * itself). A push still under way may not have arrived: with every producer at
		 * most one push ahead, only those before the last one per producer are followed.
		 */
		private long follow() {
			long limit = this.pushSequence.get() - this.producersRunning.get();
			long index = this.followSequence.getAndUpdate(v -> (v < limit) ? v + 1 : v);
			return (index < limit) ? index : -1;
		}

		/** A held message polled before this has half its lease gone. */
		private long staleBefore() {
			return System.nanoTime() - TimeUnit.SECONDS.toNanos(this.share.leaseSeconds()) / 2;
		}

		private HttpRequestActionBuilder pollRequest() {
			return http("poll" + this.tag).get(this::pollPath)
				.check(status().in(200, 204), status().saveAs("pollStatus"),
						responseTimeInMillis().saveAs("pollMillis"))
				.checkIf((response, session) -> response.status().code() == 200)
				// Every delivery carries the lease its completion names.
				.then(jmesPath(QueueSimulation.this.batches ? "messages[0].lease" : "lease").exists(),
						bodyString().saveAs("pollBody"));
		}

		private String pollPath(Session session) {
			String path = "/queues/" + session.getString("queue") + "/messages";
			String max = QueueSimulation.this.batches ? "max=" + this.share.batchSize() : null;
			String wait = session.getBoolean("longPoll") ? "wait=" + this.share.waitSeconds() : null;
			if (max != null && wait != null) {
				return path + "?" + max + "&" + wait;
			}
			return (max != null) ? path + "?" + max : (wait != null) ? path + "?" + wait : path;
		}

		private Session emptyPoll(Session session) {
			countInWindow();
			if (!session.contains("pollStatus")) {
				// The request failed (and counts as failed): pause as after an empty
				// poll.
				return session.set("pauseAfterEmpty", true);
			}
			this.counts.emptyPolls.increment();
			boolean longPoll = session.getBoolean("longPoll");
			// A long poll answers 204 only once its wait has ended; much earlier means
			// the
			// service ignored the wait, and the consumer must not spin.
			boolean early = longPoll && session.getInt("pollMillis") < 900L * this.share.waitSeconds();
			if (early) {
				this.counts.earlyEmptyLongPolls.increment();
			}
			int round = session.getBoolean("producersDone") ? session.getInt("emptyRound") + 1 : 0;
			return session.set("emptyRound", round).set("pauseAfterEmpty", !longPoll || early);
		}

		/**
		 * Counts the poll's deliveries one by one, tells duplicates and picks those to
		 * abandon; the rest are to be completed, or with inFlight held, and the oldest
		 * held beyond the consumer's share completed instead.
		 */
		private Session received(Session session) {
			countInWindow();
			List<Leased> toComplete = new ArrayList<>();
			Holding holding = session.get("holding");
			boolean hold = this.share.inFlight() > 0;
			boolean window = inWindow();
			for (Leased message : Leased.parse(session.getString("pollBody"))) {
				this.counts.delivered.increment();
				if (window) {
					this.counts.deliveredInWindow.increment();
				}
				boolean again = message.deliveries() > 1 | !this.seen.add(message.id());
				if (again) {
					this.deliveredAgain.add(message.id());
				}
				boolean expected = again && this.abandoned.contains(message.id());
				if (expected) {
					this.counts.redeliveredAfterAbandon.increment();
				}
				else if (again) {
					this.counts.duplicates.increment();
				}
				if (!again && abandonThisOne()) {
					this.abandoned.add(message.id());
					this.abandonedOpen.add(message.id());
					this.counts.abandoned.increment();
				}
				else if (hold) {
					holding.add(message);
				}
				else {
					toComplete.add(message);
				}
			}
			if (hold) {
				toComplete = holding.release(this.share.heldPerConsumer(), this.share.batchSize(), staleBefore(),
						this.counts.releasedBeforeLease);
			}
			return session.set("toComplete", toComplete).set("emptyRound", 0);
		}

		private <T> T toComplete(Session session) {
			return session.get("toComplete");
		}

		/**
		 * Completes what the consumer got, with each delivery's lease: a {@code DELETE}
		 * with {@code If-Match}, or one batch completion answering a status per message.
		 * The messages are of one queue, not always the one just polled (with inFlight).
		 */
		private ChainBuilder complete() {
			if (QueueSimulation.this.batches) {
				return exec(http("complete" + this.tag)
					.post(session -> "/queues/" + this.<List<Leased>>toComplete(session).get(0).queue()
							+ "/messages/completions")
					.header("Content-Type", "application/json")
					.body(StringBody(session -> Leased.completionsJson(toComplete(session))))
					.check(status().is(200), bodyString().saveAs("completeBody"))).exec(session -> {
						countInWindow();
						if (session.contains("completeBody")) {
							Map<Long, Integer> results = Leased.results(session.getString("completeBody"));
							for (Leased message : this.<List<Leased>>toComplete(session)) {
								completed(message.id(), results.getOrDefault(message.id(), -1));
							}
						}
						return session;
					});
			}
			return exec(http("complete" + this.tag).delete(session -> {
				Leased message = this.<List<Leased>>toComplete(session).get(0);
				return "/queues/" + message.queue() + "/messages/" + message.id();
			})
				.header("If-Match", session -> "\"" + this.<List<Leased>>toComplete(session).get(0).lease() + "\"")
				.check(status().in(204, 404, 412), status().saveAs("completeStatus"))).exec(session -> {
					countInWindow();
					if (session.contains("completeStatus")) {
						completed(this.<List<Leased>>toComplete(session).get(0).id(), session.getInt("completeStatus"));
					}
					return session;
				});
		}

		private void completed(long id, int status) {
			switch (status) {
				case 204 -> {
					this.counts.completed.increment();
					this.completedIds.add(id);
					this.abandonedOpen.remove(id);
					if (inWindow()) {
						this.counts.completedInWindow.increment();
					}
				}
				case 404, 412 -> {
					this.counts.completesRefused.increment();
					this.refused.add(id);
				}
				default -> this.counts.completesUnexpected.increment();
			}
		}

		/**
		 * Spreads abandonment evenly: the n-th first delivery is abandoned when n * share
		 * crosses a whole number.
		 */
		private boolean abandonThisOne() {
			long n = this.firstDeliveries.incrementAndGet();
			double share = this.share.abandonShare();
			return Math.floor(n * share) > Math.floor((n - 1) * share);
		}

		private void countInWindow() {
			if (inWindow()) {
				this.counts.requestsInWindow.increment();
			}
		}

		/**
		 * Consume during the window; then drain until producers have stopped, every
		 * abandoned message came back and was completed, the consumer holds nothing, and
		 * either every message pushed was completed or it has polled every queue once and
		 * found it empty (over 10,000 queues that sweep alone takes minutes); or until
		 * the drain's deadline.
		 */
		private boolean keepConsuming(Session session) {
			if (loading()) {
				return true;
			}
			if (System.nanoTime() > QueueSimulation.this.drainDeadline) {
				return false;
			}
			return this.producersRunning.get() > 0 || !this.abandonedOpen.isEmpty()
					|| session.<Holding>get("holding").size() > 0 || (session.getInt("emptyRound") < this.share.queues()
							&& this.completedIds.size() < this.counts.pushed.sum());
		}

		/**
		 * "nothing lost" when every message pushed in this run was completed at least
		 * once (distinct ids completed = pushes), the service's counters moved by what
		 * the client saw, every completion answered 204, 404 or 412, and only messages
		 * delivered more than once had a completion refused; otherwise what differs. A
		 * message completed twice (an at-least-once duplicate) is not a loss: it is
		 * counted as a duplicate. Also records the service's CPU time and contention
		 * since the baseline.
		 */
		private String lossVerdict(String exposition) {
			recordServerDeltas(exposition);
			long serverPushed = Math.round(delta(this.baseline, exposition, "qs_messages_pushed_total").orElse(0));
			long serverCompleted = Math
				.round(delta(this.baseline, exposition, "qs_messages_completed_total").orElse(0));
			long pushed = this.counts.pushed.sum();
			long completed = this.counts.completed.sum();
			long distinct = this.completedIds.size();
			long unexpected = this.counts.completesUnexpected.sum();
			long refusedOnce = this.refused.stream().filter(id -> !this.deliveredAgain.contains(id)).count();
			this.counts.put("serverPushed", serverPushed);
			this.counts.put("serverCompleted", serverCompleted);
			this.counts.put("completedDistinct", distinct);
			this.counts.put("refusedDeliveredOnce", refusedOnce);
			if (pushed == distinct && serverPushed == pushed && serverCompleted == completed && unexpected == 0
					&& refusedOnce == 0) {
				return "nothing lost";
			}
			return String.format("LOST at %s: client pushed %d, completed %d distinct (%d answers 204); service"
					+ " counted pushed %d, completed %d (another client on the same service also moves the service's"
					+ " counters); %d completions answered neither 204, 404 nor 412; %d refused for messages delivered"
					+ " once", this.share.baseUrl(), pushed, distinct, completed, serverPushed, serverCompleted,
					unexpected, refusedOnce);
		}

		/**
		 * The service's CPU time over the whole run, from the baseline to this check
		 * after the drain: every message of the run was pushed, polled and completed in
		 * between, so divided by the messages it is the CPU each cost (the service was
		 * warmed up before).
		 */
		private void recordServerDeltas(String exposition) {
			this.counts.put("serverSeconds", (System.nanoTime() - QueueSimulation.this.baselineNanos) / 1e9);
			delta(this.baseline, exposition, CPU_METRIC).ifPresent(ns -> this.counts.put("serverCpuSeconds", ns / 1e9));
		}

		/**
		 * The service's exposition, or null if it did not answer (then no window figure).
		 */
		private String scrape() {
			try {
				return this.probe.get("/actuator/prometheus");
			}
			catch (RuntimeException ex) {
				System.err.println("QueueSimulation: no scrape at the window's edge: " + ex.getMessage());
				return null;
			}
		}

	}

	private String batchBody(int large) {
		StringBuilder json = new StringBuilder("{\"messages\":[");
		for (int i = 0; i < this.settings.batchSize(); i++) {
			json.append(i == 0 ? "\"" : ",\"").append((i < large) ? this.largeBody : this.smallBody).append('"');
		}
		return json.append("]}").toString();
	}

	/**
	 * Retry-After in seconds (RFC 9110 also allows a date; the service sends seconds).
	 */
	private static long retryAfterSeconds(String header) {
		try {
			return Math.max(0, Long.parseLong(header.trim()));
		}
		catch (RuntimeException ex) {
			return 1;
		}
	}

	/**
	 * How much a metric moved between two expositions, or empty if the service lacks it.
	 */
	private static OptionalDouble delta(String before, String after, String metric) {
		OptionalDouble now = ServiceProbe.find(after, metric);
		OptionalDouble then = ServiceProbe.find(before, metric);
		return (now.isPresent() && then.isPresent()) ? OptionalDouble.of(now.getAsDouble() - then.getAsDouble())
				: OptionalDouble.empty();
	}

	/**
	 * What one consumer holds with inFlight: its deliveries per queue, each queue's in
	 * the order they were polled (a batch completion names one queue). Used by that
	 * consumer's virtual user only.
	 */
	static final class Holding {

		private final Map<String, ArrayDeque<Held>> byQueue = new HashMap<>();

		private int size;

		void add(Leased message) {
			this.byQueue.computeIfAbsent(message.queue(), queue -> new ArrayDeque<>())
				.addLast(new Held(message, System.nanoTime()));
			this.size++;
		}

		int size() {
			return this.size;
		}

		/** When the oldest held message was polled (Long.MAX_VALUE when none is held). */
		long oldestPolledAt() {
			return this.byQueue.values()
				.stream()
				.mapToLong(held -> held.peekFirst().polledAt())
				.min()
				.orElse(Long.MAX_VALUE);
		}

		/**
		 * Up to max of the oldest messages of the queue whose oldest was polled first, to
		 * complete now: as long as more than keep are held, or the oldest was polled
		 * before staleBefore (counted in early, as it leaves the depth short).
		 */
		List<Leased> release(int keep, int max, long staleBefore, LongAdder early) {
			Map.Entry<String, ArrayDeque<Held>> oldest = null;
			for (Map.Entry<String, ArrayDeque<Held>> entry : this.byQueue.entrySet()) {
				if (oldest == null
						|| entry.getValue().peekFirst().polledAt() < oldest.getValue().peekFirst().polledAt()) {
					oldest = entry;
				}
			}
			List<Leased> release = new ArrayList<>();
			while (oldest != null && !oldest.getValue().isEmpty() && release.size() < max) {
				Held first = oldest.getValue().peekFirst();
				boolean over = this.size > keep;
				if (!over && first.polledAt() >= staleBefore) {
					break;
				}
				if (!over) {
					early.increment();
				}
				oldest.getValue().pollFirst();
				this.size--;
				release.add(first.message());
			}
			if (oldest != null && oldest.getValue().isEmpty()) {
				this.byQueue.remove(oldest.getKey());
			}
			return release;
		}

		private record Held(Leased message, long polledAt) {
		}

	}

	/**
	 * One delivery: the message's id and queue, its delivery count and the lease to
	 * complete it.
	 */
	record Leased(long id, String queue, int deliveries, String lease) {

		/**
		 * The deliveries of a poll's answer: one message, or {@code {"messages":[...]}}.
		 */
		static List<Leased> parse(String body) {
			JsonNode root = read(body);
			List<Leased> leased = new ArrayList<>();
			for (JsonNode message : root.has("messages") ? root.get("messages") : List.of(root)) {
				leased.add(new Leased(message.path("id").asLong(), message.path("queue").asText(),
						message.path("deliveries").asInt(), message.path("lease").asText()));
			}
			return leased;
		}

		static String completionsJson(List<Leased> messages) {
			StringBuilder json = new StringBuilder("{\"messages\":[");
			for (int i = 0; i < messages.size(); i++) {
				Leased message = messages.get(i);
				json.append((i == 0) ? "{\"id\":" : ",{\"id\":").append(message.id()).append(",\"lease\":");
				try {
					json.append(JSON.writeValueAsString(message.lease())).append('}');
				}
				catch (IOException ex) {
					throw new UncheckedIOException(ex);
				}
			}
			return json.append("]}").toString();
		}

		/** Id to status of a batch completion's answer {@code {"results":[...]}}. */
		static Map<Long, Integer> results(String body) {
			Map<Long, Integer> results = new HashMap<>();
			for (JsonNode result : read(body).path("results")) {
				results.put(result.path("id").asLong(), result.path("status").asInt());
			}
			return results;
		}

		private static JsonNode read(String body) {
			try {
				return JSON.readTree(body);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}

	}

}
