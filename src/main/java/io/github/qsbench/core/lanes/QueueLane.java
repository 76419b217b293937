package io.github.qsbench.core.lanes;

import io.github.qsbench.core.QueueStats;
import io.github.qsbench.core.shared.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One named queue and its lifecycle: <em>open</em> while it holds messages (the queue
 * exists, counts and is charged to the caps); <em>closed</em> once it holds nothing,
 * waiting in the map (a retired lane) where the next push reopens it; <em>removed</em>
 * for good, when {@link AbstractLanesQS#retire} displaces it while closed: nothing enters
 * it again, and a push makes another. How a lane holds its messages, and what guards the
 * passage from one state to the next, is its framework's.
 */
abstract class QueueLane {

	private static final VarHandle IN_RING = VarHandles.field(MethodHandles.lookup(), "inRing", boolean.class);

	final String name;

	/** Whether it holds a slot of the ring of retired lanes. */
	private volatile boolean inRing;

	QueueLane(String name) {
		this.name = name;
	}

	/** Holds messages and counts as a queue. */
	public abstract boolean isOpen();

	/**
	 * Its counts at {@code nowMillis} (when delays end), {@code null} if it holds nothing
	 * or is closed.
	 */
	public abstract QueueStats stats(long nowMillis);

	/**
	 * Removes the lane for good if it is closed (a push may have reopened it since it was
	 * retired).
	 * @return whether this call removed it
	 */
	abstract boolean removeIfClosed();

	final boolean isInRing() {
		return this.inRing;
	}

	/** {@code true} if it did not hold a slot of the ring and now does. */
	final boolean enterRing() {
		return IN_RING.compareAndSet(this, false, true);
	}

	final void leaveRing() {
		this.inRing = false;
	}

}
