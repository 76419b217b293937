package io.github.qsbench.application;

import java.time.Duration;
import java.time.InstantSource;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;

import io.github.qsbench.application.fair.FairQueues;
import io.github.qsbench.application.fifo.FifoGroups;
import io.github.qsbench.application.fifo.FifoOperations;
import io.github.qsbench.application.messages.LongPolls;
import io.github.qsbench.application.messages.MessageOperations;
import io.github.qsbench.application.queues.DeadLetters;
import io.github.qsbench.application.queues.ExplicitQueues;
import io.github.qsbench.application.queues.QueueOperations;
import io.github.qsbench.application.queues.Retention;
import io.github.qsbench.application.queues.Settings;
import io.github.qsbench.core.QueueServiceCore;

/**
 * The application layer on one core, wired as {@code config.ApplicationConfiguration}
 * wires it, for tests without Spring: its two facades, its long polls and the scheduler
 * they share, which {@link #close} shuts down.
 */
public record TestOperations(MessageOperations messages, QueueOperations queues, LongPolls longPolls,
		ScheduledExecutorService scheduler) implements AutoCloseable {

	public static TestOperations of(QueueServiceCore core, ExplicitQueues explicit, FifoGroups fifoGroups,
			QueueEvents events, Duration leaseTimeout, InstantSource clock, int maxMessageBytes) {
		ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(2, runnable -> {
			Thread thread = new Thread(runnable, "test-application-scheduler");
			thread.setDaemon(true);
			return thread;
		});
		scheduler.setRemoveOnCancelPolicy(true);
		Settings settings = new Settings(explicit, leaseTimeout, maxMessageBytes, clock);
		LongPolls longPolls = new LongPolls(core, scheduler);
		FairQueues fair = new FairQueues(core, fifoGroups.fair(), clock, events, Runnable::run);
		FifoOperations fifo = new FifoOperations(core, fifoGroups, clock, settings, events, longPolls);
		DeadLetters deadLetters = new DeadLetters(core, explicit, events, longPolls, fifo, fair);
		return new TestOperations(
				new MessageOperations(core, events, clock, maxMessageBytes, settings, longPolls, deadLetters, fifo,
						fair),
				new QueueOperations(core, explicit, events, settings, deadLetters, fifo, fair), longPolls, scheduler);
	}

	/** Retention on the same core, sweeping on the shared scheduler once started. */
	public Retention retention(QueueServiceCore core, ExplicitQueues explicit, QueueEvents events,
			InstantSource clock) {
		return new Retention(core, explicit, events, clock, this.queues.departures(), this.scheduler);
	}

	@Override
	public void close() {
		this.scheduler.shutdownNow();
	}

}
