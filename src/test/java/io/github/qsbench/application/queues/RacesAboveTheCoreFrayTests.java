package io.github.qsbench.application.queues;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import io.github.qsbench.application.LeaseTokens;
import io.github.qsbench.application.Limits;
import io.github.qsbench.application.Received;
import io.github.qsbench.application.TestOperations;
import io.github.qsbench.application.fifo.InMemoryFifoGroups;
import io.github.qsbench.application.messages.MessageOperations;
import io.github.qsbench.application.queues.MessageMoveTask.Status;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.Eviction;
import io.github.qsbench.core.MutableClock;
import io.github.qsbench.core.Peeked;
import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.strategy.Strategy;
import io.github.qsbench.metrics.QueueMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.ConcurrencyTest;

/**
 * The races that live above the core, where the application composes several core calls
 * into one operation, run under Fray's controlled scheduling: each iteration builds the
 * real application classes afresh (a core, its explicit queues, {@link QueueOperations},
 * {@link MessageMoveTasks}, time from an injected clock), races two or three threads
 * through them in an interleaving Fray chooses, and checks that every message ends
 * exactly once and the counts agree. A failing interleaving is saved under
 * {@code target/fray/fray-report/<class>/<method>/recording} and replays from there
 * ({@code replay = ...} on the test's {@code @ConcurrencyTest}; docs/testing.md).
 *
 * <p>
 * Runs only under Fray's instrumented JDK (failsafe execution {@code fray}); elsewhere
 * Fray reports each test disabled.
 */
@ExtendWith(FrayTestExtension.class)
class RacesAboveTheCoreFrayTests {

	/**
	 * Interleavings explored per race, each a fresh run: the four together take about a
	 * minute on a 2-core machine.
	 */
	private static final int ITERATIONS = 1000;

	private static final Duration LEASE = Duration.ofSeconds(30);

	/**
	 * A dead-letter move (a poll that finds a message delivered {@code maxDeliveries}
	 * times) against two late completions: its last holder's, with the lease token of its
	 * lapsed delivery, and one by id alone, which completes whichever delivery is current
	 * and so may land between the move's lease and the move's own completion. The message
	 * is completed once or in the dead-letter queue, never both, never neither, and the
	 * poll delivers nothing.
	 */
	@ConcurrencyTest(iterations = ITERATIONS)
	void deadLetterMoveAgainstLateCompletion() throws InterruptedException {
		try (Service service = new Service()) {
			service.operations.configure("q", deadLettersTo("dlq"));
			service.messages.push("q", utf8("slow"));
			Received held = service.messages.lease("q", 1).get(0);
			service.clock.advance(LEASE);

			AtomicReference<List<Received>> polled = new AtomicReference<>();
			AtomicReference<Completion> holder = new AtomicReference<>();
			AtomicReference<Completion> byId = new AtomicReference<>();
			race(() -> polled.set(service.messages.lease("q", 10)),
					() -> holder.set(service.messages.complete("q", held.id(), LeaseTokens.token(held.lease()))),
					() -> byId.set(service.messages.complete("q", held.id(), null)));

			assertThat(polled.get()).as("a redelivery beyond maxDeliveries is never delivered").isEmpty();
			assertThat(holder.get()).as("stale once the poll redelivered it")
				.isIn(Completion.COMPLETED, Completion.STALE_LEASE, Completion.NOT_FOUND);
			assertThat(byId.get()).isIn(Completion.COMPLETED, Completion.NOT_FOUND);
			int completed = ((holder.get() == Completion.COMPLETED) ? 1 : 0)
					+ ((byId.get() == Completion.COMPLETED) ? 1 : 0);
			int deadLettered = service.drain("dlq").size();
			assertThat(completed + deadLettered).as("completed or dead-lettered, once").isOne();
			assertThat(service.held("q")).as("left in the source").isEmpty();
			assertThat(service.counted("qs.messages.deadlettered", "outcome", "moved"))
				.isEqualTo((double) deadLettered);
		}
	}

	/**
	 * A purge against a consumer that polls and completes: each message is removed once,
	 * by the purge or by the consumer's completion (a message delivered and then purged
	 * counts for the purge, its completion refused), and the purge's count agrees.
	 */
	@ConcurrencyTest(iterations = ITERATIONS)
	void purgeAgainstPoll() throws InterruptedException {
		try (Service service = new Service()) {
			for (String body : List.of("a", "b", "c")) {
				service.messages.push("q", utf8(body));
			}

			AtomicReference<Integer> purged = new AtomicReference<>();
			List<Completion> completions = new ArrayList<>();
			race(() -> purged.set(service.operations.purge("q")), () -> {
				for (Received received : service.messages.lease("q", 10)) {
					completions.add(service.messages.complete("q", received.id(), LeaseTokens.token(received.lease())));
				}
			});

			long completed = completions.stream().filter(Completion.COMPLETED::equals).count();
			assertThat(completions).as("a purged delivery's completion is refused, nothing else")
				.allMatch((completion) -> completion == Completion.COMPLETED || completion == Completion.NOT_FOUND);
			assertThat(purged.get() + completed).as("purged + completed").isEqualTo(3);
			assertThat(service.held("q")).isEmpty();
			assertThat(service.counted("qs.messages.purged", "state", "ready")
					+ service.counted("qs.messages.purged", "state", "inflight"))
				.isEqualTo(purged.get().doubleValue());
		}
	}

	/**
	 * A redrive of a dead-letter queue against pushes to it and to the source: every dead
	 * letter ends once in its source, the message pushed to the source once, the one
	 * pushed to the dead-letter queue stays there, and the redrive counts what it moved.
	 */
	@ConcurrencyTest(iterations = ITERATIONS)
	void redriveAgainstPush() throws InterruptedException {
		try (Service service = new Service()) {
			service.operations.configure("q", deadLettersTo("dlq"));
			service.deadLetter("q", "d1", "d2");

			AtomicReference<Integer> redriven = new AtomicReference<>();
			race(() -> redriven.set(service.operations.redrive("dlq", null, 10)), () -> {
				service.messages.push("q", utf8("p"));
				service.messages.push("dlq", utf8("x"));
			});

			service.clock.advance(LEASE); // what the redrive leased and left comes back
			assertThat(texts(service.drain("q"))).containsExactlyInAnyOrder("d1", "d2", "p");
			assertThat(texts(service.drain("dlq"))).containsExactly("x");
			assertThat(redriven.get()).isEqualTo(2);
			assertThat(service.counted("qs.messages.redriven")).isEqualTo(2.0);
		}
	}

	/**
	 * A move task's step against a cancel of the task: every message is once in the
	 * dead-letter queue or the destination, the task counts what the destination got, and
	 * it ends cancelled, or completed when the cancel came after its last move.
	 */
	@ConcurrencyTest(iterations = ITERATIONS)
	void moveTaskAgainstCancel() throws InterruptedException {
		try (Service service = new Service()) {
			service.operations.configure("q", deadLettersTo("dlq"));
			service.operations.configure("dest", new QueueSettings.Change(null, null, null, null));
			service.deadLetter("q", "d1", "d2", "d3");
			MessageMoveTasks tasks = new MessageMoveTasks(service.operations, service.core, service.events,
					service.clock);
			try {
				String handle = tasks.start("dlq", "dest", null).handle();

				AtomicReference<MoveTaskException> refused = new AtomicReference<>();
				race(tasks::step, () -> {
					try {
						tasks.cancel(handle);
					}
					catch (MoveTaskException ex) {
						refused.set(ex);
					}
				});
				tasks.step(); // a cancel that came after the step takes effect at the
								// next

				MessageMoveTask task = tasks.task(handle).orElseThrow();
				List<String> moved = texts(service.drain("dest"));
				List<String> left = texts(service.drain("dlq"));
				assertThat(task.status()).isEqualTo((refused.get() == null) ? Status.CANCELLED : Status.COMPLETED);
				assertThat(task.moved()).as("the task's count").isEqualTo(moved.size());
				assertThat(service.counted("qs.messages.redriven")).isEqualTo((double) moved.size());
				List<String> all = new ArrayList<>(moved);
				all.addAll(left);
				assertThat(all).as("each message once, moved or left").containsExactlyInAnyOrder("d1", "d2", "d3");
			}
			finally {
				tasks.destroy();
			}
		}
	}

	/**
	 * Runs each on a thread of its own, all at once, and waits for them; a failure in any
	 * fails.
	 */
	private static void race(Runnable... actions) throws InterruptedException {
		AtomicReference<Throwable> failed = new AtomicReference<>();
		List<Thread> threads = new ArrayList<>();
		for (Runnable action : actions) {
			threads.add(new Thread(guarded(action, failed)));
		}
		for (Thread thread : threads) {
			thread.start();
		}
		for (Thread thread : threads) {
			thread.join();
		}
		if (failed.get() != null) {
			throw new AssertionError("a racing thread failed", failed.get());
		}
	}

	private static Runnable guarded(Runnable action, AtomicReference<Throwable> failed) {
		return () -> {
			try {
				action.run();
			}
			catch (Throwable ex) {
				failed.compareAndSet(null, ex);
			}
		};
	}

	private static QueueSettings.Change deadLettersTo(String queue) {
		return new QueueSettings.Change(null, null, null, new DeadLetterPolicy(queue, 1));
	}

	private static byte[] utf8(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	private static List<String> texts(List<Received> received) {
		return received.stream().map((one) -> one.message().text()).toList();
	}

	/**
	 * The application on one in-memory strategy, as the service wires it, with its own
	 * clock and meters: made afresh for each run.
	 */
	private static final class Service implements AutoCloseable {

		final MutableClock clock = new MutableClock();

		final SimpleMeterRegistry registry = new SimpleMeterRegistry();

		final QueueServiceCore core = Strategy.LANE_LOCKED.create(new Strategy.Context(
				new QueueOptions(LEASE, Eviction.LAZY, this.clock, true), Strategy.Context.NO_STORE));

		final QueueMetrics events = new QueueMetrics(this.registry, this.core);

		final TestOperations made = TestOperations.of(this.core, new InMemoryExplicitQueues(this.core),
				new InMemoryFifoGroups(), this.events, LEASE, this.clock, Limits.MAX_MESSAGE_BYTES);

		final MessageOperations messages = this.made.messages();

		final QueueOperations operations = this.made.queues();

		Service() {
			this.operations.configure("dlq", new QueueSettings.Change(null, null, null, null));
		}

		/**
		 * Makes dead letters of {@code bodies} pushed to {@code queue}: delivered once,
		 * left to lapse, moved by the next poll.
		 */
		void deadLetter(String queue, String... bodies) {
			for (String body : bodies) {
				this.messages.push(queue, utf8(body));
			}
			assertThat(this.messages.lease(queue, 10)).hasSize(bodies.length);
			this.clock.advance(LEASE);
			assertThat(this.messages.lease(queue, 10)).isEmpty();
		}

		/** Every message of the queue now ready, leased. */
		List<Received> drain(String queue) {
			List<Received> all = new ArrayList<>();
			List<Received> leased;
			while (!(leased = this.messages.lease(queue, 10)).isEmpty()) {
				all.addAll(leased);
			}
			return all;
		}

		/** What the core holds of the queue, ready, in flight or delayed. */
		List<Peeked> held(String queue) {
			return this.core.peek(queue, 100);
		}

		double counted(String name, String... tags) {
			return this.registry.get(name).tags(tags).counter().count();
		}

		@Override
		public void close() {
			this.made.close();
			this.core.close();
		}

	}

}
