package io.github.qsbench.application.messages;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.github.qsbench.application.Limits;
import io.github.qsbench.application.Wakeups;
import io.github.qsbench.core.Lease;
import io.github.qsbench.core.QueueServiceCore;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.web.server.context.WebServerGracefulShutdownLifecycle;
import org.springframework.context.SmartLifecycle;

/**
 * Long polls waiting for a message, by queue name. Kept in the application layer: the
 * core, what JMH measures, knows nothing of waiting. {@link MessageOperations} registers
 * waiters; pushes, FIFO releases and dead-letter moves wake them ({@link Wakeups}); its
 * timer is the application's one scheduler, shared with the retention sweeps.
 * <p>
 * A waiter holds no thread: its request is in Servlet async mode, and whichever thread
 * finds it a message answers it: the push that made one ready ({@link #pushed}), its own
 * request thread if one was ready already, or the timer when its wait ends.
 * <p>
 * No lost wake-up: a waiter is registered before it polls, and stays registered until it
 * is answered; a push signals after the core accepted its messages. So either the push's
 * signal finds the waiter, or the waiter registered after the push and its own poll sees
 * the message.
 * <p>
 * No message leased to nobody: messages are leased for a waiter only under the waiter's
 * own monitor while it is unanswered, and the same step marks it answered, so no other
 * thread (a second push, the timer, shutdown) can answer it in between.
 * <p>
 * Bounded memory: a waiter leaves the registry when it is answered, and a queue's entry
 * leaves with its last waiter. How many wait at once is bounded by the connections Jetty
 * accepts ({@code server.jetty.max-connections}, 4,096 in this service).
 */
public final class LongPolls implements Wakeups, SmartLifecycle {

	private static final Logger logger = LoggerFactory.getLogger(LongPolls.class);

	private static final long DUE_SLOT_MILLIS = 100;

	private static final long DUE_SLOT_NANOS = TimeUnit.MILLISECONDS.toNanos(DUE_SLOT_MILLIS);

	/** Wake-ups scheduled for delayed messages ({@link #dueIn}). */
	private final Set<Wake> wakes = ConcurrentHashMap.newKeySet();

	private final ConcurrentHashMap<String, Queue<Waiter>> waiting = new ConcurrentHashMap<>();

	private final QueueServiceCore core;

	private final ScheduledExecutorService timer;

	/** From construction on: the web server may take requests before this is started. */
	private volatile boolean running = true;

	/** Whether {@link #start} ran and {@link #stop} did not since. */
	private volatile boolean started;

	/**
	 * @param core the core whose pushes by other instances sharing its store wake waiters
	 * @param timer the application's scheduler: ends waits, wakes waiters later
	 */
	public LongPolls(QueueServiceCore core, ScheduledExecutorService timer) {
		this.core = core;
		this.timer = timer;
	}

	/**
	 * Answers the waiter at once if a message is ready or {@code wait} is zero, else as
	 * soon as a push makes one ready, else when {@code wait} ends (polling once more
	 * then, which finds messages whose lease lapsed meanwhile).
	 */
	void await(Waiter waiter, Duration wait) {
		if (wait.isZero() || !this.running) {
			attempt(waiter, true);
			return;
		}
		try {
			waiter.timeout = this.timer.schedule(() -> attempt(waiter, true), wait.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (RejectedExecutionException shuttingDown) {
			attempt(waiter, true);
			return;
		}
		register(waiter);
		if (attempt(waiter, false) < 0) {
			// answered already, maybe before it was registered (by its timer, or on
			// shutdown): not to be left behind in the registry
			deregister(waiter);
		}
		if (!this.running) {
			// shutdown began and may have answered the registered waiters before this one
			close(waiter);
		}
	}

	/**
	 * Wakes the queue's waiters, oldest first, while each finds something: called after
	 * the core accepted a push. A waiter that finds nothing (another consumer was faster)
	 * keeps waiting, and ends the wake-up: nothing was ready then, so no other waiter
	 * would find anything either.
	 */
	@Override
	public void pushed(String queue) {
		Queue<Waiter> waiters = this.waiting.get(queue);
		if (waiters == null) {
			return;
		}
		for (Waiter waiter : waiters) {
			if (attempt(waiter, false) == 0) {
				return;
			}
		}
	}

	/**
	 * {@link #pushed}, on the timer's thread: for a push made while leasing for a waiter
	 * (a dead letter's move), whose lock must not be held while other waiters are woken
	 * (two queues that are each other's dead-letter queues would take two waiters' locks
	 * in opposite orders).
	 */
	@Override
	public void pushedLater(String queue) {
		if (!this.waiting.containsKey(queue)) {
			return;
		}
		try {
			this.timer.execute(() -> pushed(queue));
		}
		catch (RejectedExecutionException shuttingDown) {
			// every waiter is answered on shutdown
		}
	}

	/**
	 * Wakes the waiters on a queue that another instance pushed to (a store shared by
	 * instances, {@link io.github.qsbench.core.QueueServiceCore#onPushes}), on the
	 * timer's thread: the store's listener thread must not lease.
	 */
	void pushedElsewhere(String queue, long delayMillis) {
		if (delayMillis == 0) {
			pushedLater(queue);
		}
		else if (delayMillis > TimeUnit.SECONDS.toMillis(Limits.MAX_DELAY_SECONDS)) {
			// held, not delayed (a FIFO message behind its group's head): its release
			// announces it
		}
		else {
			dueIn(queue, Duration.ofMillis(delayMillis));
		}
	}

	/**
	 * {@link #pushed} once a delay has passed, for a push of delayed messages: a waiter
	 * that comes after the push is woken when they are due. Wake-ups are rounded up to
	 * {@value #DUE_SLOT_MILLIS} ms and made once per queue and slot, so many delayed
	 * pushes keep a timer entry per slot, not per message.
	 */
	@Override
	public void dueIn(String queue, Duration delay) {
		long slot = Math.floorDiv(System.nanoTime() + delay.toNanos(), DUE_SLOT_NANOS) + 1;
		Wake wake = new Wake(queue, slot);
		if (!this.wakes.add(wake)) {
			return;
		}
		try {
			this.timer.schedule(() -> {
				this.wakes.remove(wake);
				pushed(queue);
			}, slot * DUE_SLOT_NANOS - System.nanoTime(), TimeUnit.NANOSECONDS);
		}
		catch (RejectedExecutionException shuttingDown) {
			this.wakes.remove(wake);
		}
	}

	/**
	 * Runs {@code task} on the timer's thread after {@code delayMillis}, then wakes the
	 * queue's waiters; nothing if the timer has stopped.
	 */
	@Override
	public void after(String queue, long delayMillis, Runnable task) {
		try {
			this.timer.schedule(() -> {
				task.run();
				pushed(queue);
			}, delayMillis, TimeUnit.MILLISECONDS);
		}
		catch (RejectedExecutionException shuttingDown) {
			// stopping: the message stays held, as every held message does across a stop
		}
	}

	/** A wake-up of a queue's waiters at the end of a slot of time ({@link #dueIn}). */
	private record Wake(String queue, long slot) {
	}

	/**
	 * Answers the waiter with nothing, unless it was answered already.
	 * @return whether this answered it
	 */
	boolean close(Waiter waiter) {
		synchronized (waiter) {
			if (waiter.answered) {
				return false;
			}
			waiter.answered = true;
		}
		answer(waiter, List.of());
		return true;
	}

	/** Waiters registered now, by queue; a queue nobody waits on has no entry. */
	public Map<String, Integer> waiting() {
		Map<String, Integer> waiting = new HashMap<>();
		this.waiting.forEach((queue, waiters) -> waiting.put(queue, waiters.size()));
		return waiting;
	}

	/**
	 * Leases for the waiter, unless it was answered already, and answers it if that found
	 * messages, or with nothing if this is its {@code last} chance.
	 * @return the number of messages leased, or -1 if the waiter was answered before
	 */
	private int attempt(Waiter waiter, boolean last) {
		List<Lease> leases;
		synchronized (waiter) {
			if (waiter.answered) {
				return -1;
			}
			leases = waiter.lease.get();
			if (leases.isEmpty() && !last) {
				return 0;
			}
			waiter.answered = true;
		}
		answer(waiter, leases);
		return leases.size();
	}

	private void answer(Waiter waiter, List<Lease> leases) {
		deregister(waiter);
		ScheduledFuture<?> timeout = waiter.timeout;
		if (timeout != null) {
			timeout.cancel(false);
		}
		waiter.answer.accept(leases);
	}

	private void register(Waiter waiter) {
		this.waiting.compute(waiter.queue, (queue, waiters) -> {
			Queue<Waiter> registered = (waiters != null) ? waiters : new ConcurrentLinkedQueue<>();
			registered.add(waiter);
			return registered;
		});
	}

	private void deregister(Waiter waiter) {
		this.waiting.computeIfPresent(waiter.queue, (queue, waiters) -> {
			waiters.remove(waiter);
			return waiters.isEmpty() ? null : waiters;
		});
	}

	/** Starts waking long polls on pushes by other instances sharing the store. */
	@Override
	public void start() {
		this.running = true;
		this.core.onPushes(this::pushedElsewhere);
		this.started = true;
	}

	/**
	 * Answers every waiter with nothing, so graceful shutdown, which waits for requests
	 * in progress, is not held up for a whole wait. Requests that arrive from now on poll
	 * once and do not wait.
	 */
	@Override
	public void stop() {
		this.running = false;
		this.started = false;
		int answered = 0;
		for (Queue<Waiter> waiters : this.waiting.values()) {
			for (Waiter waiter : waiters) {
				if (close(waiter)) {
					answered++;
				}
			}
		}
		if (answered > 0) {
			logger.info("Answered {} waiting long polls with 204 on shutdown", answered);
		}
	}

	/**
	 * Whether {@link #start} ran and {@link #stop} did not since: Spring starts a
	 * lifecycle bean only if it is not running.
	 */
	@Override
	public boolean isRunning() {
		return this.started;
	}

	/**
	 * Before the web server's graceful shutdown, which would wait for the waiters, and
	 * before the web layer waits for the answers to be written.
	 */
	@Override
	public int getPhase() {
		return WebServerGracefulShutdownLifecycle.SMART_LIFECYCLE_PHASE + 2;
	}

	/**
	 * One long poll: the queue, how to lease for it, and how to answer it (an empty list:
	 * nothing was found).
	 */
	static final class Waiter {

		private final String queue;

		private final Supplier<List<Lease>> lease;

		private final Consumer<List<Lease>> answer;

		/** Guarded by this waiter's monitor. */
		private boolean answered;

		private volatile ScheduledFuture<?> timeout;

		Waiter(String queue, Supplier<List<Lease>> lease, Consumer<List<Lease>> answer) {
			this.queue = queue;
			this.lease = lease;
			this.answer = answer;
		}

	}

}
