package io.github.qsbench.core;

import java.nio.charset.StandardCharsets;

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

	/**
	 * The body as its UTF-8 bytes: the array the message holds, not a copy, so callers
	 * must not change it.
	 */
	byte[] body();

	/** The body decoded from UTF-8: a new string per call. */
	default String text() {
		return new String(body(), StandardCharsets.UTF_8);
	}

	/** How many times the message has been handed to a consumer so far. */
	int deliveries();

}
