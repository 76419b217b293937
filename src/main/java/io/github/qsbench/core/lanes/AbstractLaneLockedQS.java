package io.github.qsbench.core.lanes;

import io.github.qsbench.core.ByIdOutcome;
import io.github.qsbench.core.CapacityExceededException;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.Lease;
import io.github.qsbench.core.Message;
import io.github.qsbench.core.Peeked;
import io.github.qsbench.core.QueueOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.Lock;
import java.util.function.Supplier;

/**
 * Messages in flight kept apart from ready ones (thesis 5.2.3.1), with one lock per queue
 * (a {@link LockedLane}) instead of lock-free structures: the outline of
 * {@link AbstractLanesQS} where everything a queue holds is touched under its own lock,
 * so it lives in plain arrays: a ready {@link java.util.ArrayDeque}, the locked variant
 * of the in-flight record ({@link LockedInFlight}), whose entries are the messages
 * themselves ({@link LaneMessage}, which carries its lease end), and an index by id per
 * lane ({@link io.github.qsbench.core.shared.IdIndex#none()} without id lookup).
 *
 * <p>
 * Exactly-once, as long as consumers complete within their lease: a message is taken from
 * the ready queue, or redelivered from the in-flight record, only under the lane's lock;
 * a completion by id holds it too; the thesis's completion of a message it holds takes
 * none, and is decided against a redelivery by one compare-and-set of the message's word.
 * A push takes one uncontended lock in the common case, a poll that finds its queue empty
 * reads one volatile count and takes none, a delivery allocates nothing. A lane holding
 * nothing closes and is retired ({@link AbstractLanesQS#retire}); locks are taken one at
 * a time, never nested. The arguments, and what was tried and dropped:
 * docs/design/lanes.md.
 */
public abstract class AbstractLaneLockedQS extends AbstractLanesQS<LockedLane, LaneMessage> {

	/** A lane that held more than this many messages gets new arrays when it closes. */
	private static final int SHRINK_ABOVE = 1024;

	private final Supplier<? extends Lock> locks;

	/** {@link Waiting#SIDE_BEHIND_SPINS}. */
	private final boolean sideBehindSpins;

	/**
	 * @param locks makes each new queue's lock, a mutual exclusion one
	 * @param waiting how a thread waits for a lane's lock that another thread holds
	 */
	protected AbstractLaneLockedQS(Supplier<? extends Lock> locks, Waiting waiting, QueueOptions options) {
		super(options);
		this.locks = Objects.requireNonNull(locks, "locks");
		this.sideBehindSpins = Objects.requireNonNull(waiting, "waiting") == Waiting.SIDE_BEHIND_SPINS;
	}

	@Override
	LaneMessage newMessage(long id, String queue, byte[] body) {
		return new LaneMessage(id, body);
	}

	/**
	 * The named lane, locked, not removed and admitting {@code count} more messages
	 * (opened if it was closed; a new one is made closed). If a cap refuses them, the
	 * lane is unlocked (and dropped if this call made it).
	 */
	@Override
	LockedLane admit(String name, int count) {
		LockedLane lane = lockedLane(name);
		try {
			checkRoom(lane.size, count, this.maxPerQueue);
			if (lane.closed) {
				this.ledger.openQueue(count);
				lane.closed = false;
			}
			return lane;
		}
		catch (CapacityExceededException ex) {
			dropIfUnused(lane);
			lane.lock.unlock();
			throw ex;
		}
	}

	/**
	 * The named lane, locked and not removed; a new one is made closed, for
	 * {@link #admit} to open.
	 */
	private LockedLane lockedLane(String name) {
		while (true) {
			LockedLane lane = this.lanes.get(name);
			if (lane == null) {
				lane = this.lanes.computeIfAbsent(name, n -> new LockedLane(n, this.locks.get(), this.idLookup));
			}
			lane.lockToPush(this.sideBehindSpins);
			if (!lane.removed) {
				return lane;
			}
			lane.lock.unlock();
			// removed for good: its remover takes it out of the map, or this push does
			this.lanes.remove(name, lane);
		}
	}

	/**
	 * A delayed message waits in the in-flight record's sorted part, its delay's end as
	 * its lease end.
	 */
	@Override
	void add(LockedLane lane, LaneMessage message, long dueMillis) {
		if (dueMillis == 0) {
			lane.ready.addLast(message);
		}
		else {
			message.delayUntil(dueMillis);
			lane.inFlight.addSorted(message);
			lane.delayedCount++;
		}
		lane.index.put(message.id(), message);
		lane.resize(1);
	}

	@Override
	void admitted(LockedLane lane) {
		lane.lock.unlock();
	}

	/**
	 * Under the lane's lock, after a refused push: a lane that the push made and that
	 * holds nothing goes at once, so refused pushes to new names leave nothing behind.
	 */
	private void dropIfUnused(LockedLane lane) {
		if (lane.closed && lane.size == 0 && !lane.isInRing()) {
			lane.removed = true;
			this.lanes.remove(lane.name, lane);
		}
	}

	@Override
	public Optional<Message> poll(String queue) {
		LockedLane lane = lockedToTake(queue);
		if (lane == null) {
			return Optional.empty();
		}
		LaneMessage message;
		try {
			message = grab(lane, this.clock.millis(), this.leaseMillis);
		}
		finally {
			unlock(lane);
		}
		if (message == null) {
			foundNothing();
		}
		return Optional.ofNullable(message);
	}

	@Override
	public List<Lease> lease(String queue, int max, long leaseMillis) {
		QueueOptions.requireIdLookup(this.idLookup);
		LockedLane lane = lockedToTake(queue);
		if (lane == null) {
			return List.of();
		}
		List<Lease> leases = new ArrayList<>(Math.min(max, 16));
		long now = this.clock.millis();
		try {
			LaneMessage message;
			while (leases.size() < max && (message = grab(lane, now, leaseMillis)) != null) {
				leases.add(new Lease(message, message.deliveries()));
			}
		}
		finally {
			unlock(lane);
		}
		if (leases.isEmpty()) {
			foundNothing();
		}
		return leases;
	}

	/**
	 * The named lane, locked for a poll or a lease; {@code null} if it holds nothing (the
	 * caller found nothing, and has yielded where {@link Waiting} asks it to).
	 */
	private LockedLane lockedToTake(String name) {
		LockedLane lane = this.lanes.get(name);
		if (lane == null || lane.isEmpty()) {
			foundNothing();
			return null;
		}
		return lane.lockToTake(this.sideBehindSpins) ? lane : null;
	}

	/**
	 * After a poll or lease that found nothing: with {@link Waiting#SIDE_BEHIND_SPINS}
	 * the consumer yields the processor, since a caller that found nothing is about to
	 * ask again, and the producer it waits for may be waiting for a processor.
	 */
	private void foundNothing() {
		if (this.sideBehindSpins) {
			Thread.yield();
		}
	}

	/**
	 * Under the lane's lock: drops completed messages from the heads of the in-flight
	 * records, delivers a head again if its lease ended, otherwise takes the ready
	 * queue's head.
	 */
	private LaneMessage grab(LockedLane lane, long now, long leaseMillis) {
		LaneMessage lapsed = redeliverLapsed(lane, lane.inFlight, now, leaseMillis);
		if (lapsed != null) {
			return lapsed;
		}
		LaneMessage message = lane.ready.pollFirst();
		if (message != null) {
			message.deliverFirst(now + leaseMillis);
			track(lane.inFlight, message, leaseMillis);
			lane.inFlightCount++;
		}
		return message;
	}

	/** Under the lane's lock. */
	@Override
	void delayEnded(LockedLane lane, boolean delivered) {
		lane.delayedCount--;
		assert lane.delayedCount >= 0 : "more delays ended than began in " + lane.name;
		if (delivered) {
			lane.inFlightCount++;
		}
	}

	@Override
	LockedLane guardById(String queue) {
		LockedLane lane = this.lanes.get(queue);
		if (lane != null) {
			lane.lock.lock();
		}
		return lane;
	}

	@Override
	void release(LockedLane lane) {
		unlock(lane); // closes the lane if a discard emptied it
	}

	@Override
	final LaneMessage find(LockedLane lane, long id) {
		return lane.index.get(id);
	}

	@Override
	void forgotten(LockedLane lane, LaneMessage message) {
		lane.index.remove(message.id(), message);
		this.ledger.completed();
	}

	/** One entry a message at most; a delayed one's is in the sorted part. */
	@Override
	boolean untrack(LockedLane lane, LaneMessage message, int delivery) {
		if (delivery == 0) {
			return message.leaseEnd() != 0 && lane.inFlight.sorted != null && lane.inFlight.sorted.remove(message);
		}
		return lane.inFlight.removeEntryOf(message);
	}

	/** A scan of the ready queue, as far as the message's position. */
	@Override
	boolean dropReady(LockedLane lane, LaneMessage message) {
		return lane.ready.removeFirstOccurrence(message);
	}

	/** The message is its own entry; completions by id hold the lock too. */
	@Override
	ByIdOutcome trackAgain(LockedLane lane, LaneMessage message, int delivery, long leaseEnd, boolean ownLease) {
		ByIdOutcome change = message.changeLease(delivery, leaseEnd);
		lane.inFlight.track(message, ownLease);
		return change;
	}

	@Override
	void readyNow(LockedLane lane, LaneMessage message) {
		message.delayUntil(0);
		lane.ready.addLast(message);
	}

	/**
	 * Counted out only if this call takes its entry: a poll may have dropped it first, or
	 * the lane be another of that name (the in-flight count is an upper bound here).
	 */
	@Override
	void evictCompleted(String queue, LaneMessage message) {
		LockedLane lane = this.lanes.get(queue);
		if (lane != null) {
			lane.lock.lock();
			try {
				if (lane.inFlight.removeEntryOf(message)) {
					lane.inFlightCount--;
					assert lane.inFlightCount >= 0 : "completed more than were delivered in " + lane.name;
					this.ledger.completed();
					evict(lane, message);
				}
			}
			finally {
				unlock(lane);
			}
		}
	}

	/**
	 * Under the lane's lock: finds the message in the lane's index, completes it (the
	 * compare-and-set that decides against a redelivery), and drops it from the in-flight
	 * record, at once if it is at the head (or, eagerly, wherever it is).
	 */
	@Override
	Completion completeIn(LockedLane lane, long id, int delivery) {
		lane.lock.lock();
		try {
			LaneMessage message = lane.index.get(id);
			if (message == null) {
				return Completion.NOT_FOUND;
			}
			Completion completion = message.complete(delivery);
			if (completion == Completion.COMPLETED) {
				completed(lane, message);
			}
			return completion;
		}
		finally {
			unlock(lane);
		}
	}

	/** Under the lane's lock. */
	@Override
	final void completed(LockedLane lane, LaneMessage message) {
		lane.index.remove(message.id(), message);
		lane.inFlightCount--;
		assert lane.inFlightCount >= 0 : "completed more than were delivered in " + lane.name;
		this.ledger.completed();
		dropCompleted(lane, lane.inFlight, message);
	}

	/** Under the lane's lock: a completed message left memory. */
	@Override
	void evict(LockedLane lane, LaneMessage message) {
		lane.resize(-1);
		this.ledger.evicted(message.body());
	}

	/**
	 * Releases the lane's lock after a poll or a completion, closing the lane first if
	 * that left it holding nothing, and then retiring it: {@link #retire} takes another
	 * lane's lock, so it runs once this one is released.
	 */
	private void unlock(LockedLane lane) {
		boolean closed;
		try {
			closed = closeIfEmpty(lane);
		}
		finally {
			lane.lock.unlock();
		}
		if (closed) {
			retire(lane);
		}
	}

	/**
	 * Under the lane's lock: closes a lane that holds nothing any more.
	 * @return whether this call closed it
	 */
	private boolean closeIfEmpty(LockedLane lane) {
		if (lane.size != 0 || lane.closed) {
			return false;
		}
		lane.closed = true;
		this.ledger.closeQueue();
		if (lane.peak > SHRINK_ABOVE) {
			lane.shrink();
		}
		return true;
	}

	@Override
	boolean hasReadyIn(LockedLane lane, long nowMillis) {
		return lane.hasReady(nowMillis);
	}

	@Override
	void browse(LockedLane lane, long nowMillis, List<Peeked> seen, int max) {
		lane.browse(nowMillis, seen, max);
	}

}
