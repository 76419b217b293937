package io.github.qsbench.application;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import io.github.qsbench.application.messages.LongPolls;
import io.github.qsbench.application.messages.MessageOperations;
import io.github.qsbench.application.queues.ExplicitQueues;
import io.github.qsbench.application.queues.QueueOperations;
import io.github.qsbench.application.queues.Retention;
import io.github.qsbench.application.stores.Stores;
import io.github.qsbench.core.Eviction;
import io.github.qsbench.core.MutableClock;
import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.TestCores;
import io.github.qsbench.core.strategy.Strategy;
import io.github.qsbench.metrics.CoreTimedQueueService;
import io.github.qsbench.metrics.QueueMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.Parameter;

/**
 * What the application layer builds on one strategy, made afresh for each test: the core
 * (lazy eviction, a lease of {@link #LEASE}, time from {@link #clock}), its meters, its
 * explicit queues (in Redis for the redis strategy, as the service keeps them), and the
 * queue operations and retention sweeps on it, timed and metered as the service wires
 * them. A subclass runs once per strategy with
 * {@code @ParameterizedClass @EnumSource(Strategy.class)}.
 */
public abstract class OperationsPerStrategy {

	protected static final Duration LEASE = Duration.ofSeconds(30);

	@Parameter
	protected Strategy strategy;

	protected final MutableClock clock = new MutableClock();

	protected final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	/** The namespace of the redis strategy's keys; another instance shares it. */
	protected final String namespace = TestCores.newNamespace();

	protected Stores stores;

	protected QueueServiceCore core;

	protected ExplicitQueues explicit;

	protected MessageOperations messages;

	protected QueueOperations operations;

	protected Retention retention;

	protected LongPolls longPolls;

	private TestOperations made;

	@BeforeEach
	protected void create() {
		this.stores = TestCores.stores(this.strategy, new QueueOptions(LEASE, Eviction.LAZY, this.clock, true),
				this.namespace);
		this.core = this.stores.core();
		this.explicit = this.stores.explicitQueues();
		QueueServiceCore timed = new CoreTimedQueueService(this.core, this.registry);
		QueueMetrics metrics = new QueueMetrics(this.registry, this.core);
		this.made = TestOperations.of(timed, this.explicit, this.stores.fifoGroups(), metrics, LEASE, this.clock,
				Limits.MAX_MESSAGE_BYTES);
		this.messages = this.made.messages();
		this.operations = this.made.queues();
		this.longPolls = this.made.longPolls();
		this.retention = this.made.retention(timed, this.explicit, metrics, this.clock);
	}

	@AfterEach
	protected void close() throws Exception {
		this.made.close();
		if (this.explicit instanceof AutoCloseable kept) {
			kept.close();
		}
		this.core.close();
	}

	protected static byte[] utf8(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
