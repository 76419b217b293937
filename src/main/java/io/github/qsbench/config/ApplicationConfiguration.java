package io.github.qsbench.config;

import java.time.InstantSource;

import io.github.qsbench.application.QueueEvents;
import io.github.qsbench.application.fair.FairQueues;
import io.github.qsbench.application.fifo.FifoGroups;
import io.github.qsbench.application.fifo.FifoOperations;
import io.github.qsbench.application.fifo.FifoSettlement;
import io.github.qsbench.application.messages.LongPolls;
import io.github.qsbench.application.messages.MessageOperations;
import io.github.qsbench.application.queues.DeadLetters;
import io.github.qsbench.application.queues.ExplicitQueues;
import io.github.qsbench.application.queues.MessageMoveTasks;
import io.github.qsbench.application.queues.QueueOperations;
import io.github.qsbench.application.queues.Retention;
import io.github.qsbench.application.queues.Settings;
import io.github.qsbench.application.stores.Stores;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.metrics.CoreTimeProperties;
import io.github.qsbench.metrics.CoreTimedQueueService;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * The application layer on the active strategy, room by room: the queues' settings, the
 * fair and FIFO queues' groups, dead letters, the long polls, the message path
 * ({@link MessageOperations}) and the operations on queues as wholes
 * ({@link QueueOperations}), the retention sweeps, the settlement of FIFO sends cut by an
 * instance's death and the message move tasks; all call the core through the timing
 * decorator and report to the service's meters ({@link QueueEvents}). The long polls, the
 * retention sweeps and the settlements share one scheduler.
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
	ApplicationScheduler applicationScheduler() {
		return new ApplicationScheduler();
	}

	@Bean
	Settings settings(ExplicitQueues explicit, QueueServiceProperties properties, InstantSource clock) {
		return new Settings(explicit, properties.leaseTimeout(), (int) properties.maxMessageSize().toBytes(), clock);
	}

	@Bean
	LongPolls longPolls(@Qualifier("applicationCore") QueueServiceCore core, ApplicationScheduler scheduler) {
		return new LongPolls(core, scheduler.executor());
	}

	@Bean
	FairQueues fairQueues(@Qualifier("applicationCore") QueueServiceCore core, FifoGroups fifoGroups,
			InstantSource clock, QueueEvents events, ApplicationScheduler scheduler) {
		return new FairQueues(core, fifoGroups.fair(), clock, events, scheduler.executor());
	}

	@Bean
	FifoOperations fifoOperations(@Qualifier("applicationCore") QueueServiceCore core, FifoGroups fifoGroups,
			InstantSource clock, Settings settings, QueueEvents events, LongPolls longPolls) {
		return new FifoOperations(core, fifoGroups, clock, settings, events, longPolls);
	}

	@Bean
	DeadLetters deadLetters(@Qualifier("applicationCore") QueueServiceCore core, ExplicitQueues explicit,
			QueueEvents events, LongPolls longPolls, FifoOperations fifo, FairQueues fair) {
		return new DeadLetters(core, explicit, events, longPolls, fifo, fair);
	}

	@Bean
	MessageOperations messageOperations(@Qualifier("applicationCore") QueueServiceCore core, QueueEvents events,
			InstantSource clock, QueueServiceProperties properties, Settings settings, LongPolls longPolls,
			DeadLetters deadLetters, FifoOperations fifo, FairQueues fair) {
		return new MessageOperations(core, events, clock, (int) properties.maxMessageSize().toBytes(), settings,
				longPolls, deadLetters, fifo, fair);
	}

	@Bean
	QueueOperations queueOperations(@Qualifier("applicationCore") QueueServiceCore core, ExplicitQueues explicit,
			QueueEvents events, Settings settings, DeadLetters deadLetters, FifoOperations fifo, FairQueues fair) {
		return new QueueOperations(core, explicit, events, settings, deadLetters, fifo, fair);
	}

	@Bean
	Retention retention(@Qualifier("applicationCore") QueueServiceCore core, ExplicitQueues explicit,
			QueueEvents events, InstantSource clock, QueueOperations operations, ApplicationScheduler scheduler) {
		return new Retention(core, explicit, events, clock, operations.departures(), scheduler.executor());
	}

	@Bean
	FifoSettlement fifoSettlement(@Qualifier("applicationCore") QueueServiceCore core, FifoGroups fifoGroups,
			ExplicitQueues explicit, InstantSource clock, ApplicationScheduler scheduler) {
		return new FifoSettlement(core, fifoGroups, explicit, clock, scheduler.executor());
	}

	@Bean
	MessageMoveTasks messageMoveTasks(QueueOperations operations, @Qualifier("applicationCore") QueueServiceCore core,
			QueueEvents events, InstantSource clock, Stores stores) {
		return new MessageMoveTasks(operations, core, events, clock, stores.moveTasks());
	}

}
