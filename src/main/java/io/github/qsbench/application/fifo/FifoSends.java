package io.github.qsbench.application.fifo;

import java.util.List;

import io.github.qsbench.application.Sent;

/**
 * Where a store shared by instances (Redis) records the FIFO sends in progress, so that a
 * send its instance's death cut between its push and its messages' joining their groups
 * is settled by another instance ({@link FifoSettlement}) rather than left held for
 * {@link FifoQueues#HOLD_MILLIS}. In process there is none ({@link FifoGroups#sends}): an
 * instance's death takes its messages with it.
 *
 * <p>
 * The invariant, per message of a send: its id is recorded before it is pushed; then
 * either the send {@link #commit commits} it, which at once answers its deduplication key
 * with it, appends it to its group (released if it is the head) and forgets its record,
 * or a settlement {@link #take takes} its record, and it is discarded: never answered,
 * never in a group. A record can be committed only within {@link #boundMillis} of the
 * send's claim (so its pending deduplication claim has not lapsed, and no retry can have
 * sent a second copy) and taken only after it.
 */
public interface FifoSends {

	/** How long after its claim a send can commit, and after which it is settled. */
	long boundMillis();

	/**
	 * Claims a send's deduplication keys at {@code nowMillis}, as {@link FifoState#claim}
	 * does, and records the messages of the keys it claims, one per key in order, under
	 * ids it takes from the core's counter
	 * ({@link io.github.qsbench.core.QueueServiceCore#reserveIds}), before they are
	 * pushed under them ({@link io.github.qsbench.core.QueueServiceCore#pushAs}): one
	 * step where the store reaches the counter beside the queue. A claim that finds a key
	 * pending records nothing.
	 */
	Claimed claim(String queue, List<String> keys, long nowMillis);

	/**
	 * Commits a send's messages, all or none: each claimed key of {@code keys} answered
	 * with its message (until {@code sentMillis} plus the deduplication window), each
	 * message appended to its group of {@code groups} and, if it is its group's head,
	 * released (due {@code delayMillis} after {@code nowMillis}, as
	 * {@link FifoHeads#append}), their records forgotten. So no death between the commit
	 * and a release of the caller's can leave a new head held.
	 * @return per message whether it is its group's head, released; {@code null} if a
	 * record was taken or is older than {@link #boundMillis} at {@code nowMillis}:
	 * nothing was committed, and the caller discards its messages
	 */
	boolean[] commit(String queue, List<String> keys, List<Sent> sent, List<String> groups, long sentMillis,
			long nowMillis, long delayMillis);

	/**
	 * Takes, from each of {@code queues}, the records older than {@link #boundMillis} at
	 * {@code nowMillis}, and those taken that long ago by a settlement that did not
	 * {@link #forget} them (its instance died too), for the caller to discard their
	 * messages: in one pass over the queues, each queue's take atomic.
	 * @return per queue, in order, the ids taken
	 */
	List<List<Long>> take(List<String> queues, long nowMillis);

	/** Forgets these ids' records, taken or not. */
	void forget(String queue, List<Long> ids);

	/**
	 * A send's claim, and the first id of the messages it recorded, in the order of its
	 * keys claimed (0: none).
	 */
	record Claimed(FifoState.Claim claim, long firstId) {
	}

}
