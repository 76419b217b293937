package io.github.qsbench.application.queues;

import io.github.qsbench.application.Departures;

/**
 * What the queues as wholes need of the FIFO queues' groups (the {@code fifo} room's
 * {@code FifoOperations}): a message leaving a FIFO queue releases the next of its group
 * ({@link #left}, {@link #release}), a moved one joins its group ({@link #admit}), a
 * deleted queue's groups are forgotten ({@link #forget}).
 */
public interface FifoOrder extends Departures {

	/**
	 * Follows a message that left the FIFO queue: if it was its group's head, the next
	 * message of the group is released.
	 * @return whether a message was released
	 */
	boolean release(String queue, long id);

	/**
	 * Admits a message moved into the FIFO queue, held there by the mover: it joins its
	 * group's order, and is released if it is the group's head.
	 * @return whether it was released
	 */
	boolean admit(String queue, long id, String group);

	/** Forgets a deleted queue: its groups, deduplication ids and sequence. */
	void forget(String queue);

}
