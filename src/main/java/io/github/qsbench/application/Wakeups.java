package io.github.qsbench.application;

import java.time.Duration;

/**
 * What a push, a move or a released message tells the long polls waiting on a queue
 * (implemented by {@code messages.LongPolls}), so that the rooms below the message path
 * wake them without knowing them.
 */
public interface Wakeups {

	/** Messages became ready in the queue now: its waiters lease them. */
	void pushed(String queue);

	/**
	 * As {@link #pushed}, on another thread: for a push made while leasing for a waiter,
	 * whose lock must not be held while other waiters are woken.
	 */
	void pushedLater(String queue);

	/** Messages of the queue become ready after {@code delay}. */
	void dueIn(String queue, Duration delay);

	/** Runs {@code task} after {@code delayMillis}, then wakes the queue's waiters. */
	void after(String queue, long delayMillis, Runnable task);

}
