package io.github.qsbench.application;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import io.github.qsbench.core.Eviction;
import io.github.qsbench.core.TestCores;
import io.github.qsbench.core.MutableClock;
import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.QueueServiceCore;
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
abstract class OperationsPerStrategy {

	static final Duration LEASE = Duration.ofSeconds(30);

	@Parameter
	Strategy strategy;

	final MutableClock clock = new MutableClock();

	final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	/** The namespace of the redis strategy's keys; another instance shares it. */
	final String namespace = TestCores.newNamespace();

	Stores stores;

	QueueServiceCore core;

	ExplicitQueues explicit;

	QueueOperations operations;

	Retention retention;

	@BeforeEach
	void create() {
		this.stores = TestCores.stores(this.strategy, new QueueOptions(LEASE, Eviction.LAZY, this.clock, true),
				this.namespace);
		this.core = this.stores.core();
		this.explicit = this.stores.explicitQueues();
		QueueServiceCore timed = new CoreTimedQueueService(this.core, this.registry);
		QueueMetrics metrics = new QueueMetrics(this.registry, this.core);
		this.operations = new QueueOperations(timed, this.explicit, this.stores.fifoGroups(), metrics, LEASE,
				this.clock, Limits.MAX_MESSAGE_BYTES);
		this.retention = new Retention(timed, this.explicit, metrics, this.clock, this.operations.departures());
	}

	@AfterEach
	void close() throws Exception {
		this.operations.destroy();
		this.retention.destroy();
		if (this.explicit instanceof AutoCloseable kept) {
			kept.close();
		}
		this.core.close();
	}

	static byte[] utf8(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
