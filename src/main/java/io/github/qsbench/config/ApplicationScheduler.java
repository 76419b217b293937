package io.github.qsbench.config;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

/**
 * The application layer's one scheduler for its background work: long polls' timeouts and
 * wake-ups, retention sweeps. Two daemon threads, so that a long sweep does not hold up
 * the end of a wait; shut down with the context, what is still scheduled dropped. A bean
 * of its own type, not an {@code Executor}: Spring Boot backs its
 * {@code applicationTaskExecutor} off for any {@code Executor} bean.
 */
final class ApplicationScheduler implements DisposableBean {

	private final ScheduledThreadPoolExecutor executor;

	ApplicationScheduler() {
		CustomizableThreadFactory threads = new CustomizableThreadFactory("application-scheduler-");
		threads.setDaemon(true);
		this.executor = new ScheduledThreadPoolExecutor(2, threads);
		this.executor.setRemoveOnCancelPolicy(true);
	}

	ScheduledExecutorService executor() {
		return this.executor;
	}

	@Override
	public void destroy() {
		this.executor.shutdownNow();
	}

}
