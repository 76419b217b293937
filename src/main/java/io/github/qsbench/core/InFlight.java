package io.github.qsbench.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentSkipListSet;

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
 * {@link Eviction#EAGER}, a completion takes them out).
 *
 * <p>
 * Two variants, one per lanes framework: {@link Locked}, whose every call holds the
 * lane's lock, keeps {@link LaneMessage}s (a message carries its lease end, so a delivery
 * costs no allocation) in plain array rings; {@link LockFree} keeps a
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
	 * {@link Eviction#EAGER}: takes the completed message's entry out from wherever it
	 * waits (a scan, as far as it).
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

	/**
	 * The locked variant: every call holds the lane's lock, so its parts are an
	 * {@link ArrayDeque} and a {@link PriorityQueue} (no node per entry), and an entry is
	 * the message itself, whose lease end lives in its state word.
	 */
	static final class Locked extends InFlight<LaneMessage> {

		static final Comparator<LaneMessage> BY_LEASE_END = Comparator.comparingLong(LaneMessage::leaseEnd);

		final ArrayDeque<LaneMessage> ordered = new ArrayDeque<>();

		/** {@code null} until the first entry. */
		PriorityQueue<LaneMessage> sorted;

		@Override
		CompletableMessage messageOf(LaneMessage entry) {
			return entry;
		}

		@Override
		int deliveryOf(LaneMessage entry) {
			return entry.deliveries();
		}

		@Override
		long leaseEndOf(LaneMessage entry) {
			return entry.leaseEnd();
		}

		@Override
		boolean isClaimed(LaneMessage entry) {
			return false;
		}

		/** The message itself, once more: a compare-and-set of its word. */
		@Override
		LaneMessage redeliver(LaneMessage lapsed, long leaseEnd) {
			return lapsed.redeliver(leaseEnd) ? lapsed : null;
		}

		@Override
		LaneMessage first(boolean sortedPart) {
			return sortedPart ? this.sorted.peek() : this.ordered.peekFirst();
		}

		/** One read of the message's word in the ordered part, the poll's common case. */
		@Override
		int takeIfLapsed(boolean sortedPart, LaneMessage head, long nowMillis) {
			if (!sortedPart) {
				long expiry = head.expiry(); // Long.MAX_VALUE once completed
				if (expiry > nowMillis && expiry != Long.MAX_VALUE) {
					return LIVE;
				}
				this.ordered.pollFirst();
				return (expiry == Long.MAX_VALUE) ? COMPLETED : LAPSED;
			}
			boolean completed = head.isCompleted();
			if (!completed && head.leaseEnd() > nowMillis) {
				return LIVE;
			}
			this.sorted.poll();
			return completed ? COMPLETED : LAPSED;
		}

		@Override
		LaneMessage takeIfCompleted(boolean sortedPart) {
			LaneMessage head = first(sortedPart);
			if (head == null || !head.isCompleted()) {
				return null;
			}
			return sortedPart ? this.sorted.poll() : this.ordered.pollFirst();
		}

		@Override
		boolean removeEntryOf(CompletableMessage message) {
			return this.ordered.removeFirstOccurrence(message) || (this.sorted != null && this.sorted.remove(message));
		}

		@Override
		boolean hasSorted() {
			return this.sorted != null;
		}

		@Override
		void addOrdered(LaneMessage entry) {
			this.ordered.addLast(entry);
		}

		@Override
		void addSorted(LaneMessage entry) {
			if (this.sorted == null) {
				this.sorted = new PriorityQueue<>(BY_LEASE_END);
			}
			this.sorted.add(entry);
		}

		@Override
		Iterable<LaneMessage> ordered() {
			return this.ordered;
		}

		@Override
		Iterable<LaneMessage> sorted() {
			return (this.sorted != null) ? this.sorted : List.of();
		}

		@Override
		boolean iteratesSorted() {
			return false; // a heap's iterator is not in order
		}

		@Override
		List<LaneMessage> snapshot() {
			List<LaneMessage> all = new ArrayList<>(this.ordered);
			if (this.sorted != null) {
				List<LaneMessage> sortedPart = new ArrayList<>(this.sorted);
				sortedPart.sort(BY_LEASE_END);
				all.addAll(sortedPart);
			}
			return all;
		}

	}

	/**
	 * The lock-free variant: a {@link ConcurrentLinkedQueue} and a
	 * {@link ConcurrentSkipListSet}, of {@link SplitDelivery}s; whoever takes an entry
	 * out claims it first, so each is moved or dropped once.
	 */
	static final class LockFree extends InFlight<SplitDelivery> {

		/**
		 * Sorts the records of deliveries under leases of their own: at most one each.
		 */
		private static final Comparator<SplitDelivery> BY_LEASE_END = Comparator
			.comparingLong((SplitDelivery record) -> record.leaseExpiresAtMillis)
			.thenComparingLong(record -> record.message.id())
			.thenComparingInt(record -> record.delivery);

		/**
		 * Sorts before every record: {@code ceiling} of it is the first record, if any.
		 */
		private static final SplitDelivery FIRST = new SplitDelivery(new SplitMessage(Long.MIN_VALUE, "", new byte[0]),
				Integer.MIN_VALUE, Long.MIN_VALUE);

		private static final VarHandle SORTED = VarHandles.field(MethodHandles.lookup(), "sorted",
				ConcurrentSkipListSet.class);

		final ConcurrentLinkedQueue<SplitDelivery> ordered = new ConcurrentLinkedQueue<>();

		/** {@code null} until the first entry, then set once by compare-and-set. */
		volatile ConcurrentSkipListSet<SplitDelivery> sorted;

		@Override
		CompletableMessage messageOf(SplitDelivery entry) {
			return entry.message;
		}

		@Override
		int deliveryOf(SplitDelivery entry) {
			return entry.delivery;
		}

		@Override
		long leaseEndOf(SplitDelivery entry) {
			return entry.leaseExpiresAtMillis;
		}

		@Override
		boolean isClaimed(SplitDelivery entry) {
			return entry.isClaimed();
		}

		/** A new entry with the next delivery number: the old one stays claimed. */
		@Override
		SplitDelivery redeliver(SplitDelivery lapsed, long leaseEnd) {
			SplitMessage message = lapsed.message;
			return message.redeliver(lapsed.delivery) ? new SplitDelivery(message, lapsed.delivery + 1, leaseEnd)
					: null;
		}

		@Override
		SplitDelivery first(boolean sortedPart) {
			return sortedPart ? this.sorted.ceiling(FIRST) : this.ordered.peek();
		}

		/** Claimed by another thread, the head is left to it, as one still live. */
		@Override
		int takeIfLapsed(boolean sortedPart, SplitDelivery head, long nowMillis) {
			boolean completed = head.message.isCompleted();
			if (head.isClaimed() || !(completed || head.expiredAt(nowMillis)) || !head.claim()) {
				return LIVE;
			}
			takeFirst(sortedPart, head);
			return completed ? COMPLETED : LAPSED;
		}

		@Override
		SplitDelivery takeIfCompleted(boolean sortedPart) {
			SplitDelivery head = first(sortedPart);
			if (head == null || !head.message.isCompleted() || !head.claim()) {
				return null;
			}
			takeFirst(sortedPart, head);
			return head;
		}

		/** Looks no further than the first entry of the message it finds. */
		@Override
		boolean removeEntryOf(CompletableMessage message) {
			for (SplitDelivery record : this.ordered) {
				if (record.message == message) {
					return takeClaimed(this.ordered, record);
				}
			}
			ConcurrentSkipListSet<SplitDelivery> made = this.sorted;
			if (made != null) {
				for (SplitDelivery record : made) {
					if (record.message == message) {
						return takeClaimed(made, record);
					}
				}
			}
			return false;
		}

		private static boolean takeClaimed(Collection<SplitDelivery> part, SplitDelivery record) {
			if (!record.claim()) {
				return false;
			}
			part.remove(record);
			return true;
		}

		@Override
		boolean hasSorted() {
			return this.sorted != null;
		}

		@Override
		void addOrdered(SplitDelivery entry) {
			this.ordered.offer(entry);
		}

		@Override
		void addSorted(SplitDelivery entry) {
			ConcurrentSkipListSet<SplitDelivery> made = this.sorted;
			if (made == null) {
				SORTED.compareAndSet(this, null, new ConcurrentSkipListSet<>(BY_LEASE_END));
				made = this.sorted;
			}
			made.add(entry);
		}

		@Override
		Iterable<SplitDelivery> ordered() {
			return this.ordered;
		}

		@Override
		Iterable<SplitDelivery> sorted() {
			ConcurrentSkipListSet<SplitDelivery> made = this.sorted;
			return (made != null) ? made : List.of();
		}

		@Override
		boolean iteratesSorted() {
			return true;
		}

		@Override
		List<SplitDelivery> snapshot() {
			List<SplitDelivery> all = new ArrayList<>(this.ordered);
			for (SplitDelivery record : sorted()) {
				all.add(record);
			}
			return all;
		}

		/** Takes out the first entry of a part, which the caller claimed. */
		private void takeFirst(boolean sortedPart, SplitDelivery first) {
			if (sortedPart) {
				this.sorted.remove(first);
			}
			else {
				this.ordered.poll();
			}
		}

		/** Takes a claimed entry out of whichever part holds it. */
		void remove(SplitDelivery claimed) {
			if (!this.ordered.remove(claimed)) {
				this.sorted.remove(claimed);
			}
		}

		/** The unclaimed entry of that delivery of the message, or {@code null}. */
		SplitDelivery entryOf(SplitMessage message, int delivery) {
			for (SplitDelivery record : this.ordered) {
				if (record.message == message && record.delivery == delivery && !record.isClaimed()) {
					return record;
				}
			}
			for (SplitDelivery record : sorted()) {
				if (record.message == message && record.delivery == delivery && !record.isClaimed()) {
					return record;
				}
			}
			return null;
		}

	}

}
