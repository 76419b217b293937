package io.github.qsbench.application.queues;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;

/**
 * One pass of background work run again and again on a scheduler, a period after the
 * previous one ended, while started: the shape of the application's retention sweeps,
 * FIFO settlements and move-task steps, each a {@code SmartLifecycle} that starts and
 * stops one of these. A pass that fails is logged and the next one runs (an exception
 * would otherwise end the schedule).
 */
public final class PeriodicPass {

	private final ScheduledExecutorService scheduler;

	private final long periodMillis;

	private final Runnable pass;

	private final Logger logger;

	/** What a pass is, for the log: "A retention sweep". */
	private final String what;

	/** The passes while started, else {@code null}. */
	private volatile ScheduledFuture<?> passes;

	/**
	 * @param scheduler runs the passes
	 * @param period between the end of a pass and the start of the next, and before the
	 * first
	 * @param pass one pass
	 * @param logger the owner's, which logs a failed pass
	 * @param what what a pass is, as the failure's log names it
	 */
	public PeriodicPass(ScheduledExecutorService scheduler, Duration period, Runnable pass, Logger logger,
			String what) {
		this.scheduler = scheduler;
		this.periodMillis = period.toMillis();
		this.pass = pass;
		this.logger = logger;
		this.what = what;
	}

	public void start() {
		this.passes = this.scheduler.scheduleWithFixedDelay(this::passLogged, this.periodMillis, this.periodMillis,
				TimeUnit.MILLISECONDS);
	}

	/**
	 * Cancels the passes to come; one under way runs on.
	 * @return whether they were started
	 */
	public boolean stop() {
		ScheduledFuture<?> started = this.passes;
		if (started == null) {
			return false;
		}
		started.cancel(false);
		this.passes = null;
		return true;
	}

	/**
	 * Whether {@link #start} ran and {@link #stop} did not since: Spring starts a
	 * lifecycle bean only if it is not running.
	 */
	public boolean isRunning() {
		return this.passes != null;
	}

	private void passLogged() {
		try {
			this.pass.run();
		}
		catch (RuntimeException ex) {
			this.logger.error("{} failed", this.what, ex);
		}
	}

}
