package io.github.qsbench.config;

import java.time.InstantSource;

import io.github.qsbench.application.ExplicitQueues;
import io.github.qsbench.application.FifoGroups;
import io.github.qsbench.application.MessageMoveTasks;
import io.github.qsbench.application.QueueEvents;
import io.github.qsbench.application.QueueOperations;
import io.github.qsbench.application.Retention;
import io.github.qsbench.application.Stores;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.metrics.CoreTimeProperties;
import io.github.qsbench.metrics.CoreTimedQueueService;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * The application layer on the active strategy: its queue operations, its retention
 * sweeps and its message move tasks, all calling the core through the timing decorator,
 * and reporting to the service's meters ({@link QueueEvents}).
 */
@Configuration(proxyBeanMethods = false)
class ApplicationConfiguration {

	/**
	 * The core as the application layer calls it: the strategy, timed ({@code qs.core})
	 * unless {@code qs.metrics.core-time.enabled=false}. Injected only where asked for by
	 * name, so whatever else reads the strategy (its gauges, its info) gets the strategy
	 * itself; the strategy bean closes it.
	 */
	@Bean(defaultCandidate = false, destroyMethod = "")
	QueueServiceCore applicationCore(QueueServiceCore strategy, CoreTimeProperties coreTime, MeterRegistry registry) {
		return coreTime.enabled() ? new CoreTimedQueueService(strategy, registry) : strategy;
	}

	@Bean
	QueueOperations queueOperations(@Qualifier("applicationCore") QueueServiceCore core, ExplicitQueues explicit,
			FifoGroups fifoGroups, QueueEvents events, QueueServiceProperties properties, InstantSource clock) {
		return new QueueOperations(core, explicit, fifoGroups, events, properties.leaseTimeout(), clock,
				(int) properties.maxMessageSize().toBytes());
	}

	@Bean
	Retention retention(@Qualifier("applicationCore") QueueServiceCore core, ExplicitQueues explicit,
			QueueEvents events, InstantSource clock, QueueOperations operations) {
		return new Retention(core, explicit, events, clock, operations.departures());
	}

	@Bean
	MessageMoveTasks messageMoveTasks(QueueOperations operations, @Qualifier("applicationCore") QueueServiceCore core,
			QueueEvents events, InstantSource clock, Stores stores) {
		return new MessageMoveTasks(operations, core, events, clock, stores.moveTasks());
	}

}
