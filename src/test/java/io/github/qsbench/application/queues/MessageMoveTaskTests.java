package io.github.qsbench.application.queues;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.qsbench.application.InvalidRequestException;
import io.github.qsbench.application.Limits;
import io.github.qsbench.application.OperationsPerStrategy;
import io.github.qsbench.application.Received;
import io.github.qsbench.application.TestOperations;
import io.github.qsbench.application.fifo.InMemoryFifoGroups;
import io.github.qsbench.application.queues.MessageMoveTask.Status;
import io.github.qsbench.application.queues.MoveTaskException.Reason;
import io.github.qsbench.core.Capacity;
import io.github.qsbench.core.Eviction;
import io.github.qsbench.core.Peeked;
import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.TestCores;
import io.github.qsbench.core.strategy.Strategy;
import io.github.qsbench.metrics.CoreTimedQueueService;
import io.github.qsbench.metrics.QueueMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Message move tasks, written once above the core, held to their contract for every
 * strategy with the injected clock: a task moves what its dead-letter queue held when it
 * started, back where each message came from or to one destination, at its pace by the
 * clock; a cancel, a full destination or a stop leaves every message in exactly one
 * queue.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(Strategy.class)
class MessageMoveTaskTests extends OperationsPerStrategy {

	MessageMoveTasks tasks;

	@BeforeEach
	void queues() {
		this.tasks = new MessageMoveTasks(this.operations, this.core, new QueueMetrics(this.registry, this.core),
				this.clock, this.stores.moveTasks());
		this.operations.configure("dlq", change(null));
		this.operations.configure("q1", change(new DeadLetterPolicy("dlq", 1)));
		this.operations.configure("q2", change(new DeadLetterPolicy("dlq", 1)));
		this.operations.configure("dest", change(null));
	}

	@AfterEach
	void stopTasks() {
		this.tasks.stop();
		this.tasks.destroy();
	}

	@Test
	void destinationOmitted_eachBackToTheQueueItCameFrom() {
		deadLetter("q1", "a", "b");
		deadLetter("q2", "c");

		MessageMoveTask started = this.tasks.start("dlq", null, null);
		assertThat(started.status()).isEqualTo(Status.RUNNING);
		assertThat(started.toMove()).isEqualTo(3);
		assertThat(this.tasks.step()).isEqualTo(3);

		MessageMoveTask done = this.tasks.task(started.handle()).orElseThrow();
		assertThat(done.status()).isEqualTo(Status.COMPLETED);
		assertThat(done.moved()).isEqualTo(3);
		assertThat(done.destination()).isNull();
		assertThat(texts(this.messages.lease("q1", 10))).containsExactly("a", "b");
		List<Received> back = this.messages.lease("q2", 10);
		assertThat(texts(back)).containsExactly("c");
		assertThat(back).extracting(Received::delivery).as("new, undelivered").containsOnly(1);
		assertThat(back.get(0).message().deadLetter()).isNull();
		assertThat(this.operations.queue("dlq")).isEmpty();
		assertThat(this.registry.get("qs.messages.redriven").counter().count()).isEqualTo(3);
	}

	@Test
	void pace_atMostMaxPerSecondByTheClock_upToASecondsWorthAfterAPause() {
		deadLetter("q1", "1", "2", "3", "4", "5", "6");
		MessageMoveTask task = this.tasks.start("dlq", "dest", 2);

		assertThat(this.tasks.step()).as("no time has passed").isZero();
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(this.tasks.step()).isEqualTo(2);
		this.clock.advance(Duration.ofMillis(500));
		assertThat(this.tasks.step()).isEqualTo(1);
		this.clock.advance(Duration.ofSeconds(10));
		assertThat(this.tasks.step()).as("a second's worth, not ten").isEqualTo(2);
		assertThat(this.tasks.task(task.handle()).orElseThrow().status()).isEqualTo(Status.RUNNING);
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(this.tasks.step()).isOne();

		MessageMoveTask done = this.tasks.task(task.handle()).orElseThrow();
		assertThat(done.status()).isEqualTo(Status.COMPLETED);
		assertThat(done.moved()).isEqualTo(6);
		assertThat(done.maxPerSecond()).isEqualTo(2);
		assertThat(texts(this.messages.lease("dest", 10))).containsExactly("1", "2", "3", "4", "5", "6");
	}

	@Test
	void cancelMidTask_endsBetweenMoves_theRestStaysInTheSource() {
		deadLetter("q1", "a", "b", "c", "d", "e");
		MessageMoveTask task = this.tasks.start("dlq", null, 1);
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(this.tasks.step()).isOne();

		MessageMoveTask cancelling = this.tasks.cancel(task.handle());
		assertThat(cancelling.status()).isEqualTo(Status.CANCELLING);
		assertThat(cancelling.moved()).isOne();
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(this.tasks.step()).as("cancelled before its next move").isZero();
		assertThat(this.tasks.task(task.handle()).orElseThrow().status()).isEqualTo(Status.CANCELLED);
		this.clock.advance(Duration.ofSeconds(10));
		assertThat(this.tasks.step()).isZero();

		assertThat(texts(this.messages.lease("q1", 10))).containsExactly("a");
		assertThat(texts(this.messages.lease("dlq", 10))).as("ready at once, in the source")
			.containsExactly("b", "c", "d", "e");
		assertThatExceptionOfType(MoveTaskException.class).isThrownBy(() -> this.tasks.cancel(task.handle()))
			.satisfies(ex -> assertThat(ex.reason()).isEqualTo(Reason.NOT_RUNNING));
		assertThat(this.tasks.start("dlq", null, null).status()).as("the source is free again")
			.isEqualTo(Status.RUNNING);
	}

	/**
	 * A destination a cap keeps full: the move is refused before the message leaves the
	 * dead-letter queue, so the task fails with the reason and the message is ready there
	 * again at once; nothing is lost, nothing doubled.
	 */
	@Test
	void fullDestination_taskFailsWithTheReason_messageStaysInTheSource() {
		QueueServiceCore capped = TestCores.create(this.strategy,
				new QueueOptions(LEASE, Eviction.LAZY, this.clock, true, new Capacity.Limits(100, 1, Long.MAX_VALUE)));
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		QueueServiceCore timed = new CoreTimedQueueService(capped, registry);
		QueueMetrics metrics = new QueueMetrics(registry, capped);
		TestOperations made = TestOperations.of(timed, new InMemoryExplicitQueues(capped), new InMemoryFifoGroups(),
				metrics, LEASE, this.clock, 262_144);
		MessageMoveTasks tasks = new MessageMoveTasks(made.queues(), timed, metrics, this.clock);
		try {
			made.queues().configure("full", change(null));
			made.queues().configure("dead", change(null));
			made.queues().configure("src", change(new DeadLetterPolicy("dead", 1)));
			made.messages().push("full", utf8("blocker"));
			made.messages().push("src", utf8("poison"));
			made.messages().lease("src", 1);
			this.clock.advance(LEASE);
			assertThat(made.messages().lease("src", 1)).as("dead-lettered").isEmpty();

			MessageMoveTask task = tasks.start("dead", "full", null);
			assertThat(tasks.step()).isZero();

			MessageMoveTask failed = tasks.task(task.handle()).orElseThrow();
			assertThat(failed.status()).isEqualTo(Status.FAILED);
			assertThat(failed.failureReason()).contains("OverLimit").contains("'full'");
			assertThat(capped.peek("dead", 10)).extracting(Peeked::state)
				.as("still in the source, ready at once")
				.containsExactly(Peeked.State.READY);
			assertThat(capped.peek("full", 10)).as("no copy left behind").hasSize(1);
			assertThat(capped.heldCount()).isEqualTo(2);
			this.clock.advance(Duration.ofSeconds(Limits.MAX_DELAY_SECONDS + 1));
			assertThat(capped.peek("full", 10)).as("no held-back copy shows up later").hasSize(1);
		}
		finally {
			tasks.destroy();
			made.close();
			capped.close();
		}
	}

	@Test
	void destinationDeletedWhileRunning_failsAsSqsDoes_messagesStay() {
		deadLetter("q1", "a", "b");
		MessageMoveTask task = this.tasks.start("dlq", "dest", 1);
		this.operations.deleteQueue("dest");
		this.clock.advance(Duration.ofSeconds(1));

		assertThat(this.tasks.step()).isZero();

		MessageMoveTask failed = this.tasks.task(task.handle()).orElseThrow();
		assertThat(failed.status()).isEqualTo(Status.FAILED);
		assertThat(failed.failureReason()).isEqualTo(MessageMoveTasks.NO_DESTINATION);
		assertThat(texts(this.messages.lease("dlq", 10))).containsExactly("a", "b");
		assertThat(this.operations.exists("dest")).as("not created by a move").isFalse();
	}

	@Test
	void destinationCreatedByPushes_drainedWhileRunning_stillTakesTheMessages() {
		deadLetter("q1", "a", "b");
		this.messages.push("pushed-only", utf8("first"));
		MessageMoveTask task = this.tasks.start("dlq", "pushed-only", 1);
		assertThat(texts(this.messages.lease("pushed-only", 10))).containsExactly("first");
		this.messages.complete("pushed-only", this.messages.peek("pushed-only", 1).get(0).peeked().message().id(),
				null);
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(this.tasks.step()).as("a move's push keeps the queue, as a redrive's does").isOne();
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(this.tasks.step()).isOne();

		assertThat(this.tasks.task(task.handle()).orElseThrow().status()).isEqualTo(Status.RUNNING);
		assertThat(texts(this.messages.lease("pushed-only", 10))).containsExactly("a", "b");
	}

	@Test
	void noOriginAndNoDestination_failsAsSqsDoes() {
		this.messages.push("dlq", utf8("never dead-lettered"));
		MessageMoveTask task = this.tasks.start("dlq", null, null);

		this.tasks.step();

		MessageMoveTask failed = this.tasks.task(task.handle()).orElseThrow();
		assertThat(failed.status()).isEqualTo(Status.FAILED);
		assertThat(failed.failureReason()).isEqualTo(MessageMoveTasks.NO_ORIGIN);
		assertThat(texts(this.messages.lease("dlq", 10))).containsExactly("never dead-lettered");
	}

	@Test
	void oneActiveTaskPerSource_andWhatStartRefuses() {
		deadLetter("q1", "a");
		MessageMoveTask first = this.tasks.start("dlq", null, 1);

		assertRefused(() -> this.tasks.start("dlq", "dest", null), Reason.ALREADY_RUNNING);
		assertRefused(() -> this.tasks.start("q1", null, null), Reason.NOT_A_DEAD_LETTER_QUEUE);
		assertRefused(() -> this.tasks.start("missing", null, null), Reason.NO_SUCH_SOURCE);
		assertRefused(() -> this.tasks.start("dlq", "missing", null), Reason.NO_SUCH_DESTINATION);
		assertRefused(() -> this.tasks.cancel("no-such-handle"), Reason.NO_SUCH_TASK);
		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> this.tasks.start("dlq", null, MessageMoveTasks.MAX_PER_SECOND + 1));
		assertThatExceptionOfType(InvalidRequestException.class).isThrownBy(() -> this.tasks.start("dlq", null, 0));

		this.clock.advance(Duration.ofSeconds(1));
		assertThat(this.tasks.step()).isOne();
		assertThat(this.tasks.task(first.handle()).orElseThrow().status())
			.as("a paced task finds its source empty at its next move")
			.isEqualTo(Status.RUNNING);
		this.clock.advance(Duration.ofSeconds(1));
		this.tasks.step();
		assertThat(this.tasks.task(first.handle()).orElseThrow().status()).isEqualTo(Status.COMPLETED);
		assertThat(this.tasks.start("dlq", "dest", null).status()).isEqualTo(Status.RUNNING);
	}

	@Test
	void list_newestFirst_upToMax_theLastTenKept() {
		List<String> handles = new ArrayList<>();
		for (int i = 0; i < MessageMoveTasks.MAX_LISTED + 1; i++) {
			handles.add(this.tasks.start("dlq", null, null).handle());
			this.tasks.step();
		}

		assertThat(this.tasks.list("dlq", 2)).extracting(MessageMoveTask::handle)
			.containsExactly(handles.get(10), handles.get(9));
		assertThat(this.tasks.list("dlq", MessageMoveTasks.MAX_LISTED)).hasSize(MessageMoveTasks.MAX_LISTED)
			.allSatisfy(task -> assertThat(task.status()).isEqualTo(Status.COMPLETED));
		assertThat(this.tasks.task(handles.get(0))).as("forgotten").isEmpty();
		assertThat(this.tasks.list("q1", 10)).isEmpty();
		assertThatExceptionOfType(InvalidRequestException.class).isThrownBy(() -> this.tasks.list("dlq", 11));
		assertRefused(() -> this.tasks.list("missing", 1), Reason.NO_SUCH_SOURCE);
	}

	/**
	 * The service stops while a task moves messages on its own thread: the step under way
	 * ends its move, the task fails with the reason, and every message is in exactly one
	 * queue, the moved ones in the destination, the others ready in the source; no
	 * held-back copy shows up later.
	 */
	@Test
	void stopMidTask_eachMessageInExactlyOneQueue() throws Exception {
		int messages = 3_000;
		Set<String> all = new HashSet<>();
		for (int i = 0; i < messages; i++) {
			all.add("m" + i);
			this.messages.push("dlq", utf8("m" + i));
		}
		MessageMoveTask task = this.tasks.start("dlq", "dest", null);
		this.tasks.start();
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		while (this.tasks.task(task.handle()).orElseThrow().moved() == 0 && System.nanoTime() < deadline) {
			Thread.onSpinWait();
		}

		this.tasks.stop();

		MessageMoveTask stopped = this.tasks.task(task.handle()).orElseThrow();
		assertThat(stopped.moved()).isPositive();
		assertThat(stopped.status()).isIn(Status.FAILED, Status.COMPLETED);
		if (stopped.status() == Status.FAILED) {
			assertThat(stopped.failureReason()).isEqualTo(MessageMoveTasks.STOPPED);
		}
		this.clock.advance(Duration.ofSeconds(Limits.MAX_DELAY_SECONDS + 1));
		List<String> moved = drain("dest");
		List<String> stayed = drain("dlq");
		assertThat(moved).hasSize((int) stopped.moved());
		Set<String> seen = new HashSet<>(moved);
		seen.addAll(stayed);
		assertThat(moved.size() + stayed.size()).as("nothing doubled").isEqualTo(seen.size());
		assertThat(seen).as("nothing lost").isEqualTo(all);
	}

	/**
	 * Pushes the bodies to a queue and lets each lease lapse once: each a dead letter.
	 */
	/**
	 * A step after a stop moves nothing, not even of a task it takes over: the stop
	 * failed what was this instance's, and another instance takes over the rest.
	 */
	@Test
	void aStepAfterTheStop_movesNothing() {
		deadLetter("q1", "a", "b");
		MessageMoveTask started = this.tasks.start("dlq", "dest", null);
		MessageMoveTasks other = new MessageMoveTasks(this.operations, this.core,
				new QueueMetrics(this.registry, this.core), this.clock, this.stores.moveTasks());
		other.start();
		other.stop();
		this.clock.advance(Duration.ofMillis(MessageMoveTasks.HEARTBEAT_TIMEOUT_MILLIS + 1));

		assertThat(other.step()).isZero();

		assertThat(this.tasks.task(started.handle()).orElseThrow().moved()).isZero();
		assertThat(drain("dest")).isEmpty();
		other.destroy();
	}

	/**
	 * A stop with no task of its own waits for no look at the store, which may be stuck
	 * in a store that does not answer (Redis down) for as long as its time-out: it
	 * returns while the look is still stuck.
	 */
	@Test
	void stopWithNoTaskOfItsOwn_returnsWhileALookIsStuck() throws Exception {
		CountDownLatch looking = new CountDownLatch(1);
		CountDownLatch answered = new CountDownLatch(1);
		MoveTaskStore store = this.stores.moveTasks();
		MoveTaskStore stuck = (MoveTaskStore) Proxy.newProxyInstance(MoveTaskStore.class.getClassLoader(),
				new Class<?>[] { MoveTaskStore.class }, (proxy, method, args) -> {
					if (method.getName().equals("claim")) {
						looking.countDown();
						answered.await();
					}
					try {
						return method.invoke(store, args);
					}
					catch (InvocationTargetException ex) {
						throw ex.getCause();
					}
				});
		MessageMoveTasks stuckTasks = new MessageMoveTasks(this.operations, this.core,
				new QueueMetrics(this.registry, this.core), this.clock, stuck);
		stuckTasks.start();
		assertThat(looking.await(30, TimeUnit.SECONDS)).isTrue();

		assertTimeoutPreemptively(Duration.ofSeconds(5), () -> stuckTasks.stop());

		assertThat(answered.getCount()).as("the look still stuck").isOne();
		answered.countDown();
		stuckTasks.destroy();
	}

	private void deadLetter(String queue, String... bodies) {
		for (String body : bodies) {
			this.messages.push(queue, utf8(body));
		}
		assertThat(this.messages.lease(queue, 10)).hasSize(bodies.length);
		this.clock.advance(LEASE);
		assertThat(this.messages.lease(queue, 10)).as("all dead-lettered").isEmpty();
	}

	private List<String> drain(String queue) {
		List<String> bodies = new ArrayList<>();
		List<Received> leased;
		while (!(leased = this.messages.lease(queue, 100)).isEmpty()) {
			bodies.addAll(texts(leased));
		}
		return bodies;
	}

	private static List<String> texts(List<Received> leases) {
		return leases.stream().map(lease -> lease.message().text()).toList();
	}

	private static QueueSettings.Change change(DeadLetterPolicy policy) {
		return new QueueSettings.Change(null, null, null, policy);
	}

	private static void assertRefused(Runnable attempt, Reason reason) {
		assertThatExceptionOfType(MoveTaskException.class).isThrownBy(attempt::run)
			.satisfies(ex -> assertThat(ex.reason()).isEqualTo(reason));
	}

}
