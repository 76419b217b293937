package io.github.qsbench.gatling;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.bodyString;
import static io.gatling.javaapi.core.CoreDsl.details;
import static io.gatling.javaapi.core.CoreDsl.doIfOrElse;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.jmesPath;
import static io.gatling.javaapi.core.CoreDsl.pace;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.core.Simulation;
import io.gatling.javaapi.http.HttpProtocolBuilder;

/**
 * Producers push and consumers poll and complete over a few queues, as fast as the
 * service answers (or at {@code -Drate}); then consumers drain, and two checks compare
 * what was pushed with what was completed, through the API ({@code GET /queues}) and the
 * service's {@code qs_*} counters. A lost message, a failed request or a check that does
 * not hold fails the run.
 *
 * <p>
 * An empty poll (204) is a normal answer. A delivery whose {@code deliveries} exceeds 1,
 * or of an id already received, is counted as a duplicate; completing such a duplicate
 * may answer 404 (its other delivery was completed first), which is allowed only for
 * duplicates.
 *
 * <p>
 * With {@code -DabandonShare}, consumers never complete that share of first deliveries,
 * as if they crashed; the redelivery of such a message after its lease is expected, not a
 * duplicate, and the drain lasts until every abandoned message came back and was
 * completed.
 *
 * <pre>
 * ./mvnw -f gatling/pom.xml gatling:test -DbaseUrl=http://127.0.0.1:8080 -Dpreset=4-4 -DdurationSeconds=60
 * </pre>
 */
public class QueueSimulation extends Simulation {

	private final LoadSettings settings = LoadSettings.fromSystemProperties();

	private final ServiceProbe probe = new ServiceProbe(this.settings.baseUrl());

	private final RunCounts counts = new RunCounts();

	/** Queue and id of every delivery seen, to count duplicates. */
	private final Set<String> seen = ConcurrentHashMap.newKeySet();

	/**
	 * Queue and id of every message completed (204), to tell lost from completed twice.
	 */
	private final Set<String> completedIds = ConcurrentHashMap.newKeySet();

	/** Queue and id of every delivery a consumer abandoned. */
	private final Set<String> abandoned = ConcurrentHashMap.newKeySet();

	/** Abandoned messages not yet delivered again and completed. */
	private final AtomicLong abandonedOpen = new AtomicLong();

	private final AtomicLong firstDeliveries = new AtomicLong();

	private final AtomicLong pushSequence = new AtomicLong();

	private final AtomicInteger producersRunning = new AtomicInteger(this.settings.producers());

	private volatile long windowStart;

	private volatile long windowEnd;

	private volatile long drainDeadline;

	private volatile double serverPushedBefore;

	private volatile double serverCompletedBefore;

	private final String body = "m".repeat(this.settings.messageBytes());

	private final HttpProtocolBuilder protocol = http.baseUrl(this.settings.baseUrl())
		.acceptHeader("application/json")
		.userAgentHeader("queue-service-gatling")
		// Every poll leases a new delivery: with its ETag cached, Gatling would send
		// If-None-Match and get 304, no body, for a message it was just leased.
		.disableCaching();

	private final ScenarioBuilder producers = scenario("producers").asLongAs(session -> inWindow())
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
		String exposition = this.probe.get("/actuator/prometheus");
		this.serverPushedBefore = ServiceProbe.sample(exposition, "qs_messages_pushed_total");
		this.serverCompletedBefore = ServiceProbe.sample(exposition, "qs_messages_completed_total");
		this.counts.put("strategy", this.probe.strategy());
		this.counts.put("preset", this.settings.preset());
		this.counts.put("consumers", this.settings.consumers());
		this.counts.put("producers", this.settings.producers());
		this.counts.put("rate", this.settings.rate());
		this.counts.put("messageBytes", this.settings.messageBytes());
		this.counts.put("queues", this.settings.queues());
		this.counts.put("windowSeconds", this.settings.duration().toMillis() / 1000.0);
		this.windowStart = System.nanoTime();
		this.windowEnd = this.windowStart + this.settings.duration().toNanos();
		this.drainDeadline = this.windowEnd + this.settings.drain().toNanos();
	}

	@Override
	public void after() {
		this.counts.write(this.settings.countsFile());
		System.out.println(
				"QueueSimulation counts: " + this.counts.toMap() + " (written to " + this.settings.countsFile() + ")");
	}

	private ChainBuilder push() {
		ChainBuilder push = exec(session -> session.remove("pushedId")
			.set("queue", this.settings.queue(this.pushSequence.getAndIncrement())))
			.exec(http("push").post("/queues/#{queue}/messages")
				.header("Content-Type", "text/plain")
				.body(StringBody(this.body))
				.check(status().is(201))
				.check(jmesPath("id").saveAs("pushedId")))
			.exec(session -> {
				if (session.contains("pushedId")) {
					this.counts.pushed.increment();
				}
				countInWindow();
				return session;
			});
		Duration pace = this.settings.producerPace();
		return pace == null ? push : exec(pace(pace)).exec(push);
	}

	private ChainBuilder consume() {
		return exec(session -> {
			long next = session.getLong("next");
			return session.removeAll("id", "deliveries", "completed")
				.set("queue", this.settings.queue(next))
				.set("next", next + 1)
				.set("producersDone", this.producersRunning.get() == 0);
		}).exec(http("poll").get("/queues/#{queue}/messages")
			.check(status().in(200, 204))
			.checkIf((response, session) -> response.status().code() == 200)
			.then(jmesPath("id").saveAs("id"), jmesPath("deliveries").ofInt().saveAs("deliveries"))).exec(session -> {
				countInWindow();
				return session;
			})
			.doIfOrElse(session -> session.contains("id"))
			.then(exec(this::received).doIf(session -> !session.getBoolean("abandon")).then(exec(consumeDelivered())))
			.orElse(exec(session -> {
				this.counts.emptyPolls.increment();
				int round = session.getBoolean("producersDone") ? session.getInt("emptyRound") + 1 : 0;
				return session.set("emptyRound", round);
			}).pause(this.settings.emptyPollPause()));
	}

	private ChainBuilder consumeDelivered() {
		return doIfOrElse(session -> session.getBoolean("duplicate"))
			.then(exec(http("complete").delete("/queues/#{queue}/messages/#{id}")
				.check(status().in(204, 404))
				.check(status().saveAs("completed"))))
			.orElse(exec(http("complete").delete("/queues/#{queue}/messages/#{id}")
				.check(status().is(204))
				.check(status().saveAs("completed"))))
			.exec(this::completed);
	}

	private Session received(Session session) {
		this.counts.delivered.increment();
		String key = key(session);
		boolean again = session.getInt("deliveries") > 1 | !this.seen.add(key);
		boolean expected = again && this.abandoned.contains(key);
		if (expected) {
			this.counts.redeliveredAfterAbandon.increment();
		}
		else if (again) {
			this.counts.duplicates.increment();
		}
		boolean abandon = !again && abandonThisOne();
		if (abandon) {
			this.abandoned.add(key);
			this.abandonedOpen.incrementAndGet();
			this.counts.abandoned.increment();
		}
		return session.set("duplicate", again && !expected).set("abandon", abandon).set("emptyRound", 0);
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

	private static String key(Session session) {
		return session.getString("queue") + "/" + session.getString("id");
	}

	private Session completed(Session session) {
		if (session.contains("completed")) {
			int status = session.getInt("completed");
			if (status == 204) {
				this.counts.completed.increment();
				String key = key(session);
				this.completedIds.add(key);
				if (this.abandoned.contains(key)) {
					this.abandonedOpen.decrementAndGet();
				}
				if (System.nanoTime() < this.windowEnd) {
					this.counts.completedInWindow.increment();
				}
			}
			else if (status == 404) {
				this.counts.duplicateCompletesNotFound.increment();
			}
		}
		countInWindow();
		return session;
	}

	private boolean inWindow() {
		return System.nanoTime() < this.windowEnd;
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
		if (inWindow()) {
			return true;
		}
		if (System.nanoTime() > this.drainDeadline) {
			return false;
		}
		return this.producersRunning.get() > 0 || this.abandonedOpen.get() > 0
				|| session.getInt("emptyRound") < this.settings.queues();
	}

	/**
	 * "nothing lost" when every message pushed in this run was completed at least once
	 * (distinct ids completed = pushes), and the service's counters moved by what the
	 * client saw; otherwise what differs. A message completed twice (an at-least-once
	 * duplicate) is not a loss: it is counted as a duplicate.
	 */
	private String lossVerdict(String exposition) {
		long serverPushed = Math
			.round(ServiceProbe.sample(exposition, "qs_messages_pushed_total") - this.serverPushedBefore);
		long serverCompleted = Math
			.round(ServiceProbe.sample(exposition, "qs_messages_completed_total") - this.serverCompletedBefore);
		long pushed = this.counts.pushed.sum();
		long completed = this.counts.completed.sum();
		long distinct = this.completedIds.size();
		this.counts.put("serverPushed", serverPushed);
		this.counts.put("serverCompleted", serverCompleted);
		this.counts.put("completedDistinct", distinct);
		if (pushed == distinct && serverPushed == pushed && serverCompleted == completed) {
			return "nothing lost";
		}
		return String.format(
				"LOST: client pushed %d, completed %d distinct (%d answers 204); service counted pushed"
						+ " %d, completed %d (another client on the same service also moves the service's counters)",
				pushed, distinct, completed, serverPushed, serverCompleted);
	}

}
