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
