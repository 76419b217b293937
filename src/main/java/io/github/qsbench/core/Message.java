package io.github.qsbench.core;

/**
 * A message as its producer and consumers see it.
 *
 * <p>
 * {@link #deliveries()} is read without the strategy's guard: read right after a poll it
 * is this delivery's number, unless the lease has already expired and another consumer
 * grabbed it since (a benign race; the count only grows).
 */
public interface Message {

	/**
	 * Unique within one queue service, starting at 1; a push that starts after another
	 * ends gets a larger id (overlapping pushes may be queued in the other order).
	 */
	long id();

	String queue();

	String body();

	/** How many times the message has been handed to a consumer so far. */
	int deliveries();

}
