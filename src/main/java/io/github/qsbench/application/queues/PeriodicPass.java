package io.github.qsbench.application.queues;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;

/**
 * One pass of background work run again and again on a scheduler, a period after the
 * previous one ended, while started: the shape of the application's retention sweeps,
 * FIFO settlements, move-task steps and the redis strategy's gauges, each started and
 * stopped with its owner. A pass that fails is logged and the next one runs (an exception
 * would otherwise end the schedule).
 * <p>
 * A pass whose work grows with the queues (one round trip or more per queue on Redis) may
 * be given a rest per pass: after a pass that took longer than a period's share, the next
 * waits that many times as long as it took, so that the passes take at most
 * {@code 1 / (1 + rest)} of their thread's time however many queues there are, and run
 * less often.
 */
public final class PeriodicPass {

	/** The rest per pass that keeps passes to a tenth of their thread's time. */
	public static final int A_TENTH = 9;

	private final ScheduledExecutorService scheduler;

	private final long periodMillis;

	/** Times a pass's own time the next one waits at the least; 0: a period. */
	private final int restPerPass;

	private final Runnable pass;

	private final Logger logger;

	/** What a pass is, for the log: "A retention sweep". */
	private final String what;

	/** Whether started and not stopped since; guarded by this. */
	private boolean running;

	/**
	 * Which start the passes belong to, so that a pass under way when its passes were
	 * stopped and started again does not schedule a second chain; guarded by this.
	 */
	private long chain;

	/** The next pass while running, else {@code null}; guarded by this. */
	private ScheduledFuture<?> next;

	/**
	 * Passes a period apart.
	 * @param scheduler runs the passes
	 * @param period between the end of a pass and the start of the next, and before the
	 * first
	 * @param pass one pass
	 * @param logger the owner's, which logs a failed pass
	 * @param what what a pass is, as the failure's log names it
	 */
	public PeriodicPass(ScheduledExecutorService scheduler, Duration period, Runnable pass, Logger logger,
			String what) {
		this(scheduler, period, 0, pass, logger, what);
	}

	/**
	 * Passes a period apart, or {@code restPerPass} times a pass's own time if that is
	 * longer.
	 */
	public PeriodicPass(ScheduledExecutorService scheduler, Duration period, int restPerPass, Runnable pass,
			Logger logger, String what) {
		this.scheduler = scheduler;
		this.periodMillis = period.toMillis();
		this.restPerPass = restPerPass;
		this.pass = pass;
		this.logger = logger;
		this.what = what;
	}

	public synchronized void start() {
		this.running = true;
		this.chain++;
		schedule(this.chain, this.periodMillis);
	}

	/**
	 * Cancels the passes to come; one under way runs on.
	 * @return whether they were started
	 */
	public synchronized boolean stop() {
		if (!this.running) {
			return false;
		}
		this.running = false;
		if (this.next != null) {
			this.next.cancel(false);
			this.next = null;
		}
		return true;
	}

	/**
	 * Whether {@link #start} ran and {@link #stop} did not since: Spring starts a
	 * lifecycle bean only if it is not running.
	 */
	public synchronized boolean isRunning() {
		return this.running;
	}

	/** The wait after a pass that took {@code passMillis}. */
	static long restMillis(long periodMillis, int restPerPass, long passMillis) {
		return Math.max(periodMillis, restPerPass * passMillis);
	}

	private synchronized void schedule(long chain, long delayMillis) {
		if (!this.running || chain != this.chain) {
			return;
		}
		try {
			this.next = this.scheduler.schedule(() -> passThenNext(chain), delayMillis, TimeUnit.MILLISECONDS);
		}
		catch (RejectedExecutionException ex) {
			// the scheduler was shut down: no passes to come
			this.running = false;
			this.next = null;
		}
	}

	private void passThenNext(long chain) {
		long start = System.nanoTime();
		try {
			this.pass.run();
		}
		catch (RuntimeException ex) {
			this.logger.error("{} failed", this.what, ex);
		}
		schedule(chain, restMillis(this.periodMillis, this.restPerPass,
				TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)));
	}

}
