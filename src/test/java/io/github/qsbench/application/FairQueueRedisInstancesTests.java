package io.github.qsbench.application;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import io.github.qsbench.application.fair.FairQueues;
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

		FairQueueTests.Delivered delivered = FairQueueTests.Workload.run(List.of(one.messages(), other.messages()),
				"fair", FairQueueTests.FULL_BACKLOG, true);

		delivered.assertExactlyOnce(FairQueueTests.FULL_BACKLOG + FairQueueTests.TENANTS * FairQueueTests.QUIET_EACH,
				true);
		assertThat(delivered.lastQuietPosition()).isLessThanOrEqualTo(FairQueueTests.BOUND);
		assertThat(other.queues().quietCounts("fair").noisyGroups()).as("every message left").isZero();
	}

}
