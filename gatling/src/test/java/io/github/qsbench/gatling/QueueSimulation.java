package io.github.qsbench.gatling;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.bodyString;
import static io.gatling.javaapi.core.CoreDsl.details;
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
import java.util.ArrayList;
import java.util.HashMap;
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

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gatling.javaapi.core.ChainBuilder;
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
 * With {@code -DrampSeconds} the load runs that long before the counted window opens, so
 * that Gatling's own JVM (fresh each run) is past its JIT warm-up when counting starts.
 *
 * <p>
 * Besides its counts, the run records the service's process CPU time
 * ({@code process_cpu_time_ns_total}) from the baseline scrape before the load to the
 * check after the drain, and inside the window its core contention
 * ({@code qs_contention_seconds_total}), the time request threads spent inside the core
 * ({@code qs_core_seconds_total}) and answering requests at all
 * ({@code http_server_requests_seconds_sum}), when the service exports them, and the
 * machine's CPU in the window beside the service's and Gatling's ({@link MachineSample}).
 *
 * <pre>
 * ./mvnw -f gatling/pom.xml gatling:test -DbaseUrl=http://127.0.0.1:8080 -Dpreset=4-4 -DdurationSeconds=60
 * ./mvnw -f gatling/pom.xml gatling:test -Dpreset=waiting -DbatchSize=10 -DwaitSeconds=2
 * </pre>
 */
public class QueueSimulation extends Simulation {

	private static final ObjectMapper JSON = new ObjectMapper();

	private static final String CPU_METRIC = "process_cpu_time_ns_total";

	private static final String CONTENTION_METRIC = "qs_contention_seconds_total";

	/**
	 * Seconds request threads spent inside calls into the queue core (newer services).
	 */
	private static final String CORE_METRIC = "qs_core_seconds_total";

	/** Seconds the service spent answering HTTP requests (Spring's request timer). */
	private static final String HTTP_SECONDS_METRIC = "http_server_requests_seconds_sum";

	private final LoadSettings settings = LoadSettings.fromSystemProperties();

	private final boolean batches = this.settings.batchSize() > 1;

	private final ServiceProbe probe = new ServiceProbe(this.settings.baseUrl());

	private final RunCounts counts = new RunCounts();

	/**
	 * Id of every delivery seen, to count duplicates (ids are unique within the service).
	 */
	private final Set<Long> seen = ConcurrentHashMap.newKeySet();

	/** Ids seen delivered more than once: the only ones a completion may be refused. */
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

	private final AtomicInteger producersRunning = new AtomicInteger(this.settings.producers());

	/** Load starts at once; counting starts after the ramp, at windowStart. */
	private volatile long windowStart;

	private volatile long windowEnd;

	private volatile long drainDeadline;

	private volatile long baselineNanos;

	private volatile String baseline;

	/** The exposition at the window's start, for the contention inside the window. */
	private volatile String windowOpen;

	/** The machine's CPU at the window's start. */
	private volatile MachineSample windowOpenMachine;

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

	private final HttpProtocolBuilder protocol = http.baseUrl(this.settings.baseUrl())
		.acceptHeader("application/json")
		.userAgentHeader("queue-service-gatling")
		// Every poll leases a new delivery: with its ETag cached, Gatling would send
		// If-None-Match and get 304, no body, for a message it was just leased.
		.disableCaching();

	private final ScenarioBuilder producers = scenario("producers").asLongAs(session -> loading())
		.on(push())
		.exec(session -> {
			this.producersRunning.decrementAndGet();
			return session;
		});

	private final ScenarioBuilder consumers = scenario("consumers")
		.exec(session -> session.set("next", (long) session.userId()).set("emptyRound", 0))
		.asLongAs(this::keepConsuming)
		.on(consume());

	private final ScenarioBuilder checks = scenario("checks").exec(
			http("check: queues empty").get("/queues")
				.check(status().is(200))
				.check(bodyString().transform(body -> ServiceProbe.leftInQueues(body, this.settings.queuePrefix()))
					.is(0L)),
			http("check: nothing lost").get("/actuator/prometheus")
				.header("Accept", "text/plain")
				.check(status().is(200))
				.check(bodyString().transform(this::lossVerdict).is("nothing lost")));

	{
		System.out.println("QueueSimulation " + this.settings.describe() + " against " + this.settings.baseUrl());
		setUp(this.producers.injectOpen(atOnceUsers(this.settings.producers())),
				this.consumers.injectOpen(atOnceUsers(this.settings.consumers()))
					.andThen(this.checks.injectOpen(atOnceUsers(1))))
			.protocols(this.protocol)
			.assertions(global().failedRequests().count().is(0L),
					details("check: nothing lost").failedRequests().count().is(0L),
					details("check: queues empty").failedRequests().count().is(0L));
	}

	@Override
	public void before() {
		this.baseline = this.probe.get("/actuator/prometheus");
		this.baselineNanos = System.nanoTime();
		this.counts.put("strategy", this.probe.strategy());
		this.counts.put("preset", this.settings.preset());
		this.counts.put("consumers", this.settings.consumers());
		this.counts.put("producers", this.settings.producers());
		this.counts.put("rate", this.settings.rate());
		this.counts.put("messageBytes", this.settings.messageBytes());
		this.counts.put("largeBytes", this.settings.largeBytes());
		this.counts.put("largeShare", this.settings.largeShare());
		this.counts.put("thinkMs", this.settings.think().toMillis());
		this.counts.put("batchSize", this.settings.batchSize());
		this.counts.put("waitSeconds", this.settings.waitSeconds());
		this.counts.put("retryAfter", this.settings.honourRetryAfter());
		this.counts.put("queues", this.settings.queues());
		this.counts.put("rampSeconds", this.settings.ramp().toMillis() / 1000.0);
		this.counts.put("windowSeconds", this.settings.duration().toMillis() / 1000.0);
		this.windowStart = this.baselineNanos + this.settings.ramp().toNanos();
		this.windowEnd = this.windowStart + this.settings.duration().toNanos();
		this.drainDeadline = this.windowEnd + this.settings.drain().toNanos();
		this.windowScrapes.schedule(() -> {
			this.windowOpenMachine = MachineSample.now();
			this.windowOpen = scrape();
		}, this.windowStart - System.nanoTime(), TimeUnit.NANOSECONDS);
		this.windowScrapes.schedule(this::recordWindowContention, this.windowEnd - System.nanoTime(),
				TimeUnit.NANOSECONDS);
	}

	@Override
	public void after() {
		this.counts.write(this.settings.countsFile());
		System.out.println(
				"QueueSimulation counts: " + this.counts.toMap() + " (written to " + this.settings.countsFile() + ")");
	}

	private ChainBuilder push() {
		ChainBuilder push = exec(this::nextPush).exec(pushRequest())
			.exec(this::pushAnswered)
			.doIf(session -> session.contains("retryAfter"))
			.then(pause(session -> Duration.ofSeconds(session.getLong("retryAfter"))));
		Duration pace = this.settings.producerPace();
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
		int n = this.settings.batchSize();
		long first = this.messageSequence.getAndAdd(n) + 1;
		int large = 0;
		for (long i = first; i < first + n; i++) {
			large += this.settings.large(i) ? 1 : 0;
		}
		String body = this.batches ? this.batchBodies.computeIfAbsent(large, this::batchBody)
				: (large > 0) ? this.largeBody : this.smallBody;
		return next.set("queue", this.settings.queue(this.pushSequence.getAndIncrement())).set("pushBody", body);
	}

	private String batchBody(int large) {
		StringBuilder json = new StringBuilder("{\"messages\":[");
		for (int i = 0; i < this.settings.batchSize(); i++) {
			json.append(i == 0 ? "\"" : ",\"").append((i < large) ? this.largeBody : this.smallBody).append('"');
		}
		return json.append("]}").toString();
	}

	private HttpRequestActionBuilder pushRequest() {
		Integer[] accepted = this.settings.honourRetryAfter() ? new Integer[] { 201, 429 } : new Integer[] { 201 };
		HttpRequestActionBuilder request = (this.batches
				? http("push").post("/queues/#{queue}/messages/batch").header("Content-Type", "application/json")
				: http("push").post("/queues/#{queue}/messages").header("Content-Type", "text/plain"))
			.body(StringBody(session -> session.getString("pushBody")))
			.check(status().in(accepted), status().saveAs("pushStatus"))
			.checkIf((response, session) -> response.status().code() == 201)
			// All or nothing: a batch answers every id, in push order.
			.then(this.batches ? jmesPath("length(ids)").ofInt().is(this.settings.batchSize())
					: jmesPath("id").exists());
		return this.settings.honourRetryAfter()
				? request.checkIf((response, session) -> response.status().code() == 429)
					.then(header("Retry-After").saveAs("retryAfterHeader"))
				: request;
	}

	private Session pushAnswered(Session session) {
		countInWindow();
		if (!session.contains("pushStatus")) {
			return session;
		}
		int status = session.getInt("pushStatus");
		if (status == 201) {
			this.counts.pushed.add(this.settings.batchSize());
			return session;
		}
		if (status != 429 || !this.settings.honourRetryAfter()) {
			return session;
		}
		this.counts.backPressured.increment();
		return session.set("retryAfter", retryAfterSeconds(session.getString("retryAfterHeader")));
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

	private ChainBuilder consume() {
		ChainBuilder delivered = exec(this::received).doIf(session -> !this.<List<Leased>>toComplete(session).isEmpty())
			.then(this.settings.think().isZero() ? complete() : exec(pause(this.settings.think())).exec(complete()));
		return exec(session -> {
			long next = session.getLong("next");
			return session
				.removeAll("pollStatus", "pollMillis", "pollBody", "toComplete", "completeStatus", "completeBody")
				.set("queue", this.settings.queue(next))
				.set("next", next + 1)
				.set("longPoll", this.settings.waitSeconds() > 0 && loading())
				.set("producersDone", this.producersRunning.get() == 0);
		}).exec(pollRequest())
			.doIfOrElse(session -> session.contains("pollBody"))
			.then(delivered)
			.orElse(exec(this::emptyPoll).doIf(session -> session.getBoolean("pauseAfterEmpty"))
				.then(pause(this.settings.emptyPollPause())));
	}

	private HttpRequestActionBuilder pollRequest() {
		return http("poll").get(session -> pollPath(session))
			.check(status().in(200, 204), status().saveAs("pollStatus"), responseTimeInMillis().saveAs("pollMillis"))
			.checkIf((response, session) -> response.status().code() == 200)
			// Every delivery carries the lease its completion names.
			.then(jmesPath(this.batches ? "messages[0].lease" : "lease").exists(), bodyString().saveAs("pollBody"));
	}

	private String pollPath(Session session) {
		String path = "/queues/" + session.getString("queue") + "/messages";
		String max = this.batches ? "max=" + this.settings.batchSize() : null;
		String wait = session.getBoolean("longPoll") ? "wait=" + this.settings.waitSeconds() : null;
		if (max != null && wait != null) {
			return path + "?" + max + "&" + wait;
		}
		return (max != null) ? path + "?" + max : (wait != null) ? path + "?" + wait : path;
	}

	private Session emptyPoll(Session session) {
		countInWindow();
		if (!session.contains("pollStatus")) {
			// The request failed (and counts as failed): pause as after an empty poll.
			return session.set("pauseAfterEmpty", true);
		}
		this.counts.emptyPolls.increment();
		boolean longPoll = session.getBoolean("longPoll");
		// A long poll answers 204 only once its wait has ended; much earlier means the
		// service ignored the wait, and the consumer must not spin.
		boolean early = longPoll && session.getInt("pollMillis") < 900L * this.settings.waitSeconds();
		if (early) {
			this.counts.earlyEmptyLongPolls.increment();
		}
		int round = session.getBoolean("producersDone") ? session.getInt("emptyRound") + 1 : 0;
		return session.set("emptyRound", round).set("pauseAfterEmpty", !longPoll || early);
	}

	/**
	 * Counts the poll's deliveries one by one, tells duplicates and picks those to
	 * abandon; the rest are to be completed.
	 */
	private Session received(Session session) {
		countInWindow();
		List<Leased> toComplete = new ArrayList<>();
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
			else {
				toComplete.add(message);
			}
		}
		return session.set("toComplete", toComplete).set("emptyRound", 0);
	}

	private <T> T toComplete(Session session) {
		return session.get("toComplete");
	}

	/**
	 * Completes what the consumer got, with each delivery's lease: a {@code DELETE} with
	 * {@code If-Match}, or one batch completion answering a status per message.
	 */
	private ChainBuilder complete() {
		if (this.batches) {
			return exec(http("complete").post("/queues/#{queue}/messages/completions")
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
		return exec(http("complete")
			.delete(session -> "/queues/" + session.getString("queue") + "/messages/"
					+ this.<List<Leased>>toComplete(session).get(0).id())
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
		double share = this.settings.abandonShare();
		return Math.floor(n * share) > Math.floor((n - 1) * share);
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

	private void countInWindow() {
		if (inWindow()) {
			this.counts.requestsInWindow.increment();
		}
	}

	/**
	 * Consume during the window; then drain until producers have stopped, every abandoned
	 * message came back and was completed, and this consumer has polled every queue once
	 * and found it empty; or until the drain's deadline.
	 */
	private boolean keepConsuming(Session session) {
		if (loading()) {
			return true;
		}
		if (System.nanoTime() > this.drainDeadline) {
			return false;
		}
		return this.producersRunning.get() > 0 || !this.abandonedOpen.isEmpty()
				|| session.getInt("emptyRound") < this.settings.queues();
	}

	/**
	 * "nothing lost" when every message pushed in this run was completed at least once
	 * (distinct ids completed = pushes), the service's counters moved by what the client
	 * saw, every completion answered 204, 404 or 412, and only messages delivered more
	 * than once had a completion refused; otherwise what differs. A message completed
	 * twice (an at-least-once duplicate) is not a loss: it is counted as a duplicate.
	 * Also records the service's CPU time and contention since the baseline.
	 */
	private String lossVerdict(String exposition) {
		recordServerDeltas(exposition);
		long serverPushed = Math.round(delta(this.baseline, exposition, "qs_messages_pushed_total").orElse(0));
		long serverCompleted = Math.round(delta(this.baseline, exposition, "qs_messages_completed_total").orElse(0));
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
		return String.format(
				"LOST: client pushed %d, completed %d distinct (%d answers 204); service counted pushed"
						+ " %d, completed %d (another client on the same service also moves the service's counters);"
						+ " %d completions answered neither 204, 404 nor 412; %d refused for messages delivered once",
				pushed, distinct, completed, serverPushed, serverCompleted, unexpected, refusedOnce);
	}

	/**
	 * The service's CPU time over the whole run, from the baseline to this check after
	 * the drain: every message of the run was pushed, polled and completed in between, so
	 * divided by the messages it is the CPU each cost (the service was warmed up before).
	 */
	private void recordServerDeltas(String exposition) {
		this.counts.put("serverSeconds", (System.nanoTime() - this.baselineNanos) / 1e9);
		delta(this.baseline, exposition, CPU_METRIC).ifPresent(ns -> this.counts.put("serverCpuSeconds", ns / 1e9));
	}

	/**
	 * Core contention, core time and HTTP request time inside the load window only (the
	 * ramp and the drain run at another load), from the scrapes at the window's start and
	 * end; each only where the service exports it.
	 */
	private void recordWindowContention() {
		MachineSample openMachine = this.windowOpenMachine;
		MachineSample closeMachine = MachineSample.now();
		String open = this.windowOpen;
		String close = scrape();
		if (openMachine != null && closeMachine != null) {
			closeMachine.putSince(openMachine, this.counts);
		}
		if (open != null && close != null) {
			delta(open, close, CPU_METRIC).ifPresent(ns -> this.counts.put("serviceCpuSecondsInWindow", ns / 1e9));
			delta(open, close, CONTENTION_METRIC).ifPresent(s -> this.counts.put("contentionSeconds", s));
			delta(open, close, CORE_METRIC).ifPresent(s -> this.counts.put("coreSeconds", s));
			delta(open, close, HTTP_SECONDS_METRIC).ifPresent(s -> this.counts.put("httpServerSeconds", s));
		}
	}

	/** The service's exposition, or null if it did not answer (then no window figure). */
	private String scrape() {
		try {
			return this.probe.get("/actuator/prometheus");
		}
		catch (RuntimeException ex) {
			System.err.println("QueueSimulation: no scrape at the window's edge: " + ex.getMessage());
			return null;
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
	 * One delivery: the message's id, its delivery count and the lease to complete it.
	 */
	record Leased(long id, int deliveries, String lease) {

		/**
		 * The deliveries of a poll's answer: one message, or {@code {"messages":[...]}}.
		 */
		static List<Leased> parse(String body) {
			JsonNode root = read(body);
			List<Leased> leased = new ArrayList<>();
			for (JsonNode message : root.has("messages") ? root.get("messages") : List.of(root)) {
				leased.add(new Leased(message.path("id").asLong(), message.path("deliveries").asInt(),
						message.path("lease").asText()));
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
