package io.github.qsbench.application;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.qsbench.application.fair.FairGroups;
import io.github.qsbench.application.fair.FairQueues;
import io.github.qsbench.application.messages.MessageOperations;
import io.github.qsbench.core.Delivery;
import io.github.qsbench.core.Eviction;
import io.github.qsbench.core.strategy.Strategy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Fair queues ({@link FairQueues}) on every strategy: one tenant's backlog pushed first,
 * then nine tenants sending {@value #QUIET_EACH} each, {@value #CONSUMERS} consumers
 * receiving batches of {@value #BATCH}.
 *
 * <p>
 * The bound, from the rule: the backlog's tenant releases {@value FairGroups#NOISY_MIN}
 * messages (it is noisy from then on: at least 30 released, and all of the queue's
 * released messages), and the rest is held; the nine quiet tenants' 90 are released as
 * they are sent. So the core holds 30 + 90 ready messages, and a held one is released
 * only by a receive that finds fewer than it asks for: every quiet message is among the
 * first 30 + 90 delivered, give or take the receives that run at once, which take up to
 * {@value #BATCH} each: receives are numbered as they start, and the ready messages are
 * gone by receive (30 + 90) / {@value #BATCH} + {@value #CONSUMERS}, slack
 * {@value #CONSUMERS} x {@value #BATCH}. Without groups the same messages wait behind the
 * whole backlog. Every message is delivered (none lost), and none twice on a strategy
 * that promises exactly once.
 *
 * <p>
 * The backlog is SQS's example's 10,000 on the first strategy and on Redis, and
 * {@value #SCALED_BACKLOG} on the others, the same rule scaled down to keep the sweep
 * short.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(Strategy.class)
class FairQueueTests extends OperationsPerStrategy {

	static final int FULL_BACKLOG = 10_000;

	static final int SCALED_BACKLOG = 1_000;

	static final int TENANTS = 9;

	static final int QUIET_EACH = 10;

	static final int CONSUMERS = 4;

	static final int BATCH = 10;

	/** Where every quiet message is delivered at the latest: see the class comment. */
	static final int BOUND = FairGroups.NOISY_MIN + TENANTS * QUIET_EACH + CONSUMERS * BATCH;

	private int backlog() {
		return (this.strategy == Strategy.values()[0] || this.strategy == Strategy.REDIS) ? FULL_BACKLOG
				: SCALED_BACKLOG;
	}

	/**
	 * Whether the strategy promises exactly once (one that does not may deliver twice).
	 */
	private boolean exactlyOnce() {
		return this.strategy.delivery(Eviction.LAZY) == Delivery.EXACTLY_ONCE;
	}

	@Test
	void noisyBacklogFirst_quietTenantsDeliveredWithinTheRule() throws InterruptedException {
		Delivered delivered = Workload.run(List.of(Client.blocking(this.messages)), "fair", backlog(), true);

		delivered.assertExactlyOnce(backlog() + TENANTS * QUIET_EACH, exactlyOnce());
		assertThat(delivered.lastQuietPosition()).as("the last quiet message's place in delivery order")
			.isLessThanOrEqualTo(BOUND);
		assertThat(this.operations.quietCounts("fair").noisyGroups()).as("every message left").isZero();
	}

	@Test
	void withoutGroups_quietTenantsWaitBehindTheBacklog() throws InterruptedException {
		Delivered delivered = Workload.run(List.of(Client.blocking(this.messages)), "plain", SCALED_BACKLOG, false);

		delivered.assertExactlyOnce(SCALED_BACKLOG + TENANTS * QUIET_EACH, exactlyOnce());
		assertThat(delivered.firstQuietPosition()).as("the first quiet message's place in delivery order, by answer")
			.isGreaterThan(SCALED_BACKLOG - CONSUMERS * BATCH)
			.isGreaterThan(BOUND);
	}

	@Test
	void noisyGroup_countedHeldAndVisible() {
		send("counted", "noisy", 100);
		send("counted", "quiet", 5);

		QuietCounts counts = this.operations.quietCounts("counted");
		assertThat(counts.noisyGroups()).isEqualTo(1);
		assertThat(counts.visible()).as("the quiet group's, and none of the noisy one's").isEqualTo(5);
		assertThat(counts.notVisible()).isZero();
		assertThat(counts.delayed()).isZero();
		assertThat(this.operations.queue("counted")).hasValueSatisfying(stats -> {
			assertThat(stats.ready()).as("held messages are visible").isEqualTo(105);
			assertThat(stats.delayed()).isZero();
		});
		assertThat(this.operations.purge("counted")).isEqualTo(105);
		assertThat(this.operations.quietCounts("counted").noisyGroups()).isZero();
		assertThat(this.messages.lease("counted", 10)).isEmpty();
	}

	private void send(String queue, String group, int count) {
		for (int i = 0; i < count; i++) {
			this.messages.send(queue, message(group, i), null);
		}
	}

	static OutgoingMessage message(String group, int i) {
		return new OutgoingMessage(utf8(((group != null) ? group : "none") + "-" + i), MessageAttributes.NONE, group,
				null);
	}

	/**
	 * How the workload reaches an instance: its blocking calls ({@link #blocking}), or
	 * calls that answer as they do.
	 */
	interface Client {

		void sendAll(String queue, List<OutgoingMessage> messages);

		long send(String queue, OutgoingMessage message);

		List<Received> lease(String queue, int max);

		void completeAll(String queue, List<MessageOperations.BatchEntry> entries);

		/** {@link MessageOperations}' blocking calls. */
		static Client blocking(MessageOperations messages) {
			return new Client() {

				@Override
				public void sendAll(String queue, List<OutgoingMessage> batch) {
					messages.sendAll(queue, batch, null);
				}

				@Override
				public long send(String queue, OutgoingMessage message) {
					return messages.send(queue, message, null).id();
				}

				@Override
				public List<Received> lease(String queue, int max) {
					return messages.lease(queue, max);
				}

				@Override
				public void completeAll(String queue, List<MessageOperations.BatchEntry> entries) {
					messages.completeAll(queue, entries);
				}

			};
		}

	}

	/**
	 * One run: the backlog of tenant {@code noisy} sent through the first of
	 * {@code instances}, then nine quiet tenants' messages through the last, then
	 * consumers receiving through each in turn until every message was delivered, or a
	 * time limit passed.
	 */
	static final class Workload {

		static Delivered run(List<Client> instances, String queue, int backlog, boolean grouped)
				throws InterruptedException {
			Client sender = instances.get(0);
			List<OutgoingMessage> batch = new ArrayList<>();
			for (int i = 0; i < backlog; i++) {
				batch.add(message(grouped ? "noisy" : null, i));
				if (batch.size() == BATCH) {
					sender.sendAll(queue, batch);
					batch.clear();
				}
			}
			Set<Long> quiet = ConcurrentHashMap.newKeySet();
			Client quietSender = instances.get(instances.size() - 1);
			for (int tenant = 1; tenant <= TENANTS; tenant++) {
				for (int i = 0; i < QUIET_EACH; i++) {
					String group = grouped ? "tenant-" + tenant : null;
					quiet.add(quietSender.send(queue, message(group, i)));
				}
			}
			Delivered delivered = new Delivered(quiet);
			int total = backlog + TENANTS * QUIET_EACH;
			long deadline = System.nanoTime() + 60_000_000_000L;
			List<Thread> consumers = new ArrayList<>();
			for (int c = 0; c < CONSUMERS; c++) {
				Client through = instances.get(c % instances.size());
				Thread consumer = new Thread(() -> {
					while (delivered.count() < total && System.nanoTime() < deadline) {
						int receive = delivered.receives.getAndIncrement();
						List<Received> received = through.lease(queue, BATCH);
						int answeredBefore = delivered.answered.getAndAdd(received.size());
						List<MessageOperations.BatchEntry> done = new ArrayList<>();
						for (int i = 0; i < received.size(); i++) {
							Received one = received.get(i);
							delivered.add(one.id(), receive * BATCH + i + 1, answeredBefore + i + 1);

							done.add(new MessageOperations.BatchEntry(one.id(), LeaseTokens.token(one.lease())));
						}
						if (!done.isEmpty()) {
							through.completeAll(queue, done);
						}
					}
				});
				consumer.start();
				consumers.add(consumer);
			}
			for (Thread consumer : consumers) {
				consumer.join();
			}
			return delivered;
		}

	}

	/**
	 * What consumers were delivered, each id with two places in delivery order. By start:
	 * the receives are numbered as they start (a receive that releases held messages
	 * takes longer, and answers after receives that started later), and a message's place
	 * is its receive's number times {@value #BATCH}, plus its place in the receive; the
	 * upper bound reads it. By answer: messages counted as their receives return; the
	 * lower bound reads it, because a receive numbered early can wait for the queue's
	 * lock while others take the backlog (a non-fair lock lets them barge), so its start
	 * number says nothing about what was taken before it, while by answer at most
	 * {@value #CONSUMERS} - 1 receives running beside it are not yet counted.
	 */
	static final class Delivered {

		private final Set<Long> quiet;

		/** Receives numbered as they start. */
		final AtomicInteger receives = new AtomicInteger();

		/** Messages counted as their receives return. */
		final AtomicInteger answered = new AtomicInteger();

		private final Map<Long, Integer> placeOf = new ConcurrentHashMap<>();

		private final Map<Long, Integer> answeredAt = new ConcurrentHashMap<>();

		private final AtomicInteger duplicated = new AtomicInteger();

		Delivered(Set<Long> quiet) {
			this.quiet = quiet;
		}

		void add(long id, int placeByStart, int placeByAnswer) {
			if (this.placeOf.putIfAbsent(id, placeByStart) != null) {
				this.duplicated.incrementAndGet();
			}
			this.answeredAt.putIfAbsent(id, placeByAnswer);
		}

		int count() {
			return this.placeOf.size();
		}

		void assertExactlyOnce(int sent, boolean promised) {
			if (promised) {
				assertThat(this.duplicated).as("delivered twice").hasValue(0);
			}
			assertThat(sent - this.placeOf.size()).as("lost").isZero();
		}

		int lastQuietPosition() {
			return this.quiet.stream().mapToInt(this.placeOf::get).max().orElseThrow();
		}

		int firstQuietPosition() {
			return this.quiet.stream().mapToInt(this.answeredAt::get).min().orElseThrow();
		}

	}

}
