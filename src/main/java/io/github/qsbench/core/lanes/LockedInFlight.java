package io.github.qsbench.core.lanes;

import io.github.qsbench.core.shared.CompletableMessage;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The locked variant: every call holds the lane's lock, so its parts are an
 * {@link ArrayDeque} and a {@link PriorityQueue} (no node per entry), and an entry is the
 * message itself, whose lease end lives in its state word.
 */
final class LockedInFlight extends InFlight<LaneMessage> {

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
