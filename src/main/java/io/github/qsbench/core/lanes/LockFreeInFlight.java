package io.github.qsbench.core.lanes;

import io.github.qsbench.core.shared.CompletableMessage;
import io.github.qsbench.core.shared.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentSkipListSet;

/**
 * The lock-free variant: a {@link ConcurrentLinkedQueue} and a
 * {@link ConcurrentSkipListSet}, of {@link SplitDelivery}s; whoever takes an entry out
 * claims it first, so each is moved or dropped once.
 */
final class LockFreeInFlight extends InFlight<SplitDelivery> {

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
		return message.redeliver(lapsed.delivery) ? new SplitDelivery(message, lapsed.delivery + 1, leaseEnd) : null;
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
