package io.github.qsbench.application.fifo;

import io.github.qsbench.application.fair.FairGroups;
import io.github.qsbench.application.fair.InMemoryFairGroups;
import io.github.qsbench.application.queues.ExplicitQueues;

/**
 * Where FIFO queues keep their groups' order ({@link FifoQueues}): per queue and group,
 * the ids of its messages in the queue, in send order, the first being the group's head.
 * Each call is atomic on its own. Like {@link ExplicitQueues}, it follows the core: in
 * this instance's memory for the in-process strategies ({@link InMemoryFifoGroups}), in
 * Redis for the redis strategy, so that every instance on one Redis keeps one order and
 * the group rule holds across them.
 */
public interface FifoGroups {

	/**
	 * Adds message {@code id} at the end of its group.
	 * @return whether it is the group's head (the group had no message), so that the
	 * caller releases it (where {@link #heads} is {@code null})
	 */
	boolean append(String queue, String group, long id);

	/**
	 * Removes message {@code id} from its group, where it was.
	 * @return the id of the group's new head if {@code id} was the head and another
	 * follows, for the caller to release; 0 if none is to be released; -1 if {@code id}
	 * was in no group
	 */
	long remove(String queue, long id);

	/** Forgets the queue's groups. */
	void forget(String queue);

	/**
	 * Where standard queues keep their fair-queue groups, in the same store as these
	 * ({@link FairGroups}): in this instance's memory unless overridden.
	 */
	default FairGroups fair() {
		return new InMemoryFairGroups();
	}

	/**
	 * Where FIFO queues keep their sequence numbers, deduplication ids and receive
	 * attempts, in the same store as these ({@link FifoState}): in this instance's memory
	 * unless overridden.
	 */
	default FifoState state() {
		return new InMemoryFifoState();
	}

	/**
	 * Where a store shared by instances releases a group's new head in the step that
	 * makes it the head ({@link FifoHeads}); {@code null} (unless overridden) where the
	 * caller releases it after that step: in this instance's memory, which its death
	 * takes whole.
	 */
	default FifoHeads heads() {
		return null;
	}

	/**
	 * Where FIFO sends in progress are recorded ({@link FifoSends}), in the same store as
	 * these; {@code null} (unless overridden) where a send needs no record: in this
	 * instance's memory, which its death takes with its messages.
	 */
	default FifoSends sends() {
		return null;
	}

}
