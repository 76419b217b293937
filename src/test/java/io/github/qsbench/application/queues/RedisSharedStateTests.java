package io.github.qsbench.application.queues;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiPredicate;
import java.util.function.UnaryOperator;

import io.github.qsbench.application.Limits;
import io.github.qsbench.application.MessageAttributes;
import io.github.qsbench.application.OutgoingMessage;
import io.github.qsbench.application.Received;
import io.github.qsbench.application.Sent;
import io.github.qsbench.application.StoreGauges;
import io.github.qsbench.application.TestOperations;
import io.github.qsbench.application.fifo.FifoSettlement;
import io.github.qsbench.application.fifo.FifoState;
import io.github.qsbench.application.messages.LongPoll;
import io.github.qsbench.application.messages.MessageOperations;
import io.github.qsbench.application.queues.MessageMoveTask.Status;
import io.github.qsbench.application.stores.Stores;
import io.github.qsbench.core.ByIdOperation;
import io.github.qsbench.core.Eviction;
import io.github.qsbench.core.MutableClock;
import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.QueueStats;
import io.github.qsbench.core.TestCores;
import io.github.qsbench.metrics.QueueMetrics;
import io.github.qsbench.redis.LocalRedis;
import io.github.qsbench.redis.LocalRedisCluster;
import io.github.qsbench.redis.LocalRedisConnections;
import io.github.qsbench.redis.RedisStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * What SQS keeps per queue, kept in Redis and so shared by two instances of the service
 * on one namespace (two application stacks, each with its own core, stores and move
 * tasks, as two processes would have them): FIFO deduplication and sequence numbers, one
 * move task per source, a task whose owner died taken over by the other. On a standalone
 * Redis and on a cluster of three masters.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(RedisSharedStateTests.Topology.class)
@Timeout(120)
class RedisSharedStateTests {

	private static final Duration LEASE = Duration.ofSeconds(30);

	private static final String FIFO = "orders.fifo";

	enum Topology {

		STANDALONE, CLUSTER

	}

	private static final Map<Topology, LettuceConnectionFactory> factories = new EnumMap<>(Topology.class);

	@Parameter
	Topology topology;

	private final MutableClock clock = new MutableClock();

	private final String namespace = TestCores.newNamespace();

	private final List<Instance> made = new ArrayList<>();

	@AfterEach
	void close() throws Exception {
		for (Instance instance : this.made) {
			instance.close();
		}
	}

	@AfterAll
	static void stop() {
		synchronized (factories) {
			factories.values().forEach(LettuceConnectionFactory::destroy);
			factories.clear();
		}
	}

	private LettuceConnectionFactory connections() {
		synchronized (factories) {
			return factories.computeIfAbsent(this.topology,
					(topology) -> (topology == Topology.CLUSTER)
							? LocalRedisConnections.cluster(LocalRedisCluster.shared3())
							: LocalRedisConnections.standalone(LocalRedis.shared()));
		}
	}

	/** Connections of their own, for an instance to be killed (they are cut). */
	private LettuceConnectionFactory ownConnections() {
		return (this.topology == Topology.CLUSTER) ? LocalRedisConnections.cluster(LocalRedisCluster.shared3())
				: LocalRedisConnections.standalone(LocalRedis.shared());
	}

	/** One instance of the service on this test's namespace, as the service wires it. */
	private Instance instance() {
		return instance(connections());
	}

	private Instance instance(LettuceConnectionFactory connections) {
		return instance(connections, UnaryOperator.identity());
	}

	/**
	 * An instance whose operations and tasks call {@code core} as {@code wrapped} wraps
	 * it.
	 */
	private Instance instance(LettuceConnectionFactory connections, UnaryOperator<QueueServiceCore> wrapped) {
		RedisStore store = new RedisStore(connections, this.topology == Topology.CLUSTER, this.namespace);
		Stores stores = store.stores(new QueueOptions(LEASE, Eviction.LAZY, this.clock, true));
		QueueMetrics metrics = new QueueMetrics(new SimpleMeterRegistry(), stores.core());
		QueueServiceCore core = wrapped.apply(stores.core());
		TestOperations operations = TestOperations.of(core, stores.explicitQueues(), stores.fifoGroups(), metrics,
				LEASE, this.clock, Limits.MAX_MESSAGE_BYTES);
		MessageMoveTasks tasks = new MessageMoveTasks(operations.queues(), core, metrics, this.clock,
				stores.moveTasks());
		Instance instance = new Instance(store, stores, operations, tasks);
		this.made.add(instance);
		return instance;
	}

	@Test
	void fifo_duplicateThroughTheOtherInstance_deliveredOnce_sequencesIncreaseAcrossInstances() {
		Instance one = instance();
		Instance other = instance();
		fifoQueue(one, null, false);

		Sent first = one.messages().send(FIFO, message("x", "d1"), null);
		Sent again = other.messages().send(FIFO, message("x again", "d1"), null);
		Sent second = other.messages().send(FIFO, message("y", "d2"), null);
		Sent third = one.messages().send(FIFO, message("z", "d3"), null);

		assertThat(again).as("a duplicate within 5 minutes, through the other instance").isEqualTo(first);
		assertThat(List.of(first.sequenceNumber(), second.sequenceNumber(), third.sequenceNumber()))
			.as("one sequence per queue, whichever instance")
			.isSorted()
			.doesNotHaveDuplicates();
		assertThat(drain(other, FIFO)).containsExactly("x", "y", "z");

		this.clock.advance(Duration.ofMinutes(5));
		Sent later = other.messages().send(FIFO, message("x later", "d1"), null);
		assertThat(later.id()).as("the window has passed").isNotEqualTo(first.id());
		assertThat(later.sequenceNumber()).isGreaterThan(third.sequenceNumber());
	}

	/**
	 * A receive attempt is marked pending while its first receive runs (SET NX PX, as a
	 * send's deduplication id): the same attempt through the other instance is told so
	 * (and waits), then gets what the first delivered; a marker dropped (nothing
	 * delivered) or lapsed (its instance died) lets the next receive take the attempt.
	 */
	@Test
	void fifoReceiveAttempt_pendingThroughTheOtherInstance_untilTheFirstAnswers() {
		FifoState one = instance().stores().fifoGroups().state();
		FifoState other = instance().stores().fifoGroups().state();
		long now = this.clock.millis();

		assertThat(one.attempted(FIFO, "a1", now, now + 10_000)).as("marked pending by this call").isNull();
		assertThat(other.attempted(FIFO, "a1", now, now + 10_000)).isSameAs(FifoState.ATTEMPT_PENDING);
		List<Received> delivered = drainReceived(instance(), "x");
		one.attempt(FIFO, "a1", delivered, now);
		List<Received> again = other.attempted(FIFO, "a1", now, now + 10_000);
		assertThat(again).extracting(received -> received.lease().message().id())
			.containsExactlyElementsOf(delivered.stream().map(received -> received.lease().message().id()).toList());

		assertThat(one.attempted(FIFO, "a2", now, now + 10_000)).isNull();
		one.dropAttempt(FIFO, "a2");
		assertThat(other.attempted(FIFO, "a2", now, now + 10_000)).as("dropped: the other takes it").isNull();
		assertThat(one.attempted(FIFO, "a2", now, now + 10_000)).isSameAs(FifoState.ATTEMPT_PENDING);
		this.clock.advance(Duration.ofSeconds(11));
		long later = this.clock.millis();
		assertThat(one.attempted(FIFO, "a2", later, later + 10_000)).as("its marker lapsed").isNull();
	}

	/** One message "body" pushed to and received from a standard queue, as a delivery. */
	private List<Received> drainReceived(Instance instance, String body) {
		instance.messages().send("plain", message(body, null), null);
		return instance.messages().awaitLease("plain", 1, Duration.ZERO, null).join();
	}

	/**
	 * An instance dies while it holds the heads of FIFO groups (it leased them and never
	 * completes): the groups stay blocked until the leases lapse, then the other instance
	 * gets the same heads again, and the rest of each group in order, each once.
	 */
	@Test
	void fifo_instanceKilledHoldingGroupHeads_theOtherGetsThemAfterTheLease_inOrder() {
		Instance one = instance();
		Instance other = instance();
		fifoQueue(one, null, true);
		one.messages().sendAll(FIFO, List.of(grouped("a1", "a"), grouped("b1", "b"), grouped("a2", "a")), null);
		assertThat(one.messages().lease(FIFO, 10)).extracting(delivery -> delivery.message().text())
			.containsExactlyInAnyOrder("a1", "b1");
		// instance one dies here, holding both heads

		assertThat(other.messages().lease(FIFO, 10)).as("each group's head is in flight").isEmpty();
		this.clock.advance(LEASE);
		List<String> delivered = drain(other, FIFO);
		assertThat(delivered).containsExactlyInAnyOrder("a1", "b1", "a2");
		assertThat(delivered.indexOf("a1")).as("a2 after a1").isLessThan(delivered.indexOf("a2"));
	}

	private static OutgoingMessage grouped(String body, String group) {
		return new OutgoingMessage(utf8(body), MessageAttributes.NONE, group, null);
	}

	/**
	 * The same deduplication ids sent at once through both instances: each is pushed
	 * once, and both answer its one id (the second waits for the first's pending claim).
	 */
	@Test
	void fifo_sameIdsAtOnceThroughBoth_eachPushedOnce() throws Exception {
		Instance one = instance();
		Instance other = instance();
		fifoQueue(one, null, false);
		int ids = 100;
		ExecutorService pool = Executors.newFixedThreadPool(2);
		try {
			List<Future<List<Sent>>> sends = new ArrayList<>();
			for (Instance through : List.of(one, other)) {
				sends.add(pool.submit(() -> {
					List<Sent> sent = new ArrayList<>();
					for (int i = 0; i < ids; i++) {
						sent.add(through.messages().send(FIFO, message("m" + i, "d" + i), null));
					}
					return sent;
				}));
			}
			List<Sent> viaOne = sends.get(0).get(60, TimeUnit.SECONDS);
			List<Sent> viaOther = sends.get(1).get(60, TimeUnit.SECONDS);
			assertThat(viaOther).as("both answer each id's one message").isEqualTo(viaOne);
		}
		finally {
			pool.shutdownNow();
		}
		List<String> delivered = drain(one, FIFO);
		assertThat(delivered).hasSize(ids).doesNotHaveDuplicates();
	}

	/**
	 * An instance is killed between a FIFO send's push and its message's joining its
	 * group. A {@code kill -9} of a service found it (docs/faults.md, the move task
	 * script's run after its fix): the message, pushed held for a year, never joined its
	 * group, stayed counted as delayed with nothing to release it, and the queue never
	 * drained. Now the send records its message before the push and commits it (answer,
	 * group, record) in one step; once the bound has passed, the other instance's
	 * settlement discards the message, which nobody was answered: a retry of its
	 * deduplication id sends it once, the group's later messages come in order, nothing
	 * stays held.
	 */
	@Test
	void fifo_instanceKilledBetweenASendsPushAndItsAppend_settledByTheOther_theQueueDrains() {
		Instance doomed = instance(connections(), (core) -> afterPush(core, FIFO, 2, () -> {
			throw new Killed();
		}));
		Instance other = instance();
		fifoQueue(doomed, null, false);
		doomed.messages().send(FIFO, message("x1", "d1"), null);
		// the second send's message is pushed, and the instance dies before it joins its
		// group
		assertThatExceptionOfType(Killed.class)
			.isThrownBy(() -> doomed.messages().send(FIFO, message("x2", "d2"), null));
		this.made.remove(doomed);

		other.messages().send(FIFO, message("x3", "d3"), null);
		FifoSettlement settlement = settlement(other);
		assertThat(settlement.settle()).as("within the bound the send may still commit: nothing settled").isZero();
		this.clock.advance(Duration.ofMillis(other.stores().fifoGroups().sends().boundMillis()));
		assertThat(settlement.settle()).as("the cut send's message discarded").isOne();
		Sent retried = other.messages().send(FIFO, message("x2 again", "d2"), null);
		other.messages().send(FIFO, message("x4", "d4"), null);

		assertThat(drain(other, FIFO)).as("in order, each once").containsExactly("x1", "x3", "x2 again", "x4");
		assertThat(held(other, FIFO)).as("nothing held back").isZero();
		assertThat(other.messages().send(FIFO, message("x2 once more", "d2"), null)).isEqualTo(retried);
		this.clock.advance(Duration.ofDays(366));
		assertThat(drain(other, FIFO)).as("nothing shows up when the hold would have ended").isEmpty();
		assertThat(settlement.settle()).as("settled once").isZero();
	}

	/**
	 * A FIFO send stalls past the bound between its push and its commit, while a retry of
	 * its deduplication id goes through the other instance (the stalled send's claim has
	 * lapsed): the stalled send's commit is refused and its message discarded, so the
	 * message is sent once, as the retry answered.
	 */
	@Test
	void fifo_sendStalledPastTheBound_undone_theRetrySentOnce() {
		Instance other = instance();
		AtomicReference<Sent> retried = new AtomicReference<>();
		Instance stalled = instance(connections(), (core) -> afterPush(core, FIFO, 1, () -> {
			this.clock.advance(Duration.ofMillis(other.stores().fifoGroups().sends().boundMillis()));
			retried.set(other.messages().send(FIFO, message("x again", "d1"), null));
		}));
		fifoQueue(other, null, false);

		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> stalled.messages().send(FIFO, message("x", "d1"), null));
		assertThat(drain(other, FIFO)).as("the retry's copy alone").containsExactly("x again");
		assertThat(other.messages().send(FIFO, message("x", "d1"), null)).isEqualTo(retried.get());
		assertThat(held(other, FIFO)).as("nothing held back").isZero();
	}

	/**
	 * An instance dies right after a FIFO send's commit made its message its group's
	 * head, before any step of its own released it (an end of the delay by id). The head,
	 * pushed held for a year, would have blocked its group for good. Now the commit's
	 * script releases the head itself, in the step that makes it the head: there is no
	 * such step left to cut, and the message is receivable through the other instance as
	 * soon as the send was committed.
	 */
	@Test
	void fifo_instanceKilledRightAfterASendsCommit_theHeadIsReleasedByTheCommit() {
		Instance doomed = instance(connections(), (core) -> dyingAtRelease(core, FIFO, 1));
		Instance other = instance();
		fifoQueue(doomed, null, false);

		sendDying(doomed, FIFO, message("x1", "d1"));

		assertThat(drain(other, FIFO)).as("the head, released by the commit").containsExactly("x1");
		other.messages().send(FIFO, message("x2", "d2"), null);
		assertThat(drain(other, FIFO)).as("its group goes on").containsExactly("x2");
		assertThat(held(other, FIFO)).as("nothing held back").isZero();
	}

	/**
	 * As above on a queue with a delay (DelaySeconds), whose new head was released by a
	 * timer in the sending instance's memory once the delay had passed: the instance dies
	 * (and its timer with it) right after the send. Now the commit's script makes the
	 * head due after the delay in Redis, by the service's clock: the other instance gets
	 * nothing before the delay has passed, and the message once it has.
	 */
	@Test
	void fifo_instanceKilledRightAfterASendsCommit_onADelayedQueue_theHeadIsDueAfterTheDelay() {
		Instance doomed = instance(connections(), (core) -> dyingAtRelease(core, FIFO, 1));
		Instance other = instance();
		fifoQueue(doomed, 5, false);

		sendDying(doomed, FIFO, message("x1", "d1"));
		kill(doomed);

		assertThat(other.messages().lease(FIFO, 10)).as("the queue's delay has not passed").isEmpty();
		this.clock.advance(Duration.ofSeconds(5));
		assertThat(drain(other, FIFO)).as("due after the delay, no timer of the dead instance's").containsExactly("x1");
		assertThat(held(other, FIFO)).as("nothing held back").isZero();
	}

	/**
	 * An instance dies right after its completion of a FIFO group's head took the head
	 * out of the group and made the next message the new head, before any step of its own
	 * released it: the new head stayed held for a year, its group blocked. Now the script
	 * that takes the head out of its group releases the next message in the same step:
	 * the other instance receives it at once, and the group goes on.
	 */
	@Test
	void fifo_instanceKilledRightAfterCompletingAGroupsHead_theNextIsReleasedInTheSameStep() {
		Instance doomed = instance(connections(), (core) -> dyingAtRelease(core, FIFO, 1));
		Instance other = instance();
		fifoQueue(other, null, true);
		List<Received> leased = groupOfThreeHeadLeased(other, doomed);

		try {
			doomed.messages().complete(FIFO, leased.get(0).id(), null);
		}
		catch (Killed ex) {
			// it died after the head left its group, before it released the next
		}
		kill(doomed);

		assertThat(drain(other, FIFO)).as("the next head, released with the removal, and the rest in order")
			.containsExactly("a2", "a3");
		assertThat(held(other, FIFO)).as("nothing held back").isZero();
	}

	/**
	 * An instance killed between a FIFO head's completion in the core and its removal
	 * from its group leaves the group headed by a message the queue no longer holds: the
	 * rest of the group held for good (the kill -9 fault run once found 240 messages of
	 * two groups held so). The settlement's pass on the other instance takes such a head
	 * out of its group and releases the next.
	 */
	@Test
	void fifo_instanceKilledBetweenAHeadsCompletionAndItsRemovalFromItsGroup_healedByTheOthersSettlement() {
		Instance doomed = instance();
		Instance other = instance();
		fifoQueue(other, null, true);
		List<Received> leased = groupOfThreeHeadLeased(other, doomed);
		// the completion reached the core; the kill fell before the head left its group
		doomed.stores().core().complete(FIFO, leased.get(0).id(), QueueServiceCore.ANY_DELIVERY);
		kill(doomed);
		assertThat(other.messages().lease(FIFO, 10)).as("the group blocked behind a head no longer there").isEmpty();

		assertThat(settlement(other).settle()).as("no cut send to discard").isZero();

		assertThat(drain(other, FIFO)).as("the next head released by the settlement's pass, the rest in order")
			.containsExactly("a2", "a3");
		assertThat(held(other, FIFO)).as("nothing held back").isZero();
	}

	/**
	 * The settlement's pass heals a slice of a FIFO queue's groups, not all of them in
	 * one script (thousands of groups would block Redis for the whole loop): of 300
	 * groups, each headed by a message the queue no longer holds, one pass releases the
	 * next message of some, not all; the passes of one cycle, a few, release every one.
	 */
	@Test
	void fifo_manyGroupsBlockedByHeadsNoLongerThere_aPassHealsASlice_aCycleHealsEveryGroup() {
		Instance other = instance();
		fifoQueue(other, null, true);
		int groups = 300;
		List<String> nexts = new ArrayList<>();
		for (int first = 0; first < groups; first += 5) {
			List<OutgoingMessage> batch = new ArrayList<>();
			for (int group = first; group < first + 5; group++) {
				batch.add(grouped("g" + group + "-1", "g" + group));
				batch.add(grouped("g" + group + "-2", "g" + group));
				nexts.add("g" + group + "-2");
			}
			List<Sent> sent = other.messages().sendAll(FIFO, batch, null);
			for (int i = 0; i < sent.size(); i += 2) {
				// the head's discard reached the core; a kill fell before it left its
				// group
				other.stores().core().byId(FIFO, sent.get(i).id(), ByIdOperation.DISCARD);
			}
		}
		assertThat(delayed(other, FIFO)).as("every group blocked behind its head").isEqualTo(groups);

		FifoSettlement settlement = settlement(other);
		settlement.settle();
		assertThat(delayed(other, FIFO)).as("one pass: a slice of the groups healed, not all").isBetween(1, groups - 1);
		int passes = 1;
		while (delayed(other, FIFO) > 0 && passes < 20) {
			this.clock.advance(Duration.ofSeconds(1));
			settlement.settle();
			passes++;
		}

		assertThat(delayed(other, FIFO)).as("nothing held back after a cycle").isZero();
		assertThat(passes).as("a cycle: a few passes of about 100 groups").isBetween(2, 6);
		assertThat(drain(other, FIFO)).as("each group's next, once").containsExactlyInAnyOrderElementsOf(nexts);
	}

	/**
	 * A long poll waiting on one instance is woken by a new FIFO head that the other
	 * instance's scripts released (a send's commit, then a completion's removal of the
	 * head before it): they announce the release on the push channel as a push is
	 * announced, so the poll answers with the message, not after its whole wait.
	 */
	@Test
	void fifo_longPollOnTheOther_wokenByTheScriptsThatReleaseNewHeads() throws Exception {
		Instance one = instance();
		Instance other = instance();
		other.operations().longPolls().start();
		fifoQueue(one, null, true);

		LongPoll waiting = other.messages().awaitLease(FIFO, 10, Duration.ofSeconds(20), null);
		one.messages().sendAll(FIFO, List.of(grouped("a1", "a"), grouped("a2", "a")), null);
		List<Received> first = waiting.get(10, TimeUnit.SECONDS);
		assertThat(first).extracting(delivery -> delivery.message().text()).containsExactly("a1");

		LongPoll next = other.messages().awaitLease(FIFO, 10, Duration.ofSeconds(20), null);
		one.messages().complete(FIFO, first.get(0).id(), null);
		assertThat(next.get(10, TimeUnit.SECONDS)).extracting(delivery -> delivery.message().text())
			.containsExactly("a2");
	}

	/**
	 * Sends {@code message} through an instance that dies ({@link Killed}) at its first
	 * release of a head by a step of its own after the send's commit, if it has one.
	 */
	private static void sendDying(Instance doomed, String queue, OutgoingMessage message) {
		try {
			doomed.messages().send(queue, message, null);
		}
		catch (Killed ex) {
			// it died after the commit, before it released the message
		}
	}

	/** Stops what an instance would still do in its memory, as its death would. */
	private static void kill(Instance doomed) {
		doomed.operations().close();
	}

	/** Messages of {@code queue} delayed: held back, not yet due. */
	private static int delayed(Instance through, String queue) {
		return through.stores().core().queue(queue).map(QueueStats::delayed).orElse(0);
	}

	/** Messages held in {@code queue}, ready, in flight or delayed. */
	private static long held(Instance through, String queue) {
		return through.stores()
			.core()
			.queue(queue)
			.map((QueueStats stats) -> (long) stats.ready() + stats.inflight() + stats.delayed())
			.orElse(0L);
	}

	/**
	 * Creates {@link #FIFO} through {@code through}, with that delay and deduplication.
	 */
	private static void fifoQueue(Instance through, Integer delaySeconds, boolean contentBasedDeduplication) {
		through.queues()
			.configure(FIFO, new QueueSettings.Change(null, delaySeconds, null, null, null, null,
					new FifoSettings(contentBasedDeduplication, null, null)));
	}

	/**
	 * Sends group {@code a} of three ({@code a1} to {@code a3}) to {@link #FIFO} through
	 * {@code sender} and leases its head through {@code leaser}.
	 * @return the lease of {@code a1}, the one message leased
	 */
	private static List<Received> groupOfThreeHeadLeased(Instance sender, Instance leaser) {
		sender.messages().sendAll(FIFO, List.of(grouped("a1", "a"), grouped("a2", "a"), grouped("a3", "a")), null);
		List<Received> leased = leaser.messages().lease(FIFO, 10);
		assertThat(leased).extracting(delivery -> delivery.message().text()).containsExactly("a1");
		return leased;
	}

	/** The settlement of cut FIFO sends on {@code instance}, as the service wires it. */
	private FifoSettlement settlement(Instance instance) {
		return new FifoSettlement(instance.stores().core(), instance.stores().fifoGroups(),
				instance.stores().explicitQueues(), this.clock, instance.operations().scheduler());
	}

	@Test
	void moveTasks_oneTaskPerSource_whicheverInstance_listedAndCancelledByTheOther() {
		Instance one = instance();
		Instance other = instance();
		deadLetterQueue(one, 5);

		MessageMoveTask task = one.tasks.start("dlq", "dest", 1);
		assertThatExceptionOfType(MoveTaskException.class).isThrownBy(() -> other.tasks.start("dlq", "dest", null))
			.satisfies(ex -> assertThat(ex.reason()).isEqualTo(MoveTaskException.Reason.ALREADY_RUNNING));
		assertThat(other.tasks.list("dlq", 10)).extracting(MessageMoveTask::handle).containsExactly(task.handle());

		this.clock.advance(Duration.ofSeconds(1));
		assertThat(one.tasks.step()).isOne();
		assertThat(other.tasks.step()).as("the owner's heartbeat is fresh: not the other's to step").isZero();
		assertThat(other.tasks.cancel(task.handle()).status()).isEqualTo(Status.CANCELLING);
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(one.tasks.step()).as("cancelled through the other, before its next move").isZero();
		MessageMoveTask cancelled = other.tasks.task(task.handle()).orElseThrow();
		assertThat(cancelled.status()).isEqualTo(Status.CANCELLED);
		assertThat(cancelled.moved()).isOne();
		assertThat(other.tasks.start("dlq", "dest", null).status()).as("the source is free again")
			.isEqualTo(Status.RUNNING);
	}

	/**
	 * The instance running a task dies (its steps stop, it never fails the task): once
	 * its heartbeat is older than the timeout by the service's clock, the other takes the
	 * task over and finishes it; every message is in exactly one queue, and the dead
	 * instance, were it to step again, finds the task no longer its own.
	 */
	@Test
	void moveTask_ownerKilled_finishedByTheOther_noneLostNoneDoubled() {
		Instance one = instance();
		Instance other = instance();
		Set<String> all = deadLetterQueue(one, 40);
		MessageMoveTask task = one.tasks.start("dlq", "dest", 10);
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(one.tasks.step()).isEqualTo(10);
		// instance one dies here: no stop(), no more steps

		this.clock.advance(Duration.ofSeconds(1));
		assertThat(other.tasks.step()).as("the owner's heartbeat is not yet stale").isZero();
		this.clock.advance(Duration.ofMillis(MessageMoveTasks.HEARTBEAT_TIMEOUT_MILLIS));
		int moved = 0;
		for (int i = 0; i < 10 && other.tasks.task(task.handle()).orElseThrow().status() == Status.RUNNING; i++) {
			moved += other.tasks.step();
			this.clock.advance(Duration.ofSeconds(1));
		}
		assertThat(one.tasks.step()).as("the dead instance's task is the other's now").isZero();

		MessageMoveTask done = other.tasks.task(task.handle()).orElseThrow();
		assertThat(done.status()).isEqualTo(Status.COMPLETED);
		assertThat(moved).isEqualTo(30);
		assertThat(done.moved()).isEqualTo(40);
		this.clock.advance(Duration.ofSeconds(Limits.MAX_DELAY_SECONDS + 1));
		List<String> arrived = drain(other, "dest");
		assertThat(arrived).as("none doubled").doesNotHaveDuplicates();
		assertThat(new HashSet<>(arrived)).as("none lost").isEqualTo(all);
		assertThat(drain(other, "dlq")).isEmpty();
	}

	/**
	 * The instance running a task is killed between the first two writes of one move: it
	 * has pushed the message's copy to the destination (held back until the move
	 * completes the message in the source and releases the copy) and dies before it
	 * completes the source. A {@code kill -9} of a service found it
	 * (scripts/faults/redis-instance-kill-move.sh): the other instance took the task over
	 * and moved that message again, while the orphaned copy stayed held back for
	 * {@link Limits#MAX_DELAY_SECONDS} and then arrived too: moved twice. Now the batch's
	 * moves are recorded before its first copy is pushed, and the instance that takes the
	 * task over settles them first: that message is still in the source, so its copy is
	 * discarded before the message moves again.
	 */
	@Test
	void moveTask_ownerKilledBetweenACopyAndItsSourcesCompletion_movedOnce() {
		Instance doomed = instance(connections(), (core) -> dyingAtCompletion(core, "dlq", 3));
		Instance other = instance();
		Set<String> all = deadLetterQueue(doomed, 10);
		MessageMoveTask task = doomed.tasks.start("dlq", "dest", 10);
		this.clock.advance(Duration.ofSeconds(1));
		// the third message's copy is pushed, and the instance dies before completing it
		// in dlq
		assertThatExceptionOfType(Killed.class).isThrownBy(doomed.tasks::step);
		this.made.remove(doomed);

		assertThat(takenOver(other, task).status()).isEqualTo(Status.COMPLETED);
		this.clock.advance(Duration.ofSeconds(Limits.MAX_DELAY_SECONDS + 1));
		List<String> arrived = drain(other, "dest");
		assertThat(new HashSet<>(arrived)).as("none lost").isEqualTo(all);
		assertThat(arrived).as("none moved twice").doesNotHaveDuplicates();
		assertThat(drain(other, "dlq")).isEmpty();
	}

	/**
	 * The instance running a task is killed between the last two writes of one move: it
	 * has completed the message in the source and dies before it releases the copy, held
	 * back in the destination. The instance that takes the task over settles the batch's
	 * recorded moves first: that message is gone from the source, so its copy is released
	 * at once (not when its hold ends, 15 minutes later) and counted; nothing shows up
	 * later.
	 */
	@Test
	void moveTask_ownerKilledBetweenASourcesCompletionAndItsCopysRelease_releasedAtTheTakeover() {
		Instance doomed = instance(connections(), (core) -> dyingAtRelease(core, "dest", 3));
		Instance other = instance();
		Set<String> all = deadLetterQueue(doomed, 10);
		MessageMoveTask task = doomed.tasks.start("dlq", "dest", 10);
		this.clock.advance(Duration.ofSeconds(1));
		// the third message is completed in dlq, and the instance dies before releasing
		// its copy in dest
		assertThatExceptionOfType(Killed.class).isThrownBy(doomed.tasks::step);
		this.made.remove(doomed);

		MessageMoveTask done = takenOver(other, task);
		assertThat(done.status()).isEqualTo(Status.COMPLETED);
		assertThat(done.moved()).as("the dead instance's three moves counted at the takeover").isEqualTo(10);
		List<String> arrived = drain(other, "dest");
		assertThat(arrived).as("none moved twice").doesNotHaveDuplicates();
		assertThat(new HashSet<>(arrived)).as("none lost, none held back").isEqualTo(all);
		assertThat(drain(other, "dlq")).isEmpty();
		this.clock.advance(Duration.ofSeconds(Limits.MAX_DELAY_SECONDS + 1));
		assertThat(drain(other, "dest")).as("nothing shows up when a hold would have ended").isEmpty();
	}

	/**
	 * The instance running a task is not dead but stalled (a GC pause, the network) past
	 * the heartbeat timeout in the middle of a batch: it has pushed a message's copy and
	 * not yet completed the message in the source. The other instance takes the task over
	 * and settles the batch (that message still in the source: its lease ended, its copy
	 * discarded, to be moved again), and the stalled instance resumes right then, before
	 * the other leases the message again. Its completion of the message used to be the
	 * core's plain one, which found the message still at its delivery and completed it:
	 * gone from the source, its one copy discarded, lost (and the rest of its batch moved
	 * uncounted). Now the completion is fenced by the task's record: it is refused, the
	 * stalled instance discards its copy and stops the batch, and the new owner moves
	 * every message once, with an exact count.
	 */
	@Test
	void moveTask_ownerStalledPastTheHeartbeatBetweenACopyAndItsSourcesCompletion_notLost() throws Exception {
		CountDownLatch stalled = new CountDownLatch(1);
		CountDownLatch resumed = new CountDownLatch(1);
		AtomicReference<Future<Integer>> stalledStep = new AtomicReference<>();
		// the third message's copy is pushed, and the instance stalls before completing
		// it
		// in dlq
		Instance slow = instance(connections(), (core) -> afterPush(core, "dest", 3, () -> {
			stalled.countDown();
			awaited(resumed);
		}));
		// the other's first lease from dlq comes after its settlement of the stalled
		// batch:
		// the stalled instance resumes and ends its step first
		Instance other = instance(connections(), (core) -> beforeLease(core, "dlq", 1, () -> {
			resumed.countDown();
			awaited(stalledStep.get());
		}));
		Set<String> all = deadLetterQueue(slow, 10);
		MessageMoveTask task = slow.tasks.start("dlq", "dest", 10);
		this.clock.advance(Duration.ofSeconds(1));
		ExecutorService stepping = Executors.newSingleThreadExecutor();
		try {
			stalledStep.set(stepping.submit(slow.tasks::step));
			awaited(stalled);

			MessageMoveTask done = takenOver(other, task);
			assertThat(stalledStep.get().isDone()).as("the stalled instance resumed").isTrue();
			assertThat(slow.tasks.step()).as("the task is the other's").isZero();
			assertThat(done.status()).isEqualTo(Status.COMPLETED);
			this.clock.advance(Duration.ofSeconds(Limits.MAX_DELAY_SECONDS + 1));
			List<String> arrived = drain(other, "dest");
			assertThat(arrived).as("none moved twice").doesNotHaveDuplicates();
			assertThat(new HashSet<>(arrived)).as("none lost").isEqualTo(all);
			assertThat(drain(other, "dlq")).isEmpty();
			assertThat(done.moved()).as("the stalled instance's two moves counted at the takeover, none more")
				.isEqualTo(10);
		}
		finally {
			resumed.countDown();
			stepping.shutdownNow();
		}
	}

	/**
	 * The owner stalls past the heartbeat timeout as above, but before its copy's push
	 * reaches the store: the other instance takes the task over and finishes it (its
	 * settlement found no copy to discard, and it moved the message again), then the
	 * stalled instance pushes its copy, held back, and its completion is refused. Were it
	 * to release that copy, or leave it to its hold, the message would arrive twice (at
	 * once, or when the hold ends): it discards it.
	 */
	@Test
	void moveTask_ownerStalledPastTheHeartbeatBeforeACopysPush_itsLateCopyDiscarded() {
		Instance other = instance();
		AtomicReference<MessageMoveTask> task = new AtomicReference<>();
		AtomicReference<MessageMoveTask> done = new AtomicReference<>();
		Instance slow = instance(connections(),
				(core) -> before(core, 3,
						(method, args) -> method.getName().startsWith("push") && args != null && "dest".equals(args[0]),
						() -> done.set(takenOver(other, task.get()))));
		Set<String> all = deadLetterQueue(slow, 10);
		task.set(slow.tasks.start("dlq", "dest", 10));
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(slow.tasks.step()).as("its two moves before the stall, then refused").isEqualTo(2);

		assertThat(done.get().status()).isEqualTo(Status.COMPLETED);
		assertThat(done.get().moved()).isEqualTo(10);
		List<String> arrived = drain(other, "dest");
		assertThat(arrived).as("none moved twice").doesNotHaveDuplicates();
		assertThat(new HashSet<>(arrived)).as("none lost").isEqualTo(all);
		assertThat(drain(other, "dlq")).isEmpty();
		this.clock.advance(Duration.ofSeconds(Limits.MAX_DELAY_SECONDS + 1));
		assertThat(drain(other, "dest")).as("the stalled instance's copy does not show up when its hold ends")
			.isEmpty();
	}

	private static void awaited(CountDownLatch latch) {
		try {
			assertThat(latch.await(30, TimeUnit.SECONDS)).as("in time").isTrue();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static void awaited(Future<?> done) {
		try {
			done.get(30, TimeUnit.SECONDS);
		}
		catch (Exception ex) {
			throw new IllegalStateException("the stalled step", ex);
		}
	}

	/**
	 * Moves the clock past the dead owner's heartbeat and its leases, then steps
	 * {@code other} until it has finished the task (at most 10 steps, a second apart).
	 */
	private MessageMoveTask takenOver(Instance other, MessageMoveTask task) {
		this.clock.advance(Duration.ofMillis(Math.max(MessageMoveTasks.HEARTBEAT_TIMEOUT_MILLIS, LEASE.toMillis())));
		for (int i = 0; i < 10 && other.tasks.task(task.handle()).orElseThrow().status() == Status.RUNNING; i++) {
			other.tasks.step();
			this.clock.advance(Duration.ofSeconds(1));
		}
		return other.tasks.task(task.handle()).orElseThrow();
	}

	/**
	 * The death of an instance, thrown where it dies: an error, so that none of the
	 * service's handlers of a failure runs, as none runs in a killed process.
	 */
	private static final class Killed extends Error {

		Killed() {
			super("killed");
		}

	}

	/**
	 * {@code core}, dying ({@link Killed}) at its {@code nth} completion of a message of
	 * {@code queue} by id (fenced or not), before it reaches the store.
	 */
	private static QueueServiceCore dyingAtCompletion(QueueServiceCore core, String queue, int nth) {
		return dyingAt(core, nth,
				(method, args) -> (method.getName().equals("complete") && args != null && args.length == 3
						|| method.getName().equals("completeFenced")) && queue.equals(args[0]));
	}

	/**
	 * {@code core}, dying ({@link Killed}) at its {@code nth} end of a delay in
	 * {@code queue} (a move's release of its copy), before it reaches the store.
	 */
	private static QueueServiceCore dyingAtRelease(QueueServiceCore core, String queue, int nth) {
		return dyingAt(core, nth, (method, args) -> method.getName().equals("byId") && args != null
				&& queue.equals(args[0]) && args[2] == ByIdOperation.END_DELAY);
	}

	/**
	 * {@code core}, dying ({@link Killed}) at the {@code nth} of its calls that
	 * {@code fatal} names, before it reaches the store.
	 */
	private static QueueServiceCore dyingAt(QueueServiceCore core, int nth, BiPredicate<Method, Object[]> fatal) {
		return before(core, nth, fatal, () -> {
			throw new Killed();
		});
	}

	/**
	 * {@code core}, running {@code then} at its {@code nth} lease from {@code queue},
	 * before the lease reaches the store: {@code then} may stall.
	 */
	private static QueueServiceCore beforeLease(QueueServiceCore core, String queue, int nth, Runnable then) {
		return before(core, nth,
				(method, args) -> method.getName().equals("lease") && args != null && queue.equals(args[0]), then);
	}

	/**
	 * {@code core}, running {@code then} at the {@code nth} of its calls that
	 * {@code named} names, before it reaches the store: {@code then} may die
	 * ({@link Killed}) or stall.
	 */
	private static QueueServiceCore before(QueueServiceCore core, int nth, BiPredicate<Method, Object[]> named,
			Runnable then) {
		AtomicInteger calls = new AtomicInteger();
		return (QueueServiceCore) Proxy.newProxyInstance(QueueServiceCore.class.getClassLoader(),
				new Class<?>[] { QueueServiceCore.class }, (proxy, method, args) -> {
					if (named.test(method, args) && calls.incrementAndGet() == nth) {
						then.run();
					}
					try {
						return method.invoke(core, args);
					}
					catch (InvocationTargetException ex) {
						throw ex.getCause();
					}
				});
	}

	/**
	 * {@code core}, running {@code then} just after its {@code nth} push to {@code queue}
	 * reached the store: {@code then} may die ({@link Killed}) or stall.
	 */
	private static QueueServiceCore afterPush(QueueServiceCore core, String queue, int nth, Runnable then) {
		AtomicInteger pushes = new AtomicInteger();
		return (QueueServiceCore) Proxy.newProxyInstance(QueueServiceCore.class.getClassLoader(),
				new Class<?>[] { QueueServiceCore.class }, (proxy, method, args) -> {
					Object result;
					try {
						result = method.invoke(core, args);
					}
					catch (InvocationTargetException ex) {
						throw ex.getCause();
					}
					if (method.getName().startsWith("push") && args != null && queue.equals(args[0])
							&& pushes.incrementAndGet() == nth) {
						then.run();
					}
					return result;
				});
	}

	/**
	 * The fault of docs/faults.md's row: an instance dies (its Redis connections cut, its
	 * steps stopped) while it runs a move task and holds the heads of FIFO groups. The
	 * other instance gets nothing of those groups while the leases are alive, takes the
	 * task over once the heartbeat is stale and finishes it; in the end every message is
	 * delivered (each FIFO message once, the two heads once more after their lease, in
	 * group order; each moved message once, in the destination), none is lost, none is
	 * delivered twice within a lease.
	 */
	@Test
	void instanceKilledMidMoveTaskHoldingFifoGroups_noneLost_noneDeliveredTwiceWithinALease() throws Exception {
		LettuceConnectionFactory own = ownConnections();
		Instance doomed = instance(own);
		Instance other = instance();
		Set<String> moving = deadLetterQueue(doomed, 40);
		fifoQueue(doomed, null, true);
		doomed.messages()
			.sendAll(FIFO, List.of(grouped("a1", "a"), grouped("b1", "b"), grouped("a2", "a"), grouped("b2", "b")),
					null);
		assertThat(doomed.messages().lease(FIFO, 10)).extracting(delivery -> delivery.message().text())
			.containsExactlyInAnyOrder("a1", "b1");
		MessageMoveTask task = doomed.tasks.start("dlq", "dest", 10);
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(doomed.tasks.step()).isEqualTo(10);

		// the instance dies: its connections are cut, it steps and completes no more
		own.destroy();
		this.made.remove(doomed);

		assertThat(other.messages().lease(FIFO, 10)).as("the heads' leases are alive: nothing of their groups")
			.isEmpty();
		assertThat(other.tasks.step()).as("the owner's heartbeat is fresh").isZero();
		MessageMoveTask done = takenOver(other, task);
		assertThat(done.status()).isEqualTo(Status.COMPLETED);
		assertThat(done.moved()).isEqualTo(40);

		List<String> fifo = drain(other, FIFO);
		assertThat(fifo).as("each once more after the kill, none lost")
			.containsExactlyInAnyOrder("a1", "b1", "a2", "b2");
		assertThat(fifo.indexOf("a1")).isLessThan(fifo.indexOf("a2"));
		assertThat(fifo.indexOf("b1")).isLessThan(fifo.indexOf("b2"));
		this.clock.advance(Duration.ofSeconds(Limits.MAX_DELAY_SECONDS + 1));
		List<String> arrived = drain(other, "dest");
		assertThat(arrived).as("none moved twice").doesNotHaveDuplicates();
		assertThat(new HashSet<>(arrived)).as("none lost").isEqualTo(moving);
		assertThat(drain(other, "dlq")).isEmpty();
	}

	/**
	 * A recorded setting (SQS's {@code Policy}) edited by read, edit and compare-and-set
	 * through both instances at once, as {@code AddPermission} does: no edit is lost, and
	 * a write that expected a value no longer there is refused whole.
	 */
	@Test
	void policy_editedThroughBothAtOnce_noLostUpdate() throws Exception {
		Instance one = instance();
		Instance other = instance();
		one.queues().configure("guarded", new QueueSettings.Change(null, null, null, null));
		int each = 25;
		ExecutorService pool = Executors.newFixedThreadPool(2);
		try {
			List<Future<?>> editors = new ArrayList<>();
			for (Instance through : List.of(one, other)) {
				String name = (through == one) ? "one" : "other";
				editors.add(pool.submit(() -> {
					for (int i = 0; i < each; i++) {
						while (true) {
							String current = through.queues().settings("guarded").recorded().get("Policy");
							String edited = ((current != null) ? current + "," : "") + name + i;
							try {
								through.queues()
									.configure("guarded", recorded("Policy", edited).expecting("Policy", current));
								break;
							}
							catch (QueueSettings.Conflict ex) {
								// changed through the other instance: read again
							}
						}
					}
					return null;
				}));
			}
			for (Future<?> editor : editors) {
				editor.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			pool.shutdownNow();
		}
		String policy = other.queues().settings("guarded").recorded().get("Policy");
		assertThat(policy.split(",")).as("every edit kept").hasSize(2 * each).doesNotHaveDuplicates();
		assertThatExceptionOfType(QueueSettings.Conflict.class).isThrownBy(
				() -> one.queues().configure("guarded", recorded("Policy", "stale").expecting("Policy", "one0")));
		assertThat(other.queues().settings("guarded").recorded()).containsEntry("Policy", policy);
	}

	private static QueueSettings.Change recorded(String name, String value) {
		return new QueueSettings.Change(null, null, null, null, null, null, null, Map.of(name, value), null);
	}

	/**
	 * The gauges read the store's snapshot, which follows pushes through any instance
	 * within a refresh.
	 */
	@Test
	void gauges_readTheStoresSnapshot_followingBothInstances() throws InterruptedException {
		Instance one = instance();
		Instance other = instance();
		one.messages().push("counted", utf8("a"));
		other.messages().push("counted", utf8("b"));
		other.messages().push("also", utf8("c"));
		StoreGauges gauges = one.stores.gauges();
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while ((gauges.heldCount() != 3 || gauges.queueCount() != 2) && System.nanoTime() < deadline) {
			Thread.sleep(50);
		}
		assertThat(gauges.heldCount()).isEqualTo(3);
		assertThat(gauges.queueCount()).isEqualTo(2);
	}

	/** A dead-letter queue of {@code count} messages, its source and a destination. */
	private Set<String> deadLetterQueue(Instance through, int count) {
		through.queues().configure("dlq", new QueueSettings.Change(null, null, null, null));
		through.queues().configure("src", new QueueSettings.Change(null, null, null, new DeadLetterPolicy("dlq", 1)));
		through.queues().configure("dest", new QueueSettings.Change(null, null, null, null));
		Set<String> all = new HashSet<>();
		for (int i = 0; i < count; i++) {
			all.add("m" + i);
			through.messages().push("dlq", utf8("m" + i));
		}
		return all;
	}

	private static byte[] utf8(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	private static OutgoingMessage message(String body, String deduplicationId) {
		return new OutgoingMessage(utf8(body), MessageAttributes.NONE, "g", deduplicationId);
	}

	private static List<String> drain(Instance through, String queue) {
		List<String> texts = new ArrayList<>();
		List<Received> leased;
		while (!(leased = through.messages().lease(queue, 10)).isEmpty()) {
			for (Received delivery : leased) {
				texts.add(delivery.message().text());
				through.messages().complete(queue, delivery.id(), null);
			}
		}
		return texts;
	}

	private record Instance(RedisStore store, Stores stores, TestOperations operations,
			MessageMoveTasks tasks) implements AutoCloseable {

		MessageOperations messages() {
			return this.operations.messages();
		}

		QueueOperations queues() {
			return this.operations.queues();
		}

		@Override
		public void close() throws Exception {
			this.tasks.destroy();
			this.operations.close();
			((AutoCloseable) this.stores.explicitQueues()).close();
			((AutoCloseable) this.stores.gauges()).close();
			this.stores.core().close();
			this.store.close();
		}

	}

}
