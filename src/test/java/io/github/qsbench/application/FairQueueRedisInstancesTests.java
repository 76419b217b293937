package io.github.qsbench.application;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.qsbench.application.fair.FairQueues;
import io.github.qsbench.application.messages.AsyncMessageOperations;
import io.github.qsbench.application.messages.MessageOperations;
import io.github.qsbench.core.Eviction;
import io.github.qsbench.core.MutableClock;
import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.TestCores;
import io.github.qsbench.metrics.QueueMetrics;
import io.github.qsbench.redis.RedisExplicitQueues;
import io.github.qsbench.redis.RedisQS;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Fair queues ({@link FairQueues}) on two instances of the redis strategy sharing one
 * Redis: the groups are Redis's, so the backlog sent through one instance is held for
 * both, the quiet tenants' messages sent through the other come first, and consumers on
 * both release the held messages once. The workload and bound are
 * {@link FairQueueTests}'s, with SQS's 10,000.
 */
class FairQueueRedisInstancesTests {

	/** A backlog large enough that most of it is held, and released by leases. */
	private static final int BACKLOG = 1_000;

	private final MutableClock clock = new MutableClock();

	private final List<AutoCloseable> made = new ArrayList<>();

	@AfterEach
	void close() throws Exception {
		for (AutoCloseable one : this.made) {
			one.close();
		}
	}

	private TestOperations instance(String namespace) {
		QueueOptions options = new QueueOptions(OperationsPerStrategy.LEASE, Eviction.LAZY, this.clock, true);
		RedisQS core = TestCores.redis(options, namespace);
		RedisExplicitQueues explicit = core.store().explicitQueues();
		TestOperations operations = TestOperations.of(core, explicit, core.store().fifoGroups(core),
				new QueueMetrics(new SimpleMeterRegistry(), core), OperationsPerStrategy.LEASE, this.clock,
				Limits.MAX_MESSAGE_BYTES);
		this.made.add(operations);
		this.made.add(explicit);
		this.made.add(core);
		return operations;
	}

	@Test
	void twoInstances_noisyBacklogThroughOne_quietTenantsThroughOther_firstForBoth() throws InterruptedException {
		String namespace = TestCores.newNamespace();
		TestOperations one = instance(namespace);
		TestOperations other = instance(namespace);

		FairQueueTests.Delivered delivered = FairQueueTests.Workload.run(List
			.of(FairQueueTests.Client.blocking(one.messages()), FairQueueTests.Client.blocking(other.messages())),
				"fair", FairQueueTests.FULL_BACKLOG, true);

		delivered.assertExactlyOnce(FairQueueTests.FULL_BACKLOG + FairQueueTests.TENANTS * FairQueueTests.QUIET_EACH,
				true);
		assertThat(delivered.lastQuietPosition()).isLessThanOrEqualTo(FairQueueTests.BOUND);
		assertThat(other.queues().quietCounts("fair").noisyGroups()).as("every message left").isZero();
	}

	/**
	 * The same workload through the calls that do not wait for Redis (the REST fast
	 * path's: {@link AsyncMessageOperations}), on a core that has them: the same rule,
	 * nothing lost or delivered twice, with every call made without waiting but each
	 * instance's first grouped push, which the blocking call makes and so learns the
	 * queue. A lease that finds fewer than it asks for releases held messages, chained on
	 * Lettuce's thread; without that the consumers would find nothing once the quiet
	 * messages were gone, and the backlog would be lost to the time limit.
	 */
	@Test
	void twoInstances_throughTheCallsThatDoNotWait_sameRule_onlyTheFirstGroupedPushWaits() throws InterruptedException {
		String namespace = TestCores.newNamespace();
		NotWaiting one = new NotWaiting(instance(namespace).messages());
		NotWaiting other = new NotWaiting(instance(namespace).messages());

		FairQueueTests.Delivered delivered = FairQueueTests.Workload.run(List.of(one, other), "fair", BACKLOG, true);

		delivered.assertExactlyOnce(BACKLOG + FairQueueTests.TENANTS * FairQueueTests.QUIET_EACH, true);
		assertThat(delivered.lastQuietPosition()).isLessThanOrEqualTo(FairQueueTests.BOUND);
		assertThat(one.waited.get() + other.waited.get()).as("calls made by the blocking methods").isEqualTo(2);
	}

	/**
	 * A client of {@link AsyncMessageOperations}, as the REST fast path calls it: a call
	 * the asynchronous path does not take is made by the blocking method, and counted.
	 */
	private static final class NotWaiting implements FairQueueTests.Client {

		private final MessageOperations messages;

		private final AsyncMessageOperations async;

		final AtomicInteger waited = new AtomicInteger();

		NotWaiting(MessageOperations messages) {
			this.messages = messages;
			this.async = messages.async();
		}

		@Override
		public void sendAll(String queue, List<OutgoingMessage> batch) {
			CompletableFuture<List<Sent>> sent = this.async.answers(queue) ? this.async.sendAll(queue, batch) : null;
			if (sent != null) {
				sent.join();
			}
			else {
				this.waited.incrementAndGet();
				this.messages.sendAll(queue, batch, null);
			}
		}

		@Override
		public long send(String queue, OutgoingMessage message) {
			CompletableFuture<List<Sent>> sent = this.async.answers(queue) ? this.async.sendAll(queue, List.of(message))
					: null;
			if (sent != null) {
				return sent.join().get(0).id();
			}
			this.waited.incrementAndGet();
			return this.messages.send(queue, message, null).id();
		}

		@Override
		public List<Received> lease(String queue, int max) {
			if (!this.async.answers(queue)) {
				this.waited.incrementAndGet();
				return this.messages.lease(queue, max);
			}
			return this.async.lease(queue, max, Duration.ZERO, null).join();
		}

		@Override
		public void completeAll(String queue, List<MessageOperations.BatchEntry> entries) {
			if (!this.async.answers(queue)) {
				this.waited.incrementAndGet();
				this.messages.completeAll(queue, entries);
				return;
			}
			this.async.completeAll(queue, entries).join();
		}

	}

}
