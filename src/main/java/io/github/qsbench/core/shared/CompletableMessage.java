package io.github.qsbench.core.shared;

import io.github.qsbench.core.Completion;
import io.github.qsbench.core.Message;

/** A message that decides its own completion, whichever framework holds it. */
public interface CompletableMessage extends Message {

	/**
	 * Completes the message if {@code delivery} is its current delivery (or
	 * {@link io.github.qsbench.core.QueueServiceCore#ANY_DELIVERY}); of racing
	 * completions and redeliveries of one delivery, exactly one wins (where the message
	 * is thread-safe).
	 * @return {@link Completion#COMPLETED} if this call completed it;
	 * {@link Completion#NOT_FOUND} if it was completed already;
	 * {@link Completion#NOT_DELIVERED} if it was never delivered;
	 * {@link Completion#STALE_LEASE} if it was delivered again since that delivery
	 */
	Completion complete(int delivery);

	/**
	 * Completes the message whatever its state (ready, delayed, in flight), as a purge
	 * does, by the same compare-and-set (where the message is thread-safe).
	 * @return how often it had been delivered, or -1 if it was completed already
	 */
	int discard();

	boolean isCompleted();

}
