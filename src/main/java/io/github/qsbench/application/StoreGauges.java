package io.github.qsbench.application;

import io.github.qsbench.core.QueueServiceView;

/**
 * The counts the service's gauges show, as the store keeps them: the core's own counts in
 * process (lock-free reads), or for Redis a snapshot its store keeps current, so that a
 * scrape runs no script per queue and writes nothing. Handed out by the store the
 * configuration chose ({@code Stores#gauges} in {@code application.stores}).
 */
public interface StoreGauges {

	/** Messages held, in every queue. */
	long heldCount();

	/** Queues that exist. */
	int queueCount();

	/**
	 * Where a fair queue's gauges read its counts: {@code counts} itself in process; for
	 * Redis the store's snapshot, which its own thread renews from {@code counts} with
	 * the other counts, so a scrape reads no queue from Redis. Until
	 * {@link #fairQueueGone}.
	 */
	default java.util.function.Supplier<QuietCounts> fairQueue(String queue,
			java.util.function.Supplier<QuietCounts> counts) {
		return counts;
	}

	/** The fair queue's gauges are gone: its counts are read no more. */
	default void fairQueueGone(String queue) {
	}

	/** The core's own counts, read at each call. */
	static StoreGauges of(QueueServiceView core) {
		return new StoreGauges() {

			@Override
			public long heldCount() {
				return core.heldCount();
			}

			@Override
			public int queueCount() {
				return core.queueCount();
			}

		};
	}

}
