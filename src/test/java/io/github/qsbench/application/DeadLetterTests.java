package io.github.qsbench.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.qsbench.application.MessageAttributes.Attribute;
import io.github.qsbench.application.fifo.InMemoryFifoGroups;
import io.github.qsbench.application.messages.LongPoll;
import io.github.qsbench.application.queues.DeadLetterPolicy;
import io.github.qsbench.application.queues.InMemoryExplicitQueues;
import io.github.qsbench.application.queues.QueueSettings;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.TestCores;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.github.qsbench.core.Capacity;
import io.github.qsbench.core.Eviction;
import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.strategy.Strategy;
import io.github.qsbench.metrics.CoreTimedQueueService;
import io.github.qsbench.metrics.QueueMetrics;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Queue settings and dead letters, written once above the core, held to their contract
 * for every strategy with the injected clock: a message delivered {@code maxDeliveries}
 * times moves to the dead-letter queue when its last lease lapses, exactly once, with
 * body, attributes and delivery count, whether a late completion races it or not; a
 * redrive moves it back.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(Strategy.class)
class DeadLetterTests extends OperationsPerStrategy {

	@BeforeEach
	void queues() {
		assertThat(this.operations.configure("dlq", change(null))).isTrue();
		assertThat(this.operations.configure("q", change(new DeadLetterPolicy("dlq", 2)))).isTrue();
	}

	@Test
	void lastLeaseLapses_movesWithBodyAttributesAndDeliveries() {
		this.messages.send("q", new OutgoingMessage(utf8("poison"),
				MessageAttributes.of(Map.of("kind", Attribute.parse("String", "order"))), null, null), null);
		leaseAndLapse("q", 1);
		leaseAndLapse("q", 2);

		assertThat(this.messages.lease("q", 10)).as("a third delivery would exceed maxDeliveries").isEmpty();

		List<Received> dead = this.messages.lease("dlq", 10);
		assertThat(dead).hasSize(1);
		StoredMessage read = dead.get(0).message();
		assertThat(read.text()).isEqualTo("poison");
		assertThat(read.attributes().attributes()).containsOnlyKeys("kind");
		assertThat(read.deadLetter()).isEqualTo(new StoredMessage.DeadLetter("q", 2));
		assertThat(moved()).isOne();
		assertThat(this.core.heldCount()).isOne();
	}

	/**
	 * A dead-letter queue a cap keeps full: the move is refused before the message leaves
	 * its queue, so it stays there (delivered again once the lease of the poll that tried
	 * lapses), and moves once there is room; nothing is lost, nothing doubled.
	 */
	@Test
	void deadLetterQueueFull_messageStaysThenMovesWhenThereIsRoom() {
		QueueServiceCore capped = TestCores.create(this.strategy,
				new QueueOptions(LEASE, Eviction.LAZY, this.clock, true, new Capacity.Limits(100, 1, Long.MAX_VALUE)));
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		TestOperations made = TestOperations.of(new CoreTimedQueueService(capped, registry),
				new InMemoryExplicitQueues(capped), new InMemoryFifoGroups(), new QueueMetrics(registry, capped), LEASE,
				this.clock, Limits.MAX_MESSAGE_BYTES);
		try {
			made.queues().configure("full-dlq", change(null));
			made.queues().configure("src", change(new DeadLetterPolicy("full-dlq", 1)));
			made.messages().push("full-dlq", utf8("blocker"));
			Sent poison = made.messages().push("src", utf8("poison"));
			assertThat(made.messages().lease("src", 1)).hasSize(1);
			this.clock.advance(LEASE);

			assertThat(made.messages().lease("src", 1)).as("due for the full dead-letter queue").isEmpty();
			assertThat(registry.get("qs.messages.deadlettered").tag("outcome", "refused").counter().count()).isOne();
			assertThat(capped.peek("src", 10)).extracting(peeked -> peeked.message().id())
				.as("still where it was")
				.containsExactly(poison.id());
			assertThat(capped.peek("full-dlq", 10)).as("no copy left behind").hasSize(1);

			Received blocker = made.messages().lease("full-dlq", 1).get(0);
			made.messages().complete("full-dlq", blocker.id(), null);
			this.clock.advance(LEASE);
			assertThat(made.messages().lease("src", 1)).isEmpty();
			List<Received> moved = made.messages().lease("full-dlq", 10);
			assertThat(moved).extracting(lease -> lease.message().text()).containsExactly("poison");
			assertThat(capped.heldCount()).isOne();
		}
		finally {
			made.close();
			capped.close();
		}
	}

	@Test
	void longPollOnTheDeadLetterQueue_wokenByAMove() throws Exception {
		this.longPolls.start();
		this.messages.push("q", utf8("poison"));
		leaseAndLapse("q", 1);
		leaseAndLapse("q", 2);
		LongPoll waiting = this.messages.awaitLease("dlq", 1, Duration.ofSeconds(20), null);
		assertThat(waiting).isNotDone();

		assertThat(this.messages.lease("q", 1)).isEmpty();

		List<Received> woken = waiting.get(10, TimeUnit.SECONDS);
		assertThat(woken).extracting(lease -> lease.message().text()).containsExactly("poison");
	}

	@Test
	void lateCompletionBeforeTheMove_wins_andNothingMoves() {
		this.messages.push("q", utf8("slow"));
		leaseAndLapse("q", 1);
		Received last = leaseAndLapse("q", 2);

		assertThat(this.messages.complete("q", last.id(), null)).isEqualTo(Completion.COMPLETED);

		assertThat(this.messages.lease("q", 10)).isEmpty();
		assertThat(this.messages.lease("dlq", 10)).isEmpty();
		assertThat(moved()).isZero();
	}

	@Test
	void moveBeforeTheLateCompletion_holderGetsNotFound() {
		this.messages.push("q", utf8("slow"));
		leaseAndLapse("q", 1);
		Received last = leaseAndLapse("q", 2);
		this.messages.push("q", utf8("next"));

		List<Received> polled = this.messages.lease("q", 10);

		assertThat(polled).extracting(lease -> lease.message().text())
			.as("the dead letter moved, the next message is delivered")
			.containsExactly("next");
		assertThat(this.messages.complete("q", last.id(), null)).isEqualTo(Completion.NOT_FOUND);
		assertThat(this.messages.lease("dlq", 10)).hasSize(1);
	}

	@Test
	void redrive_backToTheSourceOrElsewhere_asNewUndeliveredMessages() {
		for (String body : List.of("a", "b", "c")) {
			this.messages.push("q", utf8(body));
		}
		this.messages.lease("q", 3);
		this.clock.advance(LEASE);
		this.messages.lease("q", 3);
		this.clock.advance(LEASE);
		assertThat(this.messages.lease("q", 3)).isEmpty();

		assertThat(this.operations.redrive("dlq", null, 2)).isEqualTo(2);
		assertThat(this.operations.redrive("dlq", "elsewhere", 10)).isEqualTo(1);

		List<Received> back = this.messages.lease("q", 10);
		assertThat(back).extracting(Received::delivery).containsOnly(1);
		assertThat(back).extracting(lease -> lease.message().deadLetter()).containsOnlyNulls();
		assertThat(this.messages.lease("elsewhere", 10)).hasSize(1);
		assertThat(back.size()).isEqualTo(2);
		assertThat(this.operations.queue("dlq")).isEmpty();
		assertThat(this.registry.get("qs.messages.redriven").counter().count()).isEqualTo(3);
		this.messages.push("dlq", utf8("to itself"));
		assertThat(this.operations.redrive("dlq", "dlq", Integer.MAX_VALUE)).as("only what it held, then it ends")
			.isOne();
	}

	@Test
	void settings_validatedAndShown() {
		assertThat(this.operations.settings("q").deadLetters()).isEqualTo(new DeadLetterPolicy("dlq", 2));
		assertThat(this.operations.deadLetterSources("dlq")).containsExactly("q");
		assertInvalid(() -> this.operations.configure("x", change(new DeadLetterPolicy("missing", 1))),
				"does not exist");
		assertInvalid(() -> this.operations.configure("dlq", change(new DeadLetterPolicy("dlq", 1))), "its own");
		assertInvalid(() -> new DeadLetterPolicy("dlq", 1001), "maxDeliveries");
		assertInvalid(() -> this.operations.configure("q", new QueueSettings.Change(43_201L, null, null, null)),
				"leaseSeconds");
		assertInvalid(() -> this.operations.configure("q", new QueueSettings.Change(null, 901, null, null)),
				"delaySeconds");
		assertThat(this.operations.configure("q", new QueueSettings.Change(null, 5, null, null))).isFalse();
		assertThat(this.operations.settings("q").delaySeconds()).isEqualTo(5);
		assertThat(this.operations.configure("q", new QueueSettings.Change(LEASE.toSeconds(), 0, null, null)))
			.isFalse();
		assertThat(this.operations.settings("q").deadLetters()).as("left as it was").isNotNull();
		assertThat(this.operations.configure("q", new QueueSettings.Change(60L, null, null, null))).isFalse();
		assertThat(this.operations.settings("q").leaseSeconds()).as("the queue's own").isEqualTo(60);
		assertThat(this.operations.settings("q").deadLetters()).as("left as it was").isNotNull();
		assertThat(this.operations.settings("x").leaseSeconds()).as("the service's").isEqualTo(LEASE.toSeconds());

		this.operations.configure("q", change(QueueSettings.Change.REMOVE));
		assertThat(this.operations.settings("q").deadLetters()).isNull();
		assertThat(this.operations.deadLetterSources("dlq")).isEmpty();
	}

	/**
	 * Polls that move dead letters race late holders completing the same messages: each
	 * message ends exactly once, completed or dead-lettered.
	 */
	@Test
	void deadLetterMovesRacingLateCompletions_eachMessageEndsOnce() throws Exception {
		this.operations.configure("q", change(new DeadLetterPolicy("dlq", 1)));
		int messages = 2_000;
		for (int i = 0; i < messages; i++) {
			this.messages.push("q", utf8("m" + i));
		}
		List<Received> held = new ArrayList<>();
		List<Received> leased;
		while (!(leased = this.messages.lease("q", 100)).isEmpty()) {
			held.addAll(leased);
		}
		this.clock.advance(LEASE);
		Set<String> completedLate = ConcurrentHashMap.newKeySet();
		CyclicBarrier start = new CyclicBarrier(4);
		ExecutorService pool = Executors.newFixedThreadPool(4);
		try {
			List<Future<?>> tasks = new ArrayList<>();
			for (int t = 0; t < 2; t++) {
				int from = t;
				tasks.add(pool.submit(() -> {
					start.await();
					for (int i = from; i < held.size(); i += 2) {
						Received lease = held.get(i);
						if (this.messages.complete("q", lease.id(), null) == Completion.COMPLETED) {
							completedLate.add(lease.message().text());
						}
					}
					return null;
				}));
				tasks.add(pool.submit(() -> {
					start.await();
					for (int i = 0; i < 200; i++) {
						assertThat(this.messages.lease("q", 10)).as("every redelivery is a dead letter").isEmpty();
					}
					return null;
				}));
			}
			for (Future<?> task : tasks) {
				task.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			pool.shutdownNow();
		}
		assertThat(this.messages.lease("q", 100)).isEmpty();
		Set<String> deadLettered = new HashSet<>();
		while (!(leased = this.messages.lease("dlq", 100)).isEmpty()) {
			for (Received lease : leased) {
				assertThat(deadLettered.add(lease.message().text())).as("moved twice").isTrue();
			}
		}
		Set<String> both = new HashSet<>(deadLettered);
		both.retainAll(completedLate);
		assertThat(both).as("completed and dead-lettered").isEmpty();
		assertThat(deadLettered.size() + completedLate.size()).isEqualTo(messages);
		assertThat(moved()).isEqualTo(deadLettered.size());
	}

	private Received leaseAndLapse(String queue, int delivery) {
		List<Received> leased = this.messages.lease(queue, 10);
		assertThat(leased).extracting(Received::delivery).containsExactly(delivery);
		this.clock.advance(LEASE);
		return leased.get(0);
	}

	private double moved() {
		return this.registry.get("qs.messages.deadlettered").tag("outcome", "moved").counter().count();
	}

	private static QueueSettings.Change change(DeadLetterPolicy policy) {
		return new QueueSettings.Change(null, null, null, policy);
	}

	private static void assertInvalid(Runnable attempt, String reason) {
		assertThatExceptionOfType(InvalidRequestException.class).isThrownBy(attempt::run)
			.satisfies(ex -> assertThat(ex.detail()).contains(reason));
	}

}
