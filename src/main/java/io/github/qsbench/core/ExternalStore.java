package io.github.qsbench.core;

/**
 * A store outside this process that keeps a strategy's queues (Redis), as the core sees
 * it: something that opens a {@link QueueServiceCore} on itself. The core knows no more
 * of it, so it depends on no store's client; the store's adapter implements this.
 */
@FunctionalInterface
public interface ExternalStore {

	/** The strategy kept in this store, built with those options. */
	QueueServiceCore open(QueueOptions options);

}
