package io.github.qsbench.core.lanes;

import io.github.qsbench.core.ByIdOutcome;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.Lease;
import io.github.qsbench.core.Message;
import io.github.qsbench.core.Peeked;
import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.shared.IdIndex;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Queue;
import java.util.function.Supplier;

/**
 * The framework the thesis proposes in section 5.2.3.1, lock-free: messages in flight are
 * kept apart from ready ones, so a poll looks at two heads instead of walking past every
 * leased message. The outline is {@link AbstractLanesQS}'s; what guards a queue here is
 * no lock but compare-and-sets, on the lane's counts, on the message and on the record of
 * each delivery.
 *
 * <p>
 * Each queue (a {@link SplitLane}) has a <em>ready queue</em>, the strategy's building
 * block (any thread-safe {@link Queue} whose {@code poll} hands each element to one
 * caller), and the lock-free variant of the in-flight record ({@link LockFreeInFlight}),
 * of {@link SplitDelivery}s: one per delivery, which a thread claims before it moves or
 * drops it.
 *
 * <p>
 * Exactly-once, as long as consumers complete within their lease: the ready queue hands a
 * message to one consumer, its first delivery; a later one is a compare-and-set of the
 * message's state from the previous delivery, not completed, to the next
 * ({@link SplitMessage#redeliver}), by the one claimer of that delivery's expired record;
 * a completion is a compare-and-set of the same state. A completed message leaves memory
 * when its record is dropped from a head (or, with
 * {@link io.github.qsbench.core.Eviction#EAGER}, at once); the eviction that empties a
 * lane closes it by compare-and-set, a push reopens it the same way, and one removed for
 * good is never reopened, so no push lands in a removed queue. The arguments:
 * docs/design/lanes.md.
 */
public abstract class AbstractSplitQS extends AbstractLanesQS<SplitLane, SplitMessage> {

	private final Supplier<Queue<SplitMessage>> readyQueues;

	/**
	 * Held messages by id, one for the service rather than one per queue, so that a queue
	 * that empties leaves no index behind; {@link IdIndex#none()} in the thesis's
	 * setting.
	 */
	private final IdIndex<SplitMessage> index;

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
			lane.inFlight.addSorted(new SplitDelivery(message, 0, dueMillis));
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
		QueueOptions.requireIdLookup(this.idLookup);
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
	 * Delivers an in-flight entry again if its lease ended ({@link #redeliverLapsed});
	 * otherwise the ready queue's head.
	 */
	private SplitMessage grab(SplitLane lane, long now, long leaseMillis) {
		SplitMessage lapsed = redeliverLapsed(lane, lane.inFlight, now, leaseMillis);
		if (lapsed != null) {
			return lapsed;
		}
		SplitMessage message;
		while ((message = lane.ready.poll()) != null && !message.deliverFirst()) {
			evict(lane, message); // discarded while it waited
		}
		if (message == null) {
			return null;
		}
		if (lane.counted) {
			SplitLane.IN_FLIGHT.getAndAdd(lane, 1);
		}
		track(lane.inFlight, new SplitDelivery(message, 1, now + leaseMillis), leaseMillis);
		return message;
	}

	@Override
	void delayEnded(SplitLane lane, boolean delivered) {
		// its record was added after the count went up, and is claimed by one thread
		int before = (int) SplitLane.DELAYED.getAndAdd(lane, -1);
		assert before > 0 : "more delays ended than began in " + lane.name;
		if (delivered) {
			SplitLane.IN_FLIGHT.getAndAdd(lane, 1);
		}
	}

	/** Compare-and-sets guard each step: nothing to take. */
	@Override
	SplitLane guardById(String queue) {
		return this.lanes.get(queue);
	}

	@Override
	void release(SplitLane lane) {
	}

	/**
	 * The index is the service's: the message must be in this lane (a held message's lane
	 * is open, so it is the one in the map).
	 */
	@Override
	final SplitMessage find(SplitLane lane, long id) {
		SplitMessage message = this.index.get(id);
		return (message != null && lane.name.equals(message.queue())) ? message : null;
	}

	@Override
	final void completed(SplitLane lane, SplitMessage message) {
		this.index.remove(message.id(), message);
		SplitLane.IN_FLIGHT.getAndAdd(lane, -1);
		SplitLane.COMPLETED.getAndAdd(lane, 1);
		this.ledger.completed();
		dropCompleted(lane, lane.inFlight, message);
	}

	/** Counted as completed until a poll or {@link #untrack} drops it. */
	@Override
	void forgotten(SplitLane lane, SplitMessage message) {
		this.index.remove(message.id(), message);
		SplitLane.COMPLETED.getAndAdd(lane, 1);
		this.ledger.completed();
	}

	/**
	 * Claims the record of that delivery (found by a scan of the in-flight record, as far
	 * as its position) and takes it out; a claim lost means a poll is delivering the
	 * message (again), or dropping it.
	 */
	@Override
	boolean untrack(SplitLane lane, SplitMessage message, int delivery) {
		SplitDelivery record = lane.inFlight.entryOf(message, delivery);
		if (record == null || !record.claim()) {
			return false;
		}
		lane.inFlight.remove(record);
		return true;
	}

	/** The ready queue cannot give up an element from its middle. */
	@Override
	boolean dropReady(SplitLane lane, SplitMessage message) {
		return false;
	}

	/**
	 * A new record of the same delivery. A completion that came since the record was
	 * taken out found no record to drop: then this call evicts the message.
	 */
	@Override
	ByIdOutcome trackAgain(SplitLane lane, SplitMessage message, int delivery, long leaseEnd, boolean ownLease) {
		if (message.isCompleted()) {
			evict(lane, message);
			return ByIdOutcome.NOT_FOUND;
		}
		lane.inFlight.track(new SplitDelivery(message, delivery, leaseEnd), ownLease);
		return ByIdOutcome.DONE;
	}

	@Override
	void readyNow(SplitLane lane, SplitMessage message) {
		enqueue(lane, message);
	}

	@Override
	void evictCompleted(String queue, SplitMessage message) {
		// completed already: a poll may since have dropped it as a completed head and
		// its lane closed and gone (then no lane, or a new one that never held it)
		SplitLane lane = this.lanes.get(message.queue());
		if (lane != null) {
			dropCompleted(lane, lane.inFlight, message);
		}
	}

	/**
	 * The message's compare-and-set decides between racing completions and a redelivery;
	 * then the message leaves the index, and the completed head of the in-flight record
	 * (or, eagerly, the message itself) is dropped ({@link #completed}). Never scans a
	 * queue with lazy eviction.
	 */
	@Override
	Completion completeIn(SplitLane lane, long id, int delivery) {
		SplitMessage message = find(lane, id);
		if (message == null) {
			return Completion.NOT_FOUND;
		}
		Completion completion = message.complete(delivery);
		if (completion == Completion.COMPLETED) {
			completed(lane, message);
		}
		return completion;
	}

	/**
	 * A completed message left memory: release what it was charged, and close and remove
	 * its lane if it was the last.
	 */
	@Override
	void evict(SplitLane lane, SplitMessage message) {
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
	 * Whether a poll would find a message now: the ready queue's head, or a lapsed
	 * in-flight entry; if not, once more after a {@link #flush}.
	 */
	@Override
	public boolean hasReady(String name) {
		return super.hasReady(name) || (flush() && super.hasReady(name));
	}

	@Override
	boolean hasReadyIn(SplitLane lane, long nowMillis) {
		return !lane.ready.isEmpty() || lane.inFlight.anyLapsed(nowMillis);
	}

	/**
	 * Holds no lock, as every operation here. Messages never delivered come from the
	 * service's index, not the ready queue, which a JCTools queue cannot walk: the
	 * {@code max} smallest ids of the queue, found in one pass over the index, so a
	 * browse costs a step per message the service holds.
	 * @throws IllegalStateException if this service was built without id lookup
	 */
	@Override
	public List<Peeked> peek(String name, int max) {
		QueueOptions.requireIdLookup(this.idLookup);
		return super.peek(name, max);
	}

	@Override
	void browse(SplitLane lane, long nowMillis, List<Peeked> seen, int max) {
		lane.browse(this.index.messages(), nowMillis, seen, max);
	}

}
