package io.github.qsbench.core.lanes;

import io.github.qsbench.core.Peeked;
import io.github.qsbench.core.shared.CompletableMessage;
import java.util.List;

/**
 * A lane's in-flight record (thesis 5.2.3.1): the deliveries its polls made and have not
 * dropped yet, kept apart from the ready messages so that a poll looks at two heads
 * instead of walking past every leased message. It has two parts:
 * <ul>
 * <li>the <em>ordered</em> part, deliveries under the service's lease in the order of the
 * deliveries: their leases all have one length, so they end in that order, and a poll
 * looks at the head only (O(1), however many messages are in flight);</li>
 * <li>the <em>sorted</em> part, deliveries under a lease of their own (asked for by the
 * poll, or changed since) and delayed messages waiting for their first delivery (their
 * delay as their lease), sorted by lease end; made when first needed, so a queue that
 * never has one pays a null check.</li>
 * </ul>
 * Completed entries stay where they are until a head reaches them (or, with
 * {@link io.github.qsbench.core.Eviction#EAGER}, a completion takes them out).
 *
 * <p>
 * Two variants, one per lanes framework: {@link LockedInFlight}, whose every call holds
 * the lane's lock, keeps {@link LaneMessage}s (a message carries its lease end, so a
 * delivery costs no allocation) in plain array rings; {@link LockFreeInFlight} keeps a
 * {@link SplitDelivery} per delivery, which a thread claims before it moves or drops it,
 * in concurrent collections. Why each is exactly-once: docs/design/lanes.md.
 *
 * @param <E> an entry: one delivery of a message, or a delayed message
 */
abstract class InFlight<E> {

	/** {@link #takeIfLapsed}: its lease (or delay) has not ended; left where it is. */
	static final int LIVE = 0;

	/** {@link #takeIfLapsed}: its message is completed; taken out. */
	static final int COMPLETED = 1;

	/** {@link #takeIfLapsed}: its lease (or delay) ended; taken out. */
	static final int LAPSED = 2;

	/** The message an entry delivered, or will deliver once its delay ends. */
	abstract CompletableMessage messageOf(E entry);

	/** Which delivery of its message the entry stands for; 0 for a delayed message. */
	abstract int deliveryOf(E entry);

	/** When the entry's lease (or delay) ends. */
	abstract long leaseEndOf(E entry);

	/** Taken by a thread that moves or drops it, so no longer the message's state. */
	abstract boolean isClaimed(E entry);

	/**
	 * The message's next delivery, once its entry was taken out as {@link #LAPSED}: a
	 * compare-and-set that fails if a completion won the race.
	 * @return the entry of the new delivery, to {@link #track}; {@code null} if the
	 * message was completed meanwhile
	 */
	abstract E redeliver(E lapsed, long leaseEnd);

	/** The first entry of a part, without taking it; the sorted part must exist. */
	abstract E first(boolean sortedPart);

	/**
	 * Takes the first entry of a part, {@code head}, out if its message is completed or
	 * its lease ended (the lock-free variant claims it first, so for one caller only).
	 * @return {@link #LIVE}, {@link #COMPLETED} or {@link #LAPSED}
	 */
	abstract int takeIfLapsed(boolean sortedPart, E head, long nowMillis);

	/** Takes the first entry of a part out if its message is completed. */
	abstract E takeIfCompleted(boolean sortedPart);

	/**
	 * {@link io.github.qsbench.core.Eviction#EAGER}: takes the completed message's entry
	 * out from wherever it waits (a scan, as far as it).
	 * @return whether this call took it; if not, it is dropped when it reaches a head
	 */
	abstract boolean removeEntryOf(CompletableMessage message);

	/** Whether the sorted part exists. */
	abstract boolean hasSorted();

	abstract void addOrdered(E entry);

	abstract void addSorted(E entry);

	abstract Iterable<E> ordered();

	/** The sorted part, empty until its first entry. */
	abstract Iterable<E> sorted();

	/** Whether {@link #sorted()} iterates in lease-end order. */
	abstract boolean iteratesSorted();

	/** Every entry: the ordered part, then the sorted part by lease end. */
	abstract List<E> snapshot();

	/** Records a delivery: in the ordered part under the service's lease. */
	final void track(E entry, boolean ownLease) {
		if (ownLease) {
			addSorted(entry);
		}
		else {
			addOrdered(entry);
		}
	}

	/**
	 * Whether a poll would deliver an entry at {@code nowMillis}: the first entry of the
	 * ordered part not completed, or any entry of the sorted part, if its lease (or
	 * delay) ended and nobody claimed it.
	 */
	final boolean anyLapsed(long nowMillis) {
		for (E entry : ordered()) {
			if (!messageOf(entry).isCompleted()) {
				if (!isClaimed(entry) && leaseEndOf(entry) <= nowMillis) {
					return true;
				}
				break;
			}
		}
		for (E entry : sorted()) {
			if (leaseEndOf(entry) > nowMillis) {
				if (iteratesSorted()) {
					break;
				}
			}
			else if (!messageOf(entry).isCompleted() && !isClaimed(entry)) {
				return true;
			}
		}
		return false;
	}

	/** Delayed messages whose delay ended by {@code nowMillis}: ready, for the stats. */
	final int delayEnded(long nowMillis) {
		int due = 0;
		for (E entry : sorted()) {
			if (leaseEndOf(entry) > nowMillis) {
				if (iteratesSorted()) {
					break;
				}
			}
			else if (deliveryOf(entry) == 0 && !isClaimed(entry)) {
				due++;
			}
		}
		return due;
	}

	/**
	 * A browse of the entries that are their messages' current state (not completed, not
	 * claimed, of the latest delivery), in the order given: ready if the lease ended,
	 * else in flight or delayed.
	 * @return whether {@code seen} holds {@code max} now
	 */
	final boolean browse(List<E> entries, long nowMillis, List<Peeked> seen, int max) {
		for (E entry : entries) {
			CompletableMessage message = messageOf(entry);
			int deliveries = message.deliveries();
			if (message.isCompleted() || isClaimed(entry) || deliveryOf(entry) != deliveries) {
				continue;
			}
			Peeked.State state = (leaseEndOf(entry) <= nowMillis) ? Peeked.State.READY
					: (deliveries > 0) ? Peeked.State.IN_FLIGHT : Peeked.State.DELAYED;
			if (AbstractLanesQS.see(seen, new Peeked(message, state, deliveries), max)) {
				return true;
			}
		}
		return false;
	}

}
