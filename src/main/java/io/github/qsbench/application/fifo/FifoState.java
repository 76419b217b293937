package io.github.qsbench.application.fifo;

import java.util.List;

import io.github.qsbench.application.Received;
import io.github.qsbench.application.Sent;

/**
 * What SQS keeps per FIFO queue beside its groups' order ({@link FifoGroups}): its
 * sequence numbers, its deduplication window and its receive attempts
 * ({@link FifoQueues}). Like the groups it follows the core: in this instance's memory
 * ({@link InMemoryFifoState}), or in Redis, where every instance on one namespace shares
 * it, so a duplicate sent through another instance is caught and sequence numbers grow
 * across instances.
 *
 * <p>
 * A send {@link #claim claims} its deduplication keys, pushes the messages it claimed,
 * then {@link #settle settles} the claims with what it sent (or drops them, when the push
 * failed). A key claimed by a send that has not settled yet is {@link #PENDING} to any
 * other: the caller waits for it rather than send a second copy. The caller serialises
 * the sends to one queue through one instance (its monitor), so in memory nothing is ever
 * pending.
 */
public interface FifoState {

	/** What {@link #claim} answers for a key another send claimed and has not settled. */
	Sent PENDING = new Sent(-1, -1);

	/**
	 * Looks up {@code keys} (distinct) in the window ending at {@code nowMillis} and
	 * claims those not in it.
	 * @return per key, in order, the original's answer, {@link #PENDING}, or {@code null}
	 * if this call claimed it; and the first sequence number of those claimed, which take
	 * the numbers from it on, in order
	 */
	Claim claim(String queue, List<String> keys, long nowMillis);

	/**
	 * Settles this instance's claims: each key of {@code keys} with its answer in
	 * {@code sent} (remembered until {@code sentMillis} plus the window), or, where
	 * {@code sent} is {@code null} (the push failed), dropped.
	 */
	void settle(String queue, List<String> keys, List<Sent> sent, long sentMillis);

	/**
	 * What {@link #attempted} answers while another receive with the same attempt id
	 * holds it (compared by identity).
	 */
	List<Received> ATTEMPT_PENDING = java.util.Collections.unmodifiableList(new java.util.ArrayList<>());

	/**
	 * What a receive with this attempt id delivered within the window ending at
	 * {@code nowMillis}; {@link #ATTEMPT_PENDING} while another receive with it has not
	 * answered yet (its marker holds until {@code pendingUntilMillis} of that receive);
	 * {@code null} if none, in which case this call marks the attempt pending until
	 * {@code pendingUntilMillis}, as {@code SET NX PX} would: the caller receives, then
	 * {@link #attempt remembers} what it delivered or {@link #dropAttempt drops} the
	 * marker.
	 */
	List<Received> attempted(String queue, String attemptId, long nowMillis, long pendingUntilMillis);

	/** Remembers what a receive with this attempt id delivered at {@code atMillis}. */
	void attempt(String queue, String attemptId, List<Received> received, long atMillis);

	/**
	 * Drops this attempt's pending marker (its receive delivered nothing or failed), if
	 * it is still pending.
	 */
	void dropAttempt(String queue, String attemptId);

	/** Forgets the queue's sequence, deduplication ids and attempts. */
	void forget(String queue);

	/**
	 * What a claim found.
	 *
	 * @param found per key its original's answer, {@link #PENDING}, or {@code null}:
	 * claimed by this call
	 * @param firstSequence the sequence number of the first key claimed
	 */
	record Claim(List<Sent> found, long firstSequence) {
	}

}
