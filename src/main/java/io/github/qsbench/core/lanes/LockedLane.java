package io.github.qsbench.core.lanes;

import io.github.qsbench.core.Peeked;
import io.github.qsbench.core.QueueStats;
import io.github.qsbench.core.shared.IdIndex;
import io.github.qsbench.core.shared.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.locks.Lock;

/**
 * One named queue of {@link AbstractLaneLockedQS}, how a thread takes its lock, and what
 * the lane does under it alone (its counts, browsing). Every field but {@link #size},
 * {@link #closed}, the ring's flag and the waiting counts is read and written only under
 * {@link #lock}; those are also read without it (a poll's emptiness check, the queue
 * count, the retirement, the spinning).
 */
final class LockedLane extends QueueLane {

	/**
	 * {@link Waiting#SIDE_BEHIND_SPINS}: a lane holding more messages than this has
	 * consumers behind its producers; one holding this many or fewer, producers behind.
	 */
	private static final int BEHIND = 64;

	/** {@link Waiting#SIDE_BEHIND_SPINS}: tries of a producer. */
	private static final int PRODUCER_SPINS = 64;

	/** {@link Waiting#SIDE_BEHIND_SPINS}: consumer tries a yield. */
	private static final int CONSUMER_SPINS_PER_YIELD = 64;

	private static final VarHandle SPINNER = VarHandles.field(MethodHandles.lookup(), "spinner", boolean.class);

	private static final VarHandle WAITING_PRODUCERS = VarHandles.field(MethodHandles.lookup(), "waitingProducers",
			int.class);

	private static final VarHandle WAITING_CONSUMERS = VarHandles.field(MethodHandles.lookup(), "waitingConsumers",
			int.class);

	final Lock lock;

	ArrayDeque<LaneMessage> ready = new ArrayDeque<>();

	/**
	 * Delivered messages, and delayed ones in its sorted part, completed ones among them.
	 */
	LockedInFlight inFlight = new LockedInFlight();

	/** Messages by id ({@link IdIndex#none()} without id lookup). */
	IdIndex<LaneMessage> index;

	/**
	 * Messages in memory: ready, delayed, in flight, or completed and still in the
	 * in-flight record. Written under the lock; read without it by a poll, which takes
	 * the lock only if this is not 0: a push that ended before the poll began wrote it
	 * first.
	 */
	volatile int size;

	/** The most {@link #size} has been since the lane last had new arrays. */
	int peak;

	/**
	 * Delivered and not completed, for the stats (exact in the service's setting, where
	 * every completion is counted out).
	 */
	int inFlightCount;

	/** Delayed messages not yet delivered (their delay may have ended). */
	int delayedCount;

	/** Holds nothing and is not charged; the next push opens it. */
	volatile boolean closed = true;

	/** Removed for good: nothing may enter it. */
	boolean removed;

	/**
	 * Whether a thread spins for the lock (or, a producer that spun in vain, waits for it
	 * in its stead); one at a time.
	 */
	private volatile boolean spinner;

	/** Producers parked on the lock, counted when they spin for it. */
	private volatile int waitingProducers;

	/** Consumers parked on the lock, counted when they spin for it. */
	private volatile int waitingConsumers;

	LockedLane(String name, Lock lock, boolean indexed) {
		super(name);
		this.lock = lock;
		this.index = indexed ? IdIndex.keyed() : IdIndex.none();
	}

	boolean isEmpty() {
		return this.size == 0;
	}

	void resize(int delta) {
		int now = this.size + delta;
		this.size = now;
		if (now > this.peak) {
			this.peak = now;
		}
	}

	/** On closing, empty: arrays and index of the default size again. */
	void shrink() {
		this.ready = new ArrayDeque<>();
		this.inFlight = new LockedInFlight();
		if (this.index != IdIndex.<LaneMessage>none()) {
			this.index = IdIndex.keyed();
		}
		this.peak = 0;
	}

	/**
	 * Locks the lane for a push. Spinning ({@code spins}), when the lane is nearly empty
	 * (its consumers are ahead), the one producer that finds no other producer waiting
	 * spins for the lock a while before it parks.
	 */
	void lockToPush(boolean spins) {
		if (!spins) {
			this.lock.lock();
			return;
		}
		if (this.lock.tryLock()) {
			return;
		}
		if (this.size <= BEHIND && this.waitingProducers == 0 && claimSpin()) {
			try {
				for (int tries = 1; !this.lock.tryLock(); tries++) {
					if (tries == PRODUCER_SPINS) {
						this.lock.lock();
						return;
					}
					Thread.onSpinWait();
				}
			}
			finally {
				this.spinner = false;
			}
			return;
		}
		WAITING_PRODUCERS.getAndAdd(this, 1);
		this.lock.lock();
		WAITING_PRODUCERS.getAndAdd(this, -1);
	}

	/**
	 * Locks the lane for a poll, or returns {@code false} having found it empty. Spinning
	 * ({@code spins}), when the lane holds a backlog (its consumers are behind), the one
	 * consumer that finds no other consumer waiting never parks: it spins, yields the
	 * processor now and then, and gives up once the lane is empty (an empty poll,
	 * linearized at that read; having just yielded, the caller yields no more).
	 */
	boolean lockToTake(boolean spins) {
		if (!spins) {
			this.lock.lock();
			return true;
		}
		if (this.lock.tryLock()) {
			return true;
		}
		if (this.size > BEHIND && this.waitingConsumers == 0 && claimSpin()) {
			try {
				for (int tries = 1; !this.lock.tryLock(); tries++) {
					if (tries % CONSUMER_SPINS_PER_YIELD != 0) {
						Thread.onSpinWait();
						continue;
					}
					Thread.yield();
					if (isEmpty()) {
						return false;
					}
				}
				return true;
			}
			finally {
				this.spinner = false;
			}
		}
		WAITING_CONSUMERS.getAndAdd(this, 1);
		this.lock.lock();
		WAITING_CONSUMERS.getAndAdd(this, -1);
		return true;
	}

	/** Whether this thread became the lane's one spinner. */
	private boolean claimSpin() {
		return !this.spinner && SPINNER.compareAndSet(this, false, true);
	}

	/** Under the lock, which a push that finds it removed holds too. */
	@Override
	boolean removeIfClosed() {
		this.lock.lock();
		try {
			if (!this.closed || this.removed) {
				return false;
			}
			this.removed = true;
			return true;
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public boolean isOpen() {
		return !this.closed;
	}

	@Override
	public QueueStats stats(long nowMillis) {
		this.lock.lock();
		try {
			if (this.closed || this.size == 0) {
				return null;
			}
			int due = (this.delayedCount > 0) ? this.inFlight.delayEnded(nowMillis) : 0;
			return new QueueStats(this.name, this.ready.size() + due, this.inFlightCount, this.delayedCount - due);
		}
		finally {
			this.lock.unlock();
		}
	}

	/** Under the lock: its ready queue's head, or a lapsed in-flight entry. */
	boolean hasReady(long nowMillis) {
		if (isEmpty()) {
			return false;
		}
		this.lock.lock();
		try {
			return !this.ready.isEmpty() || this.inFlight.anyLapsed(nowMillis);
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Under the lock, as a poll: the in-flight record first (lapsed leases are what a
	 * poll delivers first), then the ready queue, into {@code seen} until it holds
	 * {@code max}.
	 */
	void browse(long nowMillis, List<Peeked> seen, int max) {
		if (isEmpty()) {
			return;
		}
		this.lock.lock();
		try {
			if (this.inFlight.browse(this.inFlight.snapshot(), nowMillis, seen, max)) {
				return;
			}
			for (LaneMessage message : this.ready) {
				if (LanesView.see(seen, new Peeked(message, Peeked.State.READY, 0), max)) {
					return;
				}
			}
		}
		finally {
			this.lock.unlock();
		}
	}

}
