package io.github.qsbench.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.function.Supplier;

/**
 * The framework the thesis proposes in section 5.2.3.1, lock-free: messages in flight are
 * kept apart from ready ones, so a poll looks at two heads instead of walking past every
 * leased message. The outline is {@link AbstractLanesQS}'s; what guards a queue here is
 * no lock but compare-and-sets, on the lane's counts and on the message.
 *
 * <p>
 * Each queue (a {@link SplitLane}) has
 * <ul>
 * <li>a <em>ready queue</em>, the strategy's building block: any thread-safe
 * {@link Queue} whose {@code poll} hands each element to one caller;</li>
 * <li>an <em>in-flight record</em>, a {@link ConcurrentLinkedQueue} of
 * {@link SplitDelivery}s (message, delivery number, lease expiry) not yet dropped, in the
 * order of the deliveries. Deliveries under the service's lease all have the same length,
 * so their leases expire in that order, and a poll checks only the record's head for an
 * expired lease before it takes the ready queue's head: O(1), however many messages are
 * in flight.</li>
 * <li>a second in-flight record for deliveries under a lease of their own (asked for by
 * the poll, or changed since), a {@link ConcurrentSkipListSet} sorted by lease end, made
 * when first needed: O(log n) for those, one null check for a queue that never has
 * one.</li>
 * </ul>
 *
 * <p>
 * <b>Why it is exactly-once</b> (as long as consumers complete within their lease):
 * <ul>
 * <li>a message enters its ready queue once, and the ready queue's {@code poll} hands it
 * to one consumer: its first delivery;</li>
 * <li>a later delivery happens only by compare-and-set of the message's state from the
 * previous delivery, not completed, to the next ({@link SplitMessage#redeliver}), and
 * only once that delivery's lease has expired; completion is a compare-and-set on the
 * same state, so of a redelivery and a completion of one delivery exactly one wins;</li>
 * <li>a record is taken from an in-flight record by one claimer
 * ({@link SplitDelivery#claim}), so it is moved or dropped once; a lease change claims
 * the delivery's record and puts a new one with the same delivery number in its
 * place.</li>
 * </ul>
 * Leases expire in record order only up to the skew of the clock reads of racing polls (a
 * few milliseconds): a lapsed lease behind one that has not lapsed waits that long, never
 * less than its lease.
 *
 * <p>
 * <b>Memory and queues.</b> A completed message leaves memory when it is dropped from the
 * in-flight head: at the next poll of its queue or, in the service's setting (id lookup),
 * at its completion if it is at the head; one behind a message still in flight waits for
 * it, and stays charged to the caps until then, as with {@link AbstractQS}'s lazy
 * eviction. With {@link Eviction#EAGER} a completion removes its message from the record
 * at once (a scan as far as its position, like {@code AbstractQS}'s). Each lane counts
 * the messages it holds; the eviction that brings the count to zero closes the lane by
 * compare-and-set: the queue no longer exists (nor counts, nor is charged). A closed lane
 * stays in the map a while ({@link AbstractLanesQS#retire}), where a push reopens it by
 * compare-and-set; one removed for good is never reopened, and a push that finds it makes
 * another. So no push can land in a removed queue, and pushes only read the map (thesis
 * 5.2.3.3) unless a queue name is new or long unused.
 */
public abstract class AbstractSplitQS extends AbstractLanesQS<AbstractSplitQS.SplitLane, SplitMessage> {

	private final Supplier<Queue<SplitMessage>> readyQueues;

	/**
	 * Held messages by id, one for the service rather than one per queue, so that a queue
	 * that empties leaves no index behind; {@link IdIndex#none()} in the thesis's
	 * setting.
	 */
	private final IdIndex<SplitMessage> index;

	private static final Comparator<SplitMessage> BY_ID = Comparator.comparingLong(SplitMessage::id);

	/** Sorts the records of deliveries under leases of their own: at most one each. */
	private static final Comparator<SplitDelivery> BY_LEASE_END = Comparator
		.comparingLong((SplitDelivery record) -> record.leaseExpiresAtMillis)
		.thenComparingLong(record -> record.message.id())
		.thenComparingInt(record -> record.delivery);

	/** Sorts before every record: {@code ceiling} of it is the first record, if any. */
	private static final SplitDelivery FIRST = new SplitDelivery(new SplitMessage(Long.MIN_VALUE, "", new byte[0]),
			Integer.MIN_VALUE, Long.MIN_VALUE);

	/**
	 * @param readyQueues makes a new queue's ready queue; {@code poll} must hand each
	 * element to one caller, {@code offer} must accept every message (the caps bound them
	 * before it is called)
	 */
	protected AbstractSplitQS(Supplier<Queue<SplitMessage>> readyQueues, QueueOptions options) {
		super(options);
		this.readyQueues = Objects.requireNonNull(readyQueues, "readyQueues");
		this.index = this.idLookup ? IdIndex.lockFree() : IdIndex.none();
	}

	/**
	 * Hands an admitted message (counted in its lane, indexed) to its lane's ready queue.
	 * A dispatcher strategy defers it to its own thread.
	 */
	protected void enqueue(SplitLane lane, SplitMessage message) {
		lane.ready.offer(message);
	}

	/**
	 * Called when a poll found nothing ready: makes sure that every message whose push
	 * ended before this call is in its ready queue.
	 * @return whether anything may have become ready, so the poll looks again
	 */
	protected boolean flush() {
		return false;
	}

	@Override
	SplitMessage newMessage(long id, String queue, byte[] body) {
		return new SplitMessage(id, queue, body);
	}

	/**
	 * Counts {@code count} messages into the named lane, creating it if needed (inside
	 * {@code computeIfAbsent}, so a queue is charged to the caps once). The counts are
	 * the guard: nothing to release after.
	 */
	@Override
	SplitLane admit(String name, int count) {
		while (true) {
			SplitLane lane = this.lanes.get(name);
			if (lane == null) {
				lane = this.lanes.computeIfAbsent(name, n -> newLane(n, count));
			}
			int entered = lane.enter(count, this.maxPerQueue);
			if (entered == SplitLane.ENTERED) {
				return lane;
			}
			if (entered == SplitLane.CLOSED) {
				// emptied and retired, not yet removed: the queue exists again, in it
				this.ledger.openQueue(count);
				if (lane.reopen(count)) {
					return lane;
				}
				this.ledger.closeQueue();
			}
			else {
				// removed: help take it out of the map, then make another
				this.lanes.remove(name, lane);
			}
		}
	}

	private SplitLane newLane(String name, int adding) {
		this.ledger.openQueue(adding);
		return new SplitLane(name, this.readyQueues.get(), this.idLookup);
	}

	/**
	 * A delayed message waits in the sorted in-flight record as a delivery 0 whose lease
	 * is its delay, and is delivered from there for the first time.
	 */
	@Override
	void add(SplitLane lane, SplitMessage message, long dueMillis) {
		message.queuedIn(lane.name);
		this.index.put(message.id(), message);
		if (dueMillis == 0) {
			enqueue(lane, message);
		}
		else {
			SplitLane.DELAYED.getAndAdd(lane, 1);
			lane.timed().add(new SplitDelivery(message, 0, dueMillis));
		}
	}

	@Override
	void admitted(SplitLane lane) {
	}

	@Override
	public Optional<Message> poll(String queue) {
		SplitLane lane = this.lanes.get(queue);
		SplitMessage message = (lane != null) ? grab(lane, this.clock.millis(), this.leaseMillis) : null;
		if (message == null && flush()) {
			lane = this.lanes.get(queue);
			message = (lane != null) ? grab(lane, this.clock.millis(), this.leaseMillis) : null;
		}
		return Optional.ofNullable(message);
	}

	@Override
	public List<Lease> lease(String queue, int max, long leaseMillis) {
		this.ledger.requireIdLookup();
		List<Lease> leases = new ArrayList<>(Math.min(max, 16));
		SplitLane lane = this.lanes.get(queue);
		long now = this.clock.millis();
		boolean flushed = false;
		while (leases.size() < max) {
			SplitMessage message = (lane != null) ? grab(lane, now, leaseMillis) : null;
			if (message == null) {
				if (flushed || !flush()) {
					break;
				}
				flushed = true;
				lane = this.lanes.get(queue);
				continue;
			}
			leases.add(new Lease(message, message.deliveries()));
		}
		return leases;
	}

	/**
	 * Delivers a record's head again if its lease expired, dropping completed heads on
	 * the way; otherwise the ready queue's head.
	 */
	private SplitMessage grab(SplitLane lane, long now, long leaseMillis) {
		SplitMessage lapsed = redeliverHead(lane, lane.inFlight, now, leaseMillis);
		ConcurrentSkipListSet<SplitDelivery> timed = lane.timed;
		if (lapsed == null && timed != null) {
			lapsed = redeliverHead(lane, timed, now, leaseMillis);
		}
		if (lapsed != null) {
			return lapsed;
		}
		SplitMessage message;
		while ((message = lane.ready.poll()) != null && !message.deliverFirst()) {
			evicted(lane, message); // discarded while it waited
		}
		if (message == null) {
			return null;
		}
		if (lane.counted) {
			SplitLane.IN_FLIGHT.getAndAdd(lane, 1);
		}
		track(lane, new SplitDelivery(message, 1, now + leaseMillis), leaseMillis);
		return message;
	}

	/**
	 * Delivers the head of one in-flight record again if its lease expired, dropping
	 * completed heads on the way.
	 * @return the message delivered again, or {@code null}
	 */
	private SplitMessage redeliverHead(SplitLane lane, Collection<SplitDelivery> record, long now, long leaseMillis) {
		SplitDelivery head;
		while ((head = first(record)) != null) {
			SplitMessage message = head.message;
			boolean completed = message.isCompleted();
			if (head.isClaimed() || !(completed || head.expiredAt(now)) || !head.claim()) {
				// live, or claimed by another thread that moves or drops it
				return null;
			}
			takeFirst(record, head);
			boolean delayed = head.delivery == 0;
			if (delayed) {
				SplitLane.DELAYED.getAndAdd(lane, -1);
			}
			if (!completed && message.redeliver(head.delivery)) {
				if (delayed) {
					SplitLane.IN_FLIGHT.getAndAdd(lane, 1);
				}
				track(lane, new SplitDelivery(message, head.delivery + 1, now + leaseMillis), leaseMillis);
				return message;
			}
			evicted(lane, message);
		}
		return null;
	}

	/** The first element of an in-flight record, by its order, without taking it. */
	private static SplitDelivery first(Collection<SplitDelivery> record) {
		if (record instanceof ConcurrentSkipListSet<SplitDelivery> sorted) {
			return sorted.ceiling(FIRST);
		}
		return ((Queue<SplitDelivery>) record).peek();
	}

	/**
	 * Takes out the first element of an in-flight record, which the caller claimed (so
	 * nobody else takes it): the queue's {@code poll}, or the sorted set's removal.
	 */
	private static void takeFirst(Collection<SplitDelivery> record, SplitDelivery first) {
		if (record instanceof ConcurrentSkipListSet<SplitDelivery> sorted) {
			sorted.remove(first);
		}
		else {
			((Queue<SplitDelivery>) record).poll();
		}
	}

	/**
	 * Records a delivery, in the order of deliveries if its lease is the service's, else
	 * in the record sorted by lease end.
	 */
	private void track(SplitLane lane, SplitDelivery record, long leaseMillis) {
		if (leaseMillis == this.leaseMillis) {
			lane.inFlight.offer(record);
		}
		else {
			lane.timed().add(record);
		}
	}

	/**
	 * Claims the record of the message's current delivery (found by a scan of the
	 * in-flight records, as far as its position), takes it out, and records the same
	 * delivery with its new lease end. A claim lost means the lease lapsed and a poll is
	 * delivering the message again. A completion that comes meanwhile finds no record to
	 * drop: then this call, which took the record out, evicts the message, or the new
	 * record is dropped as a completed one where it is.
	 */
	@Override
	LeaseChange changeLeaseIn(SplitLane lane, long id, int delivery, long leaseMillis) {
		SplitMessage message = this.index.get(id);
		if (message == null || !lane.name.equals(message.queue())) {
			return LeaseChange.NOT_FOUND;
		}
		// the delivery decided on, whose record is looked for: one read, or a redelivery
		// in between would make this change the new holder's lease
		int current = message.deliveries();
		Completion verdict = Completion.decide(message.isCompleted(), current, delivery);
		if (verdict != Completion.COMPLETED) {
			return LeaseChange.of(verdict);
		}
		SplitDelivery record = recordOf(lane, message, current);
		if (record == null || !record.claim()) {
			// a completion's eviction took the record, or a poll delivering it again
			return message.isCompleted() ? LeaseChange.NOT_FOUND : LeaseChange.STALE_LEASE;
		}
		if (!lane.inFlight.remove(record)) {
			lane.timed.remove(record);
		}
		if (message.isCompleted()) {
			evicted(lane, message);
			return LeaseChange.NOT_FOUND;
		}
		track(lane, new SplitDelivery(message, current, this.clock.millis() + leaseMillis), leaseMillis);
		return LeaseChange.CHANGED;
	}

	/**
	 * Completes the message whatever its state by the compare-and-set that also decides
	 * deliveries and completions. A delivered one is then dropped as a completion drops
	 * it; one that waits in the ready queue (which cannot give up an element from its
	 * middle) when a poll reaches it; a delayed one at once, if this call claims its
	 * record first (else the poll that claimed it drops it).
	 */
	@Override
	Completion discardIn(SplitLane lane, long id) {
		SplitMessage message = this.index.get(id);
		if (message == null || !lane.name.equals(message.queue())) {
			return Completion.NOT_FOUND;
		}
		int deliveries = message.discard();
		if (deliveries < 0) {
			return Completion.NOT_FOUND;
		}
		this.index.remove(id, message);
		SplitLane.COMPLETED.getAndAdd(lane, 1);
		this.ledger.completed();
		if (deliveries > 0) {
			SplitLane.IN_FLIGHT.getAndAdd(lane, -1);
			if (this.eager) {
				removeCompleted(lane, message);
			}
			else {
				trim(lane);
			}
			return Completion.COMPLETED;
		}
		SplitDelivery delayed = (lane.timed != null) ? recordOf(lane, message, 0) : null;
		if (delayed != null && delayed.claim()) {
			lane.timed.remove(delayed);
			SplitLane.DELAYED.getAndAdd(lane, -1);
			evicted(lane, message);
		}
		return Completion.COMPLETED;
	}

	/**
	 * Claims the delayed message's record and hands the message to its ready queue; a
	 * claim lost means a poll is delivering it (its delay ended) or a discard took it.
	 */
	@Override
	boolean endDelayIn(SplitLane lane, long id) {
		SplitMessage message = this.index.get(id);
		if (message == null || !lane.name.equals(message.queue()) || lane.timed == null) {
			return false;
		}
		SplitDelivery delayed = recordOf(lane, message, 0);
		if (delayed == null || !delayed.claim()) {
			return false;
		}
		lane.timed.remove(delayed);
		SplitLane.DELAYED.getAndAdd(lane, -1);
		enqueue(lane, message);
		return true;
	}

	/** The unclaimed record of that delivery of the message, or {@code null}. */
	private static SplitDelivery recordOf(SplitLane lane, SplitMessage message, int delivery) {
		for (SplitDelivery record : lane.inFlight) {
			if (record.message == message && record.delivery == delivery && !record.isClaimed()) {
				return record;
			}
		}
		if (lane.timed != null) {
			for (SplitDelivery record : lane.timed) {
				if (record.message == message && record.delivery == delivery && !record.isClaimed()) {
					return record;
				}
			}
		}
		return null;
	}

	@Override
	void evictCompleted(String queue, SplitMessage message) {
		// still held, so its lane is still in the map
		removeCompleted(this.lanes.get(message.queue()), message);
	}

	/**
	 * The message's compare-and-set decides between racing completions and a redelivery;
	 * then the message leaves the index, and the completed head of the in-flight record
	 * (or, eagerly, the message itself) is dropped. Never scans a queue with lazy
	 * eviction.
	 */
	@Override
	Completion completeIn(SplitLane lane, long id, int delivery) {
		SplitMessage message = this.index.get(id);
		// the index is the service's: the message must be in this lane (a held
		// message's lane is open, so it is the one in the map)
		if (message == null || !lane.name.equals(message.queue())) {
			return Completion.NOT_FOUND;
		}
		Completion completion = message.complete(delivery);
		if (completion != Completion.COMPLETED) {
			return completion;
		}
		this.index.remove(id, message);
		SplitLane.IN_FLIGHT.getAndAdd(lane, -1);
		SplitLane.COMPLETED.getAndAdd(lane, 1);
		this.ledger.completed();
		if (this.eager) {
			removeCompleted(lane, message);
		}
		else {
			trim(lane);
		}
		return Completion.COMPLETED;
	}

	/** Drops completed messages from the heads of the in-flight records. */
	private void trim(SplitLane lane) {
		trim(lane, lane.inFlight);
		if (lane.timed != null) {
			trim(lane, lane.timed);
		}
	}

	private void trim(SplitLane lane, Collection<SplitDelivery> record) {
		SplitDelivery head;
		while ((head = first(record)) != null && head.message.isCompleted()) {
			if (!head.claim()) {
				return;
			}
			takeFirst(record, head);
			evicted(lane, head.message);
		}
	}

	/**
	 * Eager eviction: finds the completed message's record (a scan as far as its
	 * position, as {@code AbstractQS}'s eager eviction scans) and removes it; if another
	 * thread holds its claim, or its consumer has not recorded it yet, it is dropped when
	 * it reaches the head.
	 */
	private void removeCompleted(SplitLane lane, SplitMessage message) {
		if (!removeCompleted(lane, lane.inFlight, message) && lane.timed != null) {
			removeCompleted(lane, lane.timed, message);
		}
	}

	/**
	 * @return whether the message's record was found in that record
	 */
	private boolean removeCompleted(SplitLane lane, Collection<SplitDelivery> records, SplitMessage message) {
		for (SplitDelivery record : records) {
			if (record.message == message) {
				if (record.claim()) {
					records.remove(record);
					evicted(lane, message);
				}
				return true;
			}
		}
		return false;
	}

	/**
	 * A completed message left memory: release what it was charged, and close and remove
	 * its lane if it was the last.
	 */
	private void evicted(SplitLane lane, SplitMessage message) {
		if (lane.counted) {
			SplitLane.COMPLETED.getAndAdd(lane, -1);
		}
		this.ledger.evicted(message.body());
		if (lane.leave()) {
			this.ledger.closeQueue();
			retire(lane);
		}
	}

	/**
	 * Whether a poll would find a message now: the ready queue's head, or the first
	 * message of the in-flight record not completed, if its lease expired.
	 */
	@Override
	public boolean hasReady(String name) {
		return readyIn(name) || (flush() && readyIn(name));
	}

	private boolean readyIn(String name) {
		SplitLane lane = this.lanes.get(name);
		if (lane == null) {
			return false;
		}
		if (!lane.ready.isEmpty()) {
			return true;
		}
		long now = this.clock.millis();
		for (SplitDelivery record : lane.inFlight) {
			if (!record.message.isCompleted()) {
				if (!record.isClaimed() && record.expiredAt(now)) {
					return true;
				}
				break;
			}
		}
		if (lane.timed != null) {
			for (SplitDelivery record : lane.timed) {
				if (!record.expiredAt(now)) {
					break;
				}
				if (!record.message.isCompleted() && !record.isClaimed()) {
					return true;
				}
			}
		}
		return false;
	}

	/**
	 * Holds no lock, as every operation here: the in-flight record first (each message's
	 * current delivery; lapsed leases are what a poll delivers first), then messages
	 * never delivered. Those come from the service's index, not the ready queue, which a
	 * JCTools queue cannot walk: the {@code max} smallest ids of the queue, found in one
	 * pass over the index, so a browse costs a step per message the service holds.
	 * @throws IllegalStateException if this service was built without id lookup
	 */
	@Override
	public List<Peeked> peek(String name, int max) {
		this.ledger.requireIdLookup();
		List<Peeked> seen = new ArrayList<>(Math.min(max, 16));
		SplitLane lane = this.lanes.get(name);
		if (lane == null) {
			return seen;
		}
		long now = this.clock.millis();
		List<SplitDelivery> delivered = new ArrayList<>(lane.inFlight);
		Set<SplitMessage> delayed = Collections.newSetFromMap(new IdentityHashMap<>());
		if (lane.timed != null) {
			for (SplitDelivery record : lane.timed) {
				delivered.add(record);
				if (record.delivery == 0) {
					delayed.add(record.message);
				}
			}
		}
		for (SplitDelivery record : delivered) {
			SplitMessage message = record.message;
			int deliveries = message.deliveries();
			if (!message.isCompleted() && !record.isClaimed() && record.delivery == deliveries) {
				Peeked.State state = record.expiredAt(now) ? Peeked.State.READY
						: (deliveries > 0) ? Peeked.State.IN_FLIGHT : Peeked.State.DELAYED;
				if (see(seen, new Peeked(message, state, deliveries), max)) {
					return seen;
				}
			}
		}
		int room = max - seen.size();
		PriorityQueue<SplitMessage> first = new PriorityQueue<>(room + 1, BY_ID.reversed());
		for (SplitMessage message : this.index.messages()) {
			if (message.deliveries() == 0 && !message.isCompleted() && name.equals(message.queue())
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
		return seen;
	}

	/**
	 * One named queue: its ready queue, its in-flight record, and how many messages it
	 * holds, which also tells when it is closed.
	 *
	 * <p>
	 * What it holds is two running totals, not one count, each on a cache line of its own
	 * (the padding classes below): producers add to {@code admitted}, consumers to
	 * {@code evicted}. One shared count would bounce its cache line between every push
	 * and every eviction, and invalidate the references all of them read next to it. The
	 * consumer that evicts the last message closes the lane by compare-and-set of
	 * {@code admitted}, which fails if a producer came in meanwhile.
	 */
	protected static final class SplitLane extends LanePadAdmitted {

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
		 * @throws CapacityExceededException if that would hold more than {@code max}
		 */
		int enter(int count, int max) {
			while (true) {
				long current = this.admitted;
				if (current < 0) {
					return (current == CLOSED_TOTAL) ? CLOSED : REMOVED;
				}
				if (max != Integer.MAX_VALUE) {
					// only then: the consumers' total is on their cache line
					checkRoom(current - this.evicted, count, max);
				}
				if (ADMITTED.compareAndSet(this, current, current + count)) {
					return ENTERED;
				}
			}
		}

		/**
		 * Opens a closed lane with {@code count} messages; {@code false} if another push
		 * reopened it first or it was removed. Nothing is evicted from a closed lane, so
		 * its consumers' total is still.
		 */
		boolean reopen(int count) {
			return ADMITTED.compareAndSet(this, CLOSED_TOTAL, this.evicted + count);
		}

		/**
		 * Counts one message out, after it left the ready queue and the in-flight record;
		 * {@code true} if that emptied and closed the lane. While either still holds a
		 * message this was not the last one, and producers' total is not even read: every
		 * other eviction removed its message before counting it, so the last to count
		 * finds both empty.
		 */
		boolean leave() {
			long out = (long) EVICTED.getAndAdd(this, 1L) + 1;
			if (this.inFlight.peek() != null || this.ready.peek() != null) {
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
			int inFlight = Math.max(0, this.inFlightCount);
			int delayed = Math.max(0, this.delayedCount);
			if (delayed > 0) {
				// those whose delay ended are ready: the sorted record's first ones
				for (SplitDelivery record : this.timed) {
					if (!record.expiredAt(nowMillis)) {
						break;
					}
					delayed -= (record.delivery == 0 && !record.isClaimed()) ? 1 : 0;
				}
			}
			int ready = Math.max(0, held - inFlight - this.completedCount - delayed);
			return new QueueStats(this.name, ready, inFlight, Math.max(0, delayed));
		}

	}

	/**
	 * What every operation on a lane reads, and nobody writes but a lane that closes or
	 * leaves the ring of retired ones ({@link QueueLane}'s flag, now and then) and the
	 * first lease of its own ({@link #timed}, once).
	 */
	abstract static class LaneRefs extends QueueLane {

		final Queue<SplitMessage> ready;

		final ConcurrentLinkedQueue<SplitDelivery> inFlight = new ConcurrentLinkedQueue<>();

		/**
		 * Deliveries under leases of their own, sorted by lease end; {@code null} until
		 * the first, then set once by compare-and-set.
		 */
		volatile ConcurrentSkipListSet<SplitDelivery> timed;

		private static final VarHandle TIMED = VarHandles.field(MethodHandles.lookup(), "timed",
				ConcurrentSkipListSet.class);

		/** Whether ready and in-flight messages are counted (with id lookup). */
		final boolean counted;

		LaneRefs(String name, Queue<SplitMessage> ready, boolean counted) {
			super(name);
			this.ready = ready;
			this.counted = counted;
		}

		ConcurrentSkipListSet<SplitDelivery> timed() {
			ConcurrentSkipListSet<SplitDelivery> made = this.timed;
			if (made == null) {
				TIMED.compareAndSet(this, null, new ConcurrentSkipListSet<>(BY_LEASE_END));
				made = this.timed;
			}
			return made;
		}

	}

	/** A cache line between the references and the producers' total. */
	abstract static class LanePadRefs extends LaneRefs {

		long p01, p02, p03, p04, p05, p06, p07, p08;

		LanePadRefs(String name, Queue<SplitMessage> ready, boolean counted) {
			super(name, ready, counted);
		}

	}

	/** Producers' total. */
	abstract static class LaneAdmitted extends LanePadRefs {

		static final long CLOSED_TOTAL = Long.MIN_VALUE / 2;

		static final long REMOVED_TOTAL = Long.MIN_VALUE;

		static final VarHandle ADMITTED = VarHandles.field(MethodHandles.lookup(), "admitted", long.class);

		/**
		 * Messages admitted, ever; {@link #CLOSED_TOTAL} once its last one was evicted,
		 * {@link #REMOVED_TOTAL} once removed.
		 */
		volatile long admitted;

		LaneAdmitted(String name, Queue<SplitMessage> ready, boolean counted) {
			super(name, ready, counted);
		}

	}

	/** A cache line between the producers' total and the consumers'. */
	abstract static class LanePadAdmitted extends LaneAdmitted {

		long p11, p12, p13, p14, p15, p16, p17, p18;

		LanePadAdmitted(String name, Queue<SplitMessage> ready, boolean counted) {
			super(name, ready, counted);
		}

	}

}
