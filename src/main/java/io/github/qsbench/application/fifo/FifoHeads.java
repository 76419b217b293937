package io.github.qsbench.application.fifo;

import java.util.List;

import io.github.qsbench.core.ByIdOperation;

/**
 * Where a store shared by instances (Redis) keeps the groups on the same footing as the
 * core's messages, so that the step that makes a message its group's head also releases
 * it: no instance's death can fall between the two and leave the head held for
 * {@link FifoQueues#HOLD_MILLIS}, its group blocked. In process there is none
 * ({@link FifoGroups#heads}): the caller appends or removes, then releases the new head
 * ({@link ByIdOperation#END_DELAY}), and an instance's death takes its messages with it.
 *
 * <p>
 * A release makes a held message due at a time (the end of its delay moved), if the core
 * still holds it delayed; a message that is due earlier already keeps its time.
 */
public interface FifoHeads {

	/**
	 * As {@link FifoGroups#append}, and, if the message is its group's head, in the same
	 * step released: due {@code delayMillis} after {@code nowMillis}.
	 * @return whether it is its group's head and was released
	 */
	boolean append(String queue, String group, long id, long nowMillis, long delayMillis);

	/**
	 * As {@link FifoGroups#remove}, and, if {@code id} was its group's head, in the same
	 * step the group's next message still held in the core released: due at
	 * {@code nowMillis} (one no longer there is taken out of the group, and the one after
	 * it is released instead).
	 * @return the id released, 0 if none, -1 if {@code id} was in no group
	 */
	long remove(String queue, long id, long nowMillis);

	/** The cursor of a cycle's first {@link #heal} pass, and the one its last returns. */
	String HEAL_START = "0";

	/**
	 * Takes out of their groups the heads that left each of {@code queues} without
	 * leaving their group (an instance killed between a message's completion or discard
	 * and its {@link #remove}), each group's new head released: due at {@code nowMillis}.
	 * One pass looks at a bounded slice of each queue's groups, from its cursor: a
	 * queue's passes from {@link #HEAL_START} back to it are a cycle, which looks at
	 * every group there throughout it (one added meanwhile may wait for the next cycle).
	 * Run by {@link FifoSettlement}; safe beside a live removal (whichever comes first
	 * takes the head out, the other finds it in no group) and beside another instance's
	 * passes.
	 * @param cursors per queue, in order, {@link #HEAL_START} or what the queue's
	 * previous pass returned
	 * @return per queue, in order, the cursor of its next pass, {@link #HEAL_START} once
	 * this pass ended a cycle
	 */
	List<String> heal(List<String> queues, long nowMillis, List<String> cursors);

}
