package io.github.qsbench.application.messages;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.stream.Stream;

import io.github.qsbench.application.messages.LongPolls.Waiter;
import io.github.qsbench.core.ConcurrentTestHarness;
import io.github.qsbench.core.Delivery;
import io.github.qsbench.core.Eviction;
import io.github.qsbench.core.Lease;
import io.github.qsbench.core.MutableClock;
import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.TestBodies;
import io.github.qsbench.core.TestCores;
import io.github.qsbench.core.strategy.Strategy;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The waiter registry against a real core, without HTTP: races between waiters
 * registering, pushes signalling, waits ending and shutdown. Lost wake-ups show as
 * waiters still unanswered long before their wait ends; a message leased to nobody shows
 * as a message neither delivered nor left in the queue.
 */
class LongPollsTests {

	private static final int ROUNDS = ConcurrentTestHarness.intProperty("qs.test.longPollRounds", 300);

	private QueueServiceCore service = create(Strategy.CONCURRENT_ATOMIC);

	private final ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1);

	private LongPolls longPolls = new LongPolls(this.service, this.timer);

	@AfterEach
	void stopTimer() {
		this.timer.shutdownNow();
	}

	static Stream<Strategy> exactlyOnce() {
		return Stream.of(Strategy.values()).filter(s -> s.delivery(Eviction.LAZY) == Delivery.EXACTLY_ONCE);
	}

	/**
	 * Per queue, 8 waiters register (from 4 threads) while 8 messages are pushed (from 2
	 * threads, each push followed by its signal), over {@value #ROUNDS} queues. Every
	 * waiter must get exactly one message, none twice, long before its 60 s wait ends.
	 */
	@ParameterizedTest
	@MethodSource("exactlyOnce")
	void waitersRacingPushes_noLostWakeUp_noDuplicate(Strategy strategy) throws Exception {
		this.service = create(strategy);
		this.longPolls = new LongPolls(this.service, this.timer);
		int waitersPerQueue = 8;
		Answers answers = new Answers(ROUNDS * waitersPerQueue);
		List<Runnable> tasks = new ArrayList<>();
		for (int t = 0; t < 4; t++) {
			int thread = t;
			tasks.add(() -> {
				for (int round = 0; round < ROUNDS; round++) {
					for (int i = 0; i < waitersPerQueue / 4; i++) {
						int index = round * waitersPerQueue + thread * (waitersPerQueue / 4) + i;
						this.longPolls.await(answers.waiter("q" + round, 1, index), Duration.ofSeconds(60));
					}
				}
			});
		}
		for (int t = 0; t < 2; t++) {
			tasks.add(() -> {
				for (int round = 0; round < ROUNDS; round++) {
					for (int i = 0; i < waitersPerQueue / 2; i++) {
						this.service.push("q" + round, "m");
						this.longPolls.pushed("q" + round);
					}
				}
			});
		}

		ConcurrentTestHarness.runAll(Duration.ofSeconds(30), tasks);

		await().atMost(Duration.ofSeconds(20)).until(() -> answers.answered() == answers.size());
		assertThat(answers.duplicates()).as("waiters answered twice").isZero();
		assertThat(answers.deliveredIds()).as("one distinct message per waiter").hasSize(answers.size());
		assertThat(answers.empty()).as("waiters answered with nothing").isZero();
		assertThat(this.longPolls.waiting()).as("no queue entry left behind").isEmpty();
	}

	/**
	 * Waits of 0 to 3 ms end while pushes signal: each message is delivered to exactly
	 * one waiter or is still in the queue; none is leased for a waiter that was answered
	 * otherwise.
	 */
	@Test
	void waitsEndingWhilePushesSignal_noMessageLeasedToNobody() throws Exception {
		int waiters = 2000;
		int messages = 2000;
		Answers answers = new Answers(waiters);
		List<Runnable> tasks = new ArrayList<>();
		for (int t = 0; t < 4; t++) {
			int thread = t;
			tasks.add(() -> {
				for (int i = thread; i < waiters; i += 4) {
					Duration wait = Duration.ofMillis(ThreadLocalRandom.current().nextInt(4));
					this.longPolls.await(answers.waiter("race", 1, i), wait);
				}
			});
		}
		for (int t = 0; t < 2; t++) {
			tasks.add(() -> {
				for (int i = 0; i < messages / 2; i++) {
					this.service.push("race", "m");
					this.longPolls.pushed("race");
				}
			});
		}

		ConcurrentTestHarness.runAll(Duration.ofSeconds(30), tasks);
		await().atMost(Duration.ofSeconds(20)).until(() -> answers.answered() == waiters);

		Set<Long> left = new HashSet<>();
		for (List<Lease> batch = this.service.lease("race", 100); !batch.isEmpty(); batch = this.service.lease("race",
				100)) {
			batch.forEach(lease -> left.add(lease.message().id()));
		}
		assertThat(answers.duplicates()).isZero();
		Set<Long> delivered = answers.deliveredIds();
		assertThat(Collections.disjoint(delivered, left)).as("delivered and still queued").isTrue();
		assertThat(delivered.size() + left.size()).as("delivered to a waiter or still in the queue")
			.isEqualTo(messages);
		assertThat(this.longPolls.waiting()).isEmpty();
	}

	@Test
	void wokenWaiterFindingNothing_keepsWaiting() {
		Answers answers = new Answers(1);
		this.longPolls.await(answers.waiter("taken", 1, 0), Duration.ofSeconds(60));
		this.service.push("taken", "first");
		assertThat(this.service.lease("taken", 1)).as("another consumer is faster").hasSize(1);

		this.longPolls.pushed("taken");

		assertThat(answers.answered()).isZero();
		assertThat(this.longPolls.waiting()).containsEntry("taken", 1);
		this.service.push("taken", "second");
		this.longPolls.pushed("taken");
		assertThat(answers.answered()).isOne();
		assertThat(answers.bodies()).containsExactly("second");
	}

	@Test
	void signal_wakesOldestWaitersFirst_takingUpToMaxEach() {
		Answers answers = new Answers(3);
		this.longPolls.await(answers.waiter("fifo", 2, 0), Duration.ofSeconds(60));
		this.longPolls.await(answers.waiter("fifo", 1, 1), Duration.ofSeconds(60));
		this.longPolls.await(answers.waiter("fifo", 1, 2), Duration.ofSeconds(60));

		this.service.pushAll("fifo", TestBodies.utf8("a", "b", "c"));
		this.longPolls.pushed("fifo");

		assertThat(answers.bodiesOf(0)).containsExactly("a", "b");
		assertThat(answers.bodiesOf(1)).containsExactly("c");
		assertThat(answers.answered()).isEqualTo(2);
		assertThat(this.longPolls.waiting()).containsEntry("fifo", 1);
	}

	@Test
	void stop_answersEveryWaiterWithNothing_thenPollsDoNotWait() {
		Answers answers = new Answers(4);
		this.longPolls.await(answers.waiter("a", 1, 0), Duration.ofSeconds(60));
		this.longPolls.await(answers.waiter("a", 1, 1), Duration.ofSeconds(60));
		this.longPolls.await(answers.waiter("b", 1, 2), Duration.ofSeconds(60));

		this.longPolls.stop();

		assertThat(answers.answered()).isEqualTo(3);
		assertThat(answers.empty()).isEqualTo(3);
		assertThat(this.longPolls.waiting()).isEmpty();
		this.longPolls.await(answers.waiter("a", 1, 3), Duration.ofSeconds(60));
		assertThat(answers.answered()).as("answered at once").isEqualTo(4);
	}

	private static final Duration LEASE = Duration.ofSeconds(30);

	private static final long LEASE_MILLIS = LEASE.toMillis();

	private static QueueServiceCore create(Strategy strategy) {
		return TestCores.create(strategy, new QueueOptions(LEASE, Eviction.LAZY, new MutableClock(), true));
	}

	/** What each waiter was answered, and how often. */
	private final class Answers {

		private final AtomicReferenceArray<List<Lease>> leases;

		private final AtomicIntegerArray calls;

		Answers(int waiters) {
			this.leases = new AtomicReferenceArray<>(waiters);
			this.calls = new AtomicIntegerArray(waiters);
		}

		Waiter waiter(String queue, int max, int index) {
			return new Waiter(queue, () -> LongPollsTests.this.service.lease(queue, max, LEASE_MILLIS), answer -> {
				this.calls.incrementAndGet(index);
				this.leases.set(index, answer);
			});
		}

		int size() {
			return this.calls.length();
		}

		int answered() {
			int answered = 0;
			for (int i = 0; i < size(); i++) {
				answered += (this.calls.get(i) > 0) ? 1 : 0;
			}
			return answered;
		}

		int duplicates() {
			int duplicates = 0;
			for (int i = 0; i < size(); i++) {
				duplicates += Math.max(0, this.calls.get(i) - 1);
			}
			return duplicates;
		}

		int empty() {
			int empty = 0;
			for (int i = 0; i < size(); i++) {
				List<Lease> answer = this.leases.get(i);
				empty += (answer != null && answer.isEmpty()) ? 1 : 0;
			}
			return empty;
		}

		Set<Long> deliveredIds() {
			Set<Long> ids = new HashSet<>();
			int count = 0;
			for (int i = 0; i < size(); i++) {
				List<Lease> answer = this.leases.get(i);
				if (answer != null) {
					for (Lease lease : answer) {
						ids.add(lease.message().id());
						count++;
					}
				}
			}
			assertThat(count).as("no message delivered to two waiters").isEqualTo(ids.size());
			return ids;
		}

		List<String> bodies() {
			List<String> bodies = new ArrayList<>();
			for (int i = 0; i < size(); i++) {
				bodies.addAll(bodiesOf(i));
			}
			return bodies;
		}

		List<String> bodiesOf(int index) {
			List<Lease> answer = this.leases.get(index);
			return (answer != null) ? answer.stream().map(lease -> lease.message().text()).toList() : List.of();
		}

	}

}
