package io.github.qsbench.core.thesis;

import io.github.qsbench.core.QueueStats;
import io.github.qsbench.core.shared.VarHandles;
import io.github.qsbench.core.shared.IdIndex;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Deque;
import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * One named queue: its messages in order and, when the service completes by id, an index
 * of them by id and counts kept as they change. {@link AbstractQS} only touches it inside
 * an access of the {@link Lockable} the strategy wrapped it in.
 *
 * <p>
 * The counts change by atomic adds: under a strategy that serializes the queue they are
 * uncontended and exact; under a lock-free one (or read-locked eager polls) they are
 * exact for each change, and a reader sees a recent value. A lapsed lease counts as in
 * flight until the message is delivered again.
 *
 * @param <M> the strategy's message type
 */
public final class MessageQueue<M extends AbstractMessage> {

	private static final VarHandle SIZE = VarHandles.field(MethodHandles.lookup(), "size", int.class);

	private static final VarHandle IN_FLIGHT = VarHandles.field(MethodHandles.lookup(), "inFlight", int.class);

	private static final VarHandle COMPLETED = VarHandles.field(MethodHandles.lookup(), "completed", int.class);

	private static final VarHandle DELAYED_UNTIL = VarHandles.field(MethodHandles.lookup(), "delayedUntil", long.class);

	final String name;

	final Deque<M> messages;

	/**
	 * {@code null} in the thesis's setting, without id lookup; then nothing is counted.
	 */
	final IdIndex<M> index;

	/** Messages in {@link #messages}, completed or not. */
	private volatile int size;

	/** Messages delivered at least once and not completed. */
	private volatile int inFlight;

	/** Completed messages not yet evicted from {@link #messages}. */
	private volatile int completed;

	/**
	 * The latest end of a delay among the messages pushed with one; until then a count of
	 * delayed messages needs a walk.
	 */
	private volatile long delayedUntil;

	/**
	 * Whether walks may overlap on this deque (a lock-free strategy's), so that two of
	 * them can unlink the same message.
	 */
	private final boolean sharedWalks;

	MessageQueue(String name, Deque<M> messages, IdIndex<M> index) {
		this.name = name;
		this.messages = messages;
		this.sharedWalks = messages instanceof ConcurrentLinkedDeque;
		this.index = index;
	}

	boolean counted() {
		return this.index != null;
	}

	/** Appends a message; with id lookup it is indexed first. */
	void add(M message) {
		if (this.index != null) {
			this.index.put(message.id(), message);
			SIZE.getAndAdd(this, 1);
		}
		this.messages.add(message);
	}

	/**
	 * Removes the completed message a walk is at.
	 * @return {@code true} for exactly one caller, the one that accounts for it. Where
	 * walks may overlap, the removal is by identity: the compare-and-set of the node's
	 * item lets one of two walks that reached the message win, at the price of a scan
	 * from the head over what the walk passed (mostly leased messages). Elsewhere, and
	 * always without counts (the thesis's setting), the iterator's own removal.
	 */
	boolean unlink(Iterator<M> walk, M message) {
		if (this.sharedWalks && counted()) {
			return this.messages.removeFirstOccurrence(message);
		}
		walk.remove();
		return true;
	}

	/** Before messages delayed until {@code dueMillis} are added. */
	void delaying(long dueMillis) {
		long until;
		while ((until = this.delayedUntil) < dueMillis && !DELAYED_UNTIL.compareAndSet(this, until, dueMillis)) {
			Thread.onSpinWait();
		}
	}

	int size() {
		return this.size;
	}

	void firstDelivery() {
		IN_FLIGHT.getAndAdd(this, 1);
	}

	/** A message completed; {@code delivered}: it was in flight, not ready or delayed. */
	void completedOne(boolean delivered) {
		if (delivered) {
			IN_FLIGHT.getAndAdd(this, -1);
		}
		COMPLETED.getAndAdd(this, 1);
	}

	void evictedOne() {
		COMPLETED.getAndAdd(this, -1);
		SIZE.getAndAdd(this, -1);
	}

	/**
	 * The counts kept, and the delayed messages counted by a walk while a delay has not
	 * passed (a queue that never had one is never walked).
	 */
	QueueStats stats(long nowMillis) {
		int delayed = 0;
		if (nowMillis < this.delayedUntil) {
			for (M message : this.messages) {
				if (message.status(nowMillis) == AbstractMessage.Status.DELAYED) {
					delayed++;
				}
			}
		}
		int inFlight = Math.max(0, this.inFlight);
		int ready = Math.max(0, this.size - inFlight - this.completed - delayed);
		return new QueueStats(this.name, ready, inFlight, delayed);
	}

}
