package io.github.qsbench.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Queue;
import java.util.concurrent.locks.Lock;
import java.util.function.Supplier;

/**
 * Messages in flight kept apart from ready ones (thesis 5.2.3.1), with one lock per queue
 * (a {@link LockedLane}) instead of lock-free structures: the outline of
 * {@link AbstractLanesQS} where everything a queue holds is touched under its own lock,
 * so it can live in plain arrays. A lane has
 * <ul>
 * <li>a ready queue and an in-flight record, both {@link ArrayDeque}s (array rings: no
 * node per message, no record per delivery); a message's lease expiry lives in the
 * message ({@link LaneMessage});</li>
 * <li>an index of its messages by id ({@link IdIndex#plain()}; {@link IdIndex#none()}
 * without id lookup), so a queue's index leaves memory with the queue.</li>
 * </ul>
 *
 * <p>
 * <b>Why it is exactly-once</b> (as long as consumers complete within their lease): a
 * message is taken from the ready queue, and redelivered from the in-flight record's
 * head, only under the lane's lock, so by one poll at a time. A completion by id holds
 * the lock too (it looks in the lane's index); the thesis's completion of a message it
 * holds takes none: it is a compare-and-set of the word that also holds the message's
 * delivery number, and a redelivery is a compare-and-set of the same word, so of a
 * completion and a redelivery of one delivery exactly one wins. Deliveries under the
 * service's lease all have the same length, so their leases end in the order of the
 * in-flight record, and a poll looks at its head only: O(1), however many messages are in
 * flight. A delivery under a lease of its own (asked for by the poll, or changed since)
 * waits in a second record sorted by the end of its lease ({@link LockedLane#timed}, made
 * when first needed): O(log n) for those, and nothing for a queue that never has one.
 *
 * <p>
 * <b>Why it is fast where the thesis's strategies are not.</b> A push reads the map of
 * lanes and takes one uncontended lock in the common case (no {@code compute} on the
 * map); a poll that finds its queue empty reads one volatile count and takes no lock; a
 * delivery costs no allocation; a completion in the thesis's setting is one
 * compare-and-set. Tried and dropped (JMH, same run): every waiter spinning on a held
 * lock before parking, and a count of ready messages alone for the lock-free check, which
 * needs the completion to flag its queue; both cost a third to a half of the delivered
 * messages in the setups 1-1 and 4-4. Spinning pays only for the lone thread of the side
 * that is behind, which is what {@link Waiting#SIDE_BEHIND_SPINS} does.
 *
 * <p>
 * <b>Memory and queues.</b> A completed message leaves memory when it is dropped from the
 * in-flight head (at the next poll of its queue, or at its completion by id if it is at
 * the head), or at once with {@link Eviction#EAGER}. When a lane holds nothing any more
 * it closes (the queue no longer exists, nor counts, nor is charged); it stays in the map
 * a while ({@link AbstractLanesQS#retire}), where the next push reopens it under its
 * lock; one removed for good is never reopened. A lane that closes after holding many
 * messages gets new, small arrays and index, since neither shrinks.
 *
 * <p>
 * Locks are taken one at a time, never nested, so no order between them is needed.
 */
public abstract class AbstractLaneLockedQS extends AbstractLanesQS<AbstractLaneLockedQS.LockedLane, LaneMessage> {

	/** A lane that held more than this many messages gets new arrays when it closes. */
	private static final int SHRINK_ABOVE = 1024;

	/**
	 * {@link Waiting#SIDE_BEHIND_SPINS}: a lane holding more messages than this has
	 * consumers behind its producers; one holding this many or fewer, producers behind.
	 */
	private static final int BEHIND = 64;

	/** {@link Waiting#SIDE_BEHIND_SPINS}: tries of a producer before it parks. */
	private static final int PRODUCER_SPINS = 64;

	/** {@link Waiting#SIDE_BEHIND_SPINS}: tries of a consumer between two yields. */
	private static final int CONSUMER_SPINS_PER_YIELD = 64;

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

	/** How a thread waits for a lane's lock that another thread holds. */
	public enum Waiting {

		/** It parks in the lock's queue ({@link Lock#lock()}), as any thread would. */
		PARK,

		/**
		 * The side that is behind gets the lock first. A lane holding more than
		 * {@value AbstractLaneLockedQS#BEHIND} messages has consumers behind its
		 * producers: there one consumer at a time spins for the lock instead of parking,
		 * and yields the processor between rounds of spins; in a lane holding fewer, one
		 * producer at a time spins a while. Every other waiter parks, and a poll that
		 * found nothing yields the processor. Why: with more threads than processors, a
		 * parked thread loses its processor until its unparker's unlock and the scheduler
		 * give it back (tens of microseconds to milliseconds), so whoever parks falls
		 * further behind, while the thread that spins takes the lock the moment it is
		 * free. The lone thread of the lagging side (the one producer of four consumers,
		 * the one consumer of four producers) is the one that should not wait; a crowd
		 * that spun would burn the processors it shares, so only one spinner per lane,
		 * and none while another thread of its side is parked.
		 */
		SIDE_BEHIND_SPINS

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
			lockToPush(lane);
			if (!lane.removed) {
				return lane;
			}
			lane.lock.unlock();
			// removed for good: its remover takes it out of the map, or this push does
			this.lanes.remove(name, lane);
		}
	}

	/** A delayed message waits in the sorted record, its delay's end as its lease end. */
	@Override
	void add(LockedLane lane, LaneMessage message, long dueMillis) {
		if (dueMillis == 0) {
			lane.ready.addLast(message);
		}
		else {
			message.delayUntil(dueMillis);
			lane.timed().add(message);
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
		this.ledger.requireIdLookup();
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
	 * Locks the lane for a push. With {@link Waiting#SIDE_BEHIND_SPINS}, when the lane is
	 * nearly empty (its consumers are ahead), the one producer that finds no other
	 * producer waiting spins for the lock a while before it parks.
	 */
	private void lockToPush(LockedLane lane) {
		if (!this.sideBehindSpins) {
			lane.lock.lock();
			return;
		}
		if (lane.lock.tryLock()) {
			return;
		}
		if (lane.size <= BEHIND && lane.waitingProducers == 0 && lane.claimSpin()) {
			try {
				for (int spins = 1; !lane.lock.tryLock(); spins++) {
					if (spins == PRODUCER_SPINS) {
						lane.lock.lock();
						return;
					}
					Thread.onSpinWait();
				}
			}
			finally {
				lane.spinner = false;
			}
			return;
		}
		LockedLane.WAITING_PRODUCERS.getAndAdd(lane, 1);
		lane.lock.lock();
		LockedLane.WAITING_PRODUCERS.getAndAdd(lane, -1);
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
		return lockToTake(lane) ? lane : null;
	}

	/**
	 * Locks the lane for a poll, or returns {@code false} having found it empty. With
	 * {@link Waiting#SIDE_BEHIND_SPINS}, when the lane holds a backlog (its consumers are
	 * behind), the one consumer that finds no other consumer waiting never parks: it
	 * spins, yields the processor now and then, and gives up once the lane is empty (an
	 * empty poll, linearized at that read; having just yielded, it skips
	 * {@link #foundNothing}).
	 */
	private boolean lockToTake(LockedLane lane) {
		if (!this.sideBehindSpins) {
			lane.lock.lock();
			return true;
		}
		if (lane.lock.tryLock()) {
			return true;
		}
		if (lane.size > BEHIND && lane.waitingConsumers == 0 && lane.claimSpin()) {
			try {
				for (int spins = 1; !lane.lock.tryLock(); spins++) {
					if (spins % CONSUMER_SPINS_PER_YIELD != 0) {
						Thread.onSpinWait();
						continue;
					}
					Thread.yield();
					if (lane.isEmpty()) {
						return false;
					}
				}
				return true;
			}
			finally {
				lane.spinner = false;
			}
		}
		LockedLane.WAITING_CONSUMERS.getAndAdd(lane, 1);
		lane.lock.lock();
		LockedLane.WAITING_CONSUMERS.getAndAdd(lane, -1);
		return true;
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
		LaneMessage lapsed = redeliverHead(lane, now, leaseMillis);
		if (lapsed == null && lane.timed != null) {
			lapsed = redeliverTimed(lane, now, leaseMillis);
		}
		if (lapsed != null) {
			return lapsed;
		}
		LaneMessage message = lane.ready.pollFirst();
		if (message != null) {
			message.deliverFirst(now + leaseMillis);
			track(lane, message, leaseMillis);
			lane.inFlightCount++;
		}
		return message;
	}

	/**
	 * Under the lane's lock: drops completed messages from the head of the in-flight
	 * record in delivery order and delivers its head again if its lease ended.
	 * @return the message delivered again, or {@code null}
	 */
	private LaneMessage redeliverHead(LockedLane lane, long now, long leaseMillis) {
		LaneMessage head;
		while ((head = lane.inFlight.peekFirst()) != null) {
			long expiry = head.expiry();
			if (expiry > now && expiry != Long.MAX_VALUE) {
				return null; // in flight
			}
			lane.inFlight.pollFirst();
			// completed, or completed since its expiry was read, if the redelivery fails
			if (expiry != Long.MAX_VALUE && head.redeliver(now + leaseMillis)) {
				track(lane, head, leaseMillis);
				return head;
			}
			evict(lane, head);
		}
		return null;
	}

	/**
	 * Under the lane's lock: as {@link #redeliverHead} for the sorted record, whose head
	 * may also be a delayed message whose delay ended: then delivered for the first time.
	 * (A discarded delayed message leaves the record at once, so one found here is not
	 * completed.)
	 */
	private LaneMessage redeliverTimed(LockedLane lane, long now, long leaseMillis) {
		LaneMessage head;
		while ((head = lane.timed.peek()) != null) {
			boolean completed = head.isCompleted();
			if (!completed && head.leaseEnd() > now) {
				return null; // in flight, or delayed
			}
			lane.timed.poll();
			if (!completed && head.deliveries() == 0) {
				head.deliverFirst(now + leaseMillis);
				lane.delayedCount--;
				lane.inFlightCount++;
				track(lane, head, leaseMillis);
				return head;
			}
			if (!completed && head.redeliver(now + leaseMillis)) {
				track(lane, head, leaseMillis);
				return head;
			}
			evict(lane, head);
		}
		return null;
	}

	/**
	 * Under the lane's lock: records a delivery, in the order of deliveries if its lease
	 * is the service's, else in the record sorted by lease end.
	 */
	private void track(LockedLane lane, LaneMessage message, long leaseMillis) {
		if (leaseMillis == this.leaseMillis) {
			lane.inFlight.addLast(message);
		}
		else {
			lane.timed().add(message);
		}
	}

	/**
	 * Under the lane's lock: a delayed message leaves the sorted record for the ready
	 * queue's tail.
	 */
	@Override
	boolean endDelayIn(LockedLane lane, long id) {
		lane.lock.lock();
		try {
			LaneMessage message = lane.index.get(id);
			if (message == null || message.isCompleted() || message.deliveries() > 0 || message.leaseEnd() == 0) {
				return false;
			}
			lane.timed.remove(message);
			lane.delayedCount--;
			message.delayUntil(0);
			lane.ready.addLast(message);
			return true;
		}
		finally {
			lane.lock.unlock();
		}
	}

	/**
	 * Under the lane's lock, as a completion by id: a message never delivered leaves the
	 * ready queue (a scan, as far as its position) or, delayed, the sorted record, and
	 * memory at once; a delivered one is completed and dropped as a completion drops it.
	 */
	@Override
	Completion discardIn(LockedLane lane, long id) {
		lane.lock.lock();
		try {
			LaneMessage message = lane.index.get(id);
			if (message == null) {
				return Completion.NOT_FOUND;
			}
			boolean delayed = message.deliveries() == 0 && message.leaseEnd() != 0;
			int deliveries = message.discard();
			if (deliveries > 0) {
				dropCompleted(lane, message);
				return Completion.COMPLETED;
			}
			if (delayed) {
				lane.timed.remove(message);
				lane.delayedCount--;
			}
			else {
				lane.ready.removeFirstOccurrence(message);
			}
			lane.index.remove(id, message);
			this.ledger.completed();
			evict(lane, message);
			return Completion.COMPLETED;
		}
		finally {
			unlock(lane);
		}
	}

	/**
	 * Under the lane's lock, as a completion by id: the message leaves its record (a
	 * scan, as far as its position) and enters it again where its new lease end sorts it.
	 */
	@Override
	LeaseChange changeLeaseIn(LockedLane lane, long id, int delivery, long leaseMillis) {
		lane.lock.lock();
		try {
			LaneMessage message = lane.index.get(id);
			if (message == null) {
				return LeaseChange.NOT_FOUND;
			}
			Completion verdict = Completion.decide(message.isCompleted(), message.deliveries(), delivery);
			if (verdict != Completion.COMPLETED) {
				return LeaseChange.of(verdict);
			}
			if (!lane.inFlight.removeFirstOccurrence(message)) {
				lane.timed.remove(message);
			}
			// every completion by id holds this lock, so nothing changed since the
			// verdict
			LeaseChange change = message.changeLease(delivery, this.clock.millis() + leaseMillis);
			track(lane, message, leaseMillis);
			return change;
		}
		finally {
			lane.lock.unlock();
		}
	}

	@Override
	void evictCompleted(String queue, LaneMessage message) {
		// still held, so its lane is in the map, unless the caller named another queue
		LockedLane lane = this.lanes.get(queue);
		if (lane != null) {
			lane.lock.lock();
			try {
				dropCompleted(lane, message);
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
				dropCompleted(lane, message);
			}
			return completion;
		}
		finally {
			unlock(lane);
		}
	}

	/**
	 * Under the lane's lock, for a message just completed: out of the index and the
	 * counts; out of memory if it is the head of its in-flight record (or, eagerly,
	 * anywhere in it); otherwise it waits there for the head to reach it.
	 */
	private void dropCompleted(LockedLane lane, LaneMessage message) {
		lane.index.remove(message.id(), message);
		lane.inFlightCount--;
		this.ledger.completed();
		if (this.eager) {
			if (lane.inFlight.removeFirstOccurrence(message) || (lane.timed != null && lane.timed.remove(message))) {
				evict(lane, message);
			}
		}
		else {
			dropCompletedHeads(lane, lane.inFlight);
			if (lane.timed != null) {
				dropCompletedHeads(lane, lane.timed);
			}
		}
	}

	private void dropCompletedHeads(LockedLane lane, Queue<LaneMessage> record) {
		LaneMessage head;
		while ((head = record.peek()) != null && head.isCompleted()) {
			record.poll();
			evict(lane, head);
		}
	}

	/** Under the lane's lock: a completed message left memory. */
	private void evict(LockedLane lane, LaneMessage message) {
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
	public boolean hasReady(String name) {
		LockedLane lane = this.lanes.get(name);
		if (lane == null || lane.isEmpty()) {
			return false;
		}
		long now = this.clock.millis();
		lane.lock.lock();
		try {
			if (!lane.ready.isEmpty()) {
				return true;
			}
			for (LaneMessage message : lane.inFlight) {
				long expiry = message.expiry();
				if (expiry != Long.MAX_VALUE) {
					if (expiry <= now) {
						return true;
					}
					break;
				}
			}
			if (lane.timed != null) {
				for (LaneMessage message : lane.timed) {
					if (!message.isCompleted() && message.leaseEnd() <= now) {
						return true;
					}
				}
			}
			return false;
		}
		finally {
			lane.lock.unlock();
		}
	}

	/**
	 * Under the lane's lock, as a poll: the in-flight record first (lapsed leases are
	 * what a poll delivers first), then the ready queue, {@code max} messages at most.
	 */
	@Override
	public List<Peeked> peek(String name, int max) {
		LockedLane lane = this.lanes.get(name);
		List<Peeked> seen = new ArrayList<>(Math.min(max, 16));
		if (lane == null || lane.isEmpty()) {
			return seen;
		}
		long now = this.clock.millis();
		lane.lock.lock();
		try {
			List<LaneMessage> delivered = new ArrayList<>(lane.inFlight);
			if (lane.timed != null) {
				List<LaneMessage> timed = new ArrayList<>(lane.timed);
				timed.sort(LockedLane.BY_LEASE_END);
				delivered.addAll(timed);
			}
			for (LaneMessage message : delivered) {
				if (message.isCompleted()) {
					continue;
				}
				int deliveries = message.deliveries();
				Peeked.State state = (message.leaseEnd() <= now) ? Peeked.State.READY
						: (deliveries > 0) ? Peeked.State.IN_FLIGHT : Peeked.State.DELAYED;
				if (see(seen, new Peeked(message, state, deliveries), max)) {
					return seen;
				}
			}
			for (LaneMessage message : lane.ready) {
				if (see(seen, new Peeked(message, Peeked.State.READY, 0), max)) {
					return seen;
				}
			}
			return seen;
		}
		finally {
			lane.lock.unlock();
		}
	}

	/**
	 * One named queue of this framework. Every field but {@link #size}, {@link #closed}
	 * and the ring's flag is read and written only under {@link #lock}; those three are
	 * also read without it (a poll's emptiness check, the queue count, the retirement).
	 */
	static final class LockedLane extends QueueLane {

		static final Comparator<LaneMessage> BY_LEASE_END = Comparator.comparingLong(LaneMessage::leaseEnd);

		static final VarHandle SPINNER = VarHandles.field(MethodHandles.lookup(), "spinner", boolean.class);

		static final VarHandle WAITING_PRODUCERS = VarHandles.field(MethodHandles.lookup(), "waitingProducers",
				int.class);

		static final VarHandle WAITING_CONSUMERS = VarHandles.field(MethodHandles.lookup(), "waitingConsumers",
				int.class);

		final Lock lock;

		ArrayDeque<LaneMessage> ready = new ArrayDeque<>();

		/**
		 * Messages delivered under the service's lease, in the order of their deliveries
		 * (so of their lease ends), completed ones among them.
		 */
		ArrayDeque<LaneMessage> inFlight = new ArrayDeque<>();

		/**
		 * Messages delivered under a lease of their own, sorted by its end (which only
		 * changes while a message is out of it), completed ones among them; {@code null}
		 * until the first.
		 */
		PriorityQueue<LaneMessage> timed;

		/** Messages by id ({@link IdIndex#none()} without id lookup). */
		IdIndex<LaneMessage> index;

		/**
		 * Messages in memory: ready, in flight, or completed and still in the in-flight
		 * record. Written under the lock; read without it by a poll, which takes the lock
		 * only if this is not 0: a push that ended before the poll began wrote it first.
		 */
		volatile int size;

		/** The most {@link #size} has been since the lane last had new arrays. */
		int peak;

		/**
		 * Delivered and not completed, for the stats (exact in the service's setting,
		 * where every completion is counted out).
		 */
		int inFlightCount;

		/** Delayed messages not yet delivered (their delay may have ended). */
		int delayedCount;

		/** Holds nothing and is not charged; the next push opens it. */
		volatile boolean closed = true;

		/** Removed for good: nothing may enter it. */
		boolean removed;

		/**
		 * {@link Waiting#SIDE_BEHIND_SPINS}: whether a thread spins for the lock (or, a
		 * producer that spun in vain, waits for it in its stead); one at a time.
		 */
		volatile boolean spinner;

		/** {@link Waiting#SIDE_BEHIND_SPINS}: producers parked on the lock. */
		volatile int waitingProducers;

		/** {@link Waiting#SIDE_BEHIND_SPINS}: consumers parked on the lock. */
		volatile int waitingConsumers;

		LockedLane(String name, Lock lock, boolean indexed) {
			super(name);
			this.lock = lock;
			this.index = indexed ? IdIndex.plain() : IdIndex.none();
		}

		boolean isEmpty() {
			return this.size == 0;
		}

		PriorityQueue<LaneMessage> timed() {
			if (this.timed == null) {
				this.timed = new PriorityQueue<>(BY_LEASE_END);
			}
			return this.timed;
		}

		/** Whether this thread became the lane's one spinner. */
		boolean claimSpin() {
			return !this.spinner && SPINNER.compareAndSet(this, false, true);
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
			this.inFlight = new ArrayDeque<>();
			this.timed = null;
			if (this.index != IdIndex.<LaneMessage>none()) {
				this.index = IdIndex.plain();
			}
			this.peak = 0;
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
				int due = 0;
				if (this.delayedCount > 0) {
					for (LaneMessage message : this.timed) {
						due += (message.deliveries() == 0 && message.leaseEnd() <= nowMillis) ? 1 : 0;
					}
				}
				return new QueueStats(this.name, this.ready.size() + due, Math.max(0, this.inFlightCount),
						this.delayedCount - due);
			}
			finally {
				this.lock.unlock();
			}
		}

	}

}
