package io.github.qsbench.core.lanes;

import io.github.qsbench.core.Peeked;
import io.github.qsbench.core.QueueStats;
import io.github.qsbench.core.shared.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Queue;
import java.util.Set;

/**
 * One named queue of {@link AbstractSplitQS}: its ready queue, its in-flight record (the
 * lock-free variant, {@link LockFreeInFlight}), and how many messages it holds, which
 * also tells when it is closed; and its browse.
 *
 * <p>
 * What it holds is two running totals, not one count, each on a cache line of its own
 * (the padding classes of {@link SplitLaneLayout}): producers add to {@code admitted},
 * consumers to {@code evicted}. One shared count would bounce its cache line between
 * every push and every eviction, and invalidate the references all of them read next to
 * it. The consumer that evicts the last message closes the lane by compare-and-set of
 * {@code admitted}, which fails if a producer came in meanwhile.
 */
final class SplitLane extends SplitLaneLayout.PadAdmitted {

	private static final Comparator<SplitMessage> BY_ID = Comparator.comparingLong(SplitMessage::id);

	static final VarHandle IN_FLIGHT = VarHandles.field(MethodHandles.lookup(), "inFlightCount", int.class);

	static final VarHandle COMPLETED = VarHandles.field(MethodHandles.lookup(), "completedCount", int.class);

	static final VarHandle DELAYED = VarHandles.field(MethodHandles.lookup(), "delayedCount", int.class);

	private static final VarHandle EVICTED = VarHandles.field(MethodHandles.lookup(), "evicted", long.class);

	/** Messages that left memory, ever. */
	private volatile long evicted;

	/** Messages delivered and not completed (with id lookup). */
	@SuppressWarnings("unused") // through IN_FLIGHT
	private volatile int inFlightCount;

	/** Completed messages still in the in-flight record (with id lookup). */
	@SuppressWarnings("unused") // through COMPLETED
	private volatile int completedCount;

	/** Delayed messages not yet delivered, their delay ended or not. */
	@SuppressWarnings("unused") // through DELAYED
	private volatile int delayedCount;

	SplitLane(String name, Queue<SplitMessage> ready, boolean counted) {
		super(name, ready, counted);
	}

	/** For strategies that hand messages to the ready queue themselves. */
	public Queue<SplitMessage> ready() {
		return this.ready;
	}

	/** {@link #enter}: counted in. */
	static final int ENTERED = 0;

	/** {@link #enter}: the lane is closed, and a push may {@link #reopen} it. */
	static final int CLOSED = 1;

	/** {@link #enter}: the lane is removed for good. */
	static final int REMOVED = 2;

	/**
	 * Counts messages in, unless the lane is closed or removed.
	 * @throws io.github.qsbench.core.CapacityExceededException if that would hold more
	 * than {@code max}
	 */
	int enter(int count, int max) {
		while (true) {
			long current = this.admitted;
			if (current < 0) {
				return (current == CLOSED_TOTAL) ? CLOSED : REMOVED;
			}
			if (max != Integer.MAX_VALUE) {
				// only then: the consumers' total is on their cache line
				AbstractLanesQS.checkRoom(current - this.evicted, count, max);
			}
			if (ADMITTED.compareAndSet(this, current, current + count)) {
				return ENTERED;
			}
		}
	}

	/**
	 * Opens a closed lane with {@code count} messages; {@code false} if another push
	 * reopened it first or it was removed. Nothing is evicted from a closed lane, so its
	 * consumers' total is still.
	 */
	boolean reopen(int count) {
		return ADMITTED.compareAndSet(this, CLOSED_TOTAL, this.evicted + count);
	}

	/**
	 * Counts one message out, after it left the ready queue and the in-flight record;
	 * {@code true} if that emptied and closed the lane. While either still holds a
	 * message this was not the last one, and producers' total is not even read: every
	 * other eviction removed its message before counting it, so the last to count finds
	 * both empty.
	 */
	boolean leave() {
		long out = (long) EVICTED.getAndAdd(this, 1L) + 1;
		if (this.inFlight.ordered.peek() != null || this.ready.peek() != null) {
			return false;
		}
		long in = this.admitted;
		return in == out && ADMITTED.compareAndSet(this, in, CLOSED_TOTAL);
	}

	/** Removes a closed lane for good; {@code false} if it was reopened. */
	@Override
	boolean removeIfClosed() {
		return ADMITTED.compareAndSet(this, CLOSED_TOTAL, REMOVED_TOTAL);
	}

	@Override
	public boolean isOpen() {
		return this.admitted >= 0;
	}

	@Override
	public QueueStats stats(long nowMillis) {
		long in = this.admitted;
		int held = (int) (in - this.evicted);
		if (in < 0 || held <= 0) {
			return null;
		}
		// counted in after the delivery's compare-and-set, so a completion racing it may
		// count out first; and the counts are read one after another, not at one moment
		int inFlight = Math.max(0, this.inFlightCount);
		int delayed = this.delayedCount;
		if (delayed > 0) {
			// those whose delay ended are ready
			delayed -= this.inFlight.delayEnded(nowMillis);
		}
		int ready = Math.max(0, held - inFlight - this.completedCount - delayed);
		return new QueueStats(this.name, ready, inFlight, Math.max(0, delayed));
	}

	/**
	 * A browse, as a poll would deliver: the in-flight record first, then the messages
	 * never delivered, the {@code max} smallest ids among {@code held} (the service's
	 * index: the ready queue cannot be walked) that are this lane's, ready and not
	 * delayed; one pass over {@code held}.
	 */
	void browse(Collection<SplitMessage> held, long nowMillis, List<Peeked> seen, int max) {
		List<SplitDelivery> delivered = this.inFlight.snapshot();
		if (this.inFlight.browse(delivered, nowMillis, seen, max)) {
			return;
		}
		Set<SplitMessage> delayed = Collections.newSetFromMap(new IdentityHashMap<>());
		for (SplitDelivery record : delivered) {
			if (record.delivery == 0) {
				delayed.add(record.message);
			}
		}
		int room = max - seen.size();
		PriorityQueue<SplitMessage> first = new PriorityQueue<>(room + 1, BY_ID.reversed());
		for (SplitMessage message : held) {
			if (message.deliveries() == 0 && !message.isCompleted() && this.name.equals(message.queue())
					&& !delayed.contains(message)) {
				first.offer(message);
				if (first.size() > room) {
					first.poll();
				}
			}
		}
		List<SplitMessage> ready = new ArrayList<>(first);
		ready.sort(BY_ID);
		for (SplitMessage message : ready) {
			seen.add(new Peeked(message, Peeked.State.READY, 0));
		}
	}

}
