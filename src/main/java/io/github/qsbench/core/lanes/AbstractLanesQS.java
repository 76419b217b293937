package io.github.qsbench.core.lanes;

import io.github.qsbench.core.Capacity;
import io.github.qsbench.core.CapacityExceededException;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.Eviction;
import io.github.qsbench.core.Lease;
import io.github.qsbench.core.Message;
import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.shared.CompletableMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The outline of the frameworks that keep messages in flight apart from ready ones
 * (thesis 5.2.3.1): {@link AbstractSplitQS}, lock-free, and {@link AbstractLaneLockedQS},
 * a lock per queue. A sibling of {@link io.github.qsbench.core.thesis.AbstractQS}, not a
 * subclass: that framework's one deque per queue, guarded by
 * {@link io.github.qsbench.core.thesis.Lockable}s, is what these replace.
 *
 * <p>
 * Written here once: a map of named queues ({@link QueueLane}s) and their lifecycle with
 * its one ring of retired lanes ({@link #retire}); admission (ids, the caps, the held
 * count); push, batch push and completion; what a poll does with the lane's in-flight
 * record ({@link InFlight}, locked or lock-free: {@link #redeliverLapsed},
 * {@link #track}, {@link #dropCompleted}). The operations by id that are no hot path
 * (lease changes, discards, the end of a delay) are in its superclass {@link LanesById},
 * browsing, listing and counting in that one's, {@link LanesView}. The settings are
 * chosen once, at construction: what the service's setting keeps and the thesis's does
 * not is a {@link Ledger}, and the index by id (a locked lane's, or the split service's
 * one) is {@link io.github.qsbench.core.shared.IdIndex#none()} without id lookup, so no
 * push or poll asks which setting it runs in.
 *
 * <p>
 * A framework supplies its message, its lane and its guard, through the methods below
 * marked as its part: how a push enters a lane ({@link #admit}, {@link #add},
 * {@link #admitted}), how a completion leaves it ({@link #completeIn},
 * {@link #evictCompleted}, {@link #evict}), and how a lane closes and is removed
 * ({@link QueueLane#removeIfClosed}). How a poll takes its lane (a lock, or none) and its
 * ready queue's head is each framework's own. Why each is exactly-once:
 * docs/design/lanes.md.
 *
 * @param <L> the framework's lane
 * @param <M> the framework's message
 */
abstract class AbstractLanesQS<L extends QueueLane, M extends CompletableMessage> extends LanesById<L, M>
		implements QueueServiceCore {

	/** Closed lanes kept in the map at most, see {@link #retire}. */
	private static final int RETIRED = 64;

	/** Messages one queue may hold; {@link Integer#MAX_VALUE} when unlimited. */
	final int maxPerQueue;

	/**
	 * {@link Eviction#EAGER}: read on completions only, where it decides whether to look
	 * past the in-flight head.
	 */
	final boolean eager;

	/** Lanes that closed lately, see {@link #retire}. */
	private final AtomicReferenceArray<L> retired = new AtomicReferenceArray<>(RETIRED);

	AbstractLanesQS(QueueOptions options) {
		super(options);
		this.maxPerQueue = options.limits().maxMessagesPerQueue();
		this.eager = options.eviction() == Eviction.EAGER;
	}

	// The framework's part

	/** A new message, in no lane yet. */
	abstract M newMessage(long id, String queue, byte[] body);

	/**
	 * The named lane, open (opened or made if need be, and charged to the caps as a
	 * queue) and with {@code count} more messages counted in, guarded for {@link #add}
	 * until {@link #admitted}.
	 * @throws CapacityExceededException if a cap refuses them; then the lane is as it was
	 * (or gone, if this call made it) and nothing is guarded
	 */
	abstract L admit(String queue, int count);

	/**
	 * Under the guard {@link #admit} took: the message enters the lane, ready, or delayed
	 * until {@code dueMillis} if that is not 0.
	 */
	abstract void add(L lane, M message, long dueMillis);

	/** Releases the guard {@link #admit} took. */
	abstract void admitted(L lane);

	/**
	 * Completion by id, with id lookup: finds the message in the lane, completes it if
	 * {@code delivery} is its current one, and accounts for it.
	 */
	abstract Completion completeIn(L lane, long id, int delivery);

	/**
	 * The thesis's setting with {@link Eviction#EAGER}: the message, just completed,
	 * leaves its lane at once (or, if another thread holds it, when that thread is done).
	 */
	abstract void evictCompleted(String queue, M message);

	// The outline

	@Override
	public final Message push(String queue, byte[] body) {
		long charge = this.ledger.reserve(body);
		M message = newMessage(this.lastId.incrementAndGet(), queue, body);
		L lane = admitOrRefund(queue, 1, charge);
		try {
			add(lane, message, 0);
		}
		finally {
			admitted(lane);
		}
		this.ledger.pushed(1);
		return message;
	}

	@Override
	public final List<Message> pushAll(String queue, List<byte[]> bodies) {
		return pushAll(queue, bodies, 0);
	}

	@Override
	public final List<Message> pushAll(String queue, List<byte[]> bodies, long delayMillis) {
		long due = (delayMillis > 0) ? this.clock.millis() + delayMillis : 0;
		long charge = this.ledger.reserve(bodies);
		List<M> created = new ArrayList<>(bodies.size());
		for (byte[] body : bodies) {
			created.add(newMessage(this.lastId.incrementAndGet(), queue, body));
		}
		L lane = admitOrRefund(queue, created.size(), charge);
		try {
			for (M message : created) {
				add(lane, message, due);
			}
		}
		finally {
			admitted(lane);
		}
		this.ledger.pushed(created.size());
		return List.copyOf(created);
	}

	private L admitOrRefund(String queue, int count, long charge) {
		try {
			return admit(queue, count);
		}
		catch (CapacityExceededException ex) {
			this.ledger.refund(charge);
			throw ex;
		}
	}

	/**
	 * {@link #admit}: refuses {@code count} more messages in a lane that holds
	 * {@code held}, if a queue may hold at most {@code max}.
	 */
	static void checkRoom(long held, int count, int max) {
		if (held + count > max) {
			throw new CapacityExceededException(Capacity.Limit.MESSAGES_PER_QUEUE, max);
		}
	}

	/**
	 * Completes a message this service delivered, whichever its current delivery: in the
	 * service's setting by id, under the framework's guard; in the thesis's by the
	 * message's own compare-and-set, which takes no lock and decides against a racing
	 * redelivery, then (eagerly) out of its lane.
	 */
	@Override
	public final boolean complete(String queue, Message message) {
		if (this.idLookup) {
			return complete(queue, message.id(), ANY_DELIVERY) == Completion.COMPLETED;
		}
		@SuppressWarnings("unchecked")
		M own = (M) message;
		if (own.complete(ANY_DELIVERY) != Completion.COMPLETED) {
			return false;
		}
		if (this.eager) {
			evictCompleted(queue, own);
		}
		return true;
	}

	@Override
	public final Completion complete(String queue, long id, int delivery) {
		QueueOptions.requireIdLookup(this.idLookup);
		L lane = this.lanes.get(queue);
		return (lane != null) ? completeIn(lane, id, delivery) : Completion.NOT_FOUND;
	}

	@Override
	public final List<Lease> lease(String queue, int max) {
		return lease(queue, max, this.leaseMillis);
	}

	/**
	 * Keeps a lane that just closed in the map for a while, where a push to its queue
	 * reopens it instead of making another (in the thesis's 4-1 setup nearly every push
	 * finds its queue just emptied); the lane it displaces from {@link #retired} is
	 * removed for good, unless a push reopened it. A lane holds one slot at most, so a
	 * few queues that empty again and again keep theirs. So at most {@value #RETIRED}
	 * closed lanes, empty, stay in memory; they are not charged and do not count as
	 * queues. Called holding no guard, since it may take the displaced lane's.
	 */
	final void retire(L lane) {
		if (!lane.enterRing()) {
			return; // already in the ring from an earlier closing: it keeps its slot
		}
		L displaced = this.retired.getAndSet(ThreadLocalRandom.current().nextInt(RETIRED), lane);
		if (displaced != null) {
			displaced.leaveRing();
			if (displaced.removeIfClosed()) {
				this.lanes.remove(displaced.name, displaced);
			}
		}
	}

	/**
	 * Under the framework's guard: delivers again the first entry of the lane's in-flight
	 * record whose lease ended (a delayed message: for the first time), the ordered part
	 * first, dropping the entries of completed messages on the way; O(1) unless there are
	 * completed ones to drop. Of a redelivery and a completion of one delivery, the
	 * message's compare-and-set lets exactly one win.
	 * @return the message delivered, or {@code null}
	 */
	final <E> M redeliverLapsed(L lane, InFlight<E> inFlight, long now, long leaseMillis) {
		M lapsed = redeliverLapsed(lane, inFlight, false, now, leaseMillis);
		return (lapsed == null && inFlight.hasSorted()) ? redeliverLapsed(lane, inFlight, true, now, leaseMillis)
				: lapsed;
	}

	private <E> M redeliverLapsed(L lane, InFlight<E> inFlight, boolean sorted, long now, long leaseMillis) {
		E head;
		while ((head = inFlight.first(sorted)) != null) {
			int lapse = inFlight.takeIfLapsed(sorted, head, now);
			if (lapse == InFlight.LIVE) {
				return null;
			}
			@SuppressWarnings("unchecked")
			M message = (M) inFlight.messageOf(head);
			// read before the redelivery: a locked entry is its message, whose count it
			// moves
			boolean delayed = sorted && inFlight.deliveryOf(head) == 0;
			E next = (lapse == InFlight.LAPSED) ? inFlight.redeliver(head, now + leaseMillis) : null;
			if (delayed) {
				delayEnded(lane, next != null);
			}
			if (next != null) {
				track(inFlight, next, leaseMillis);
				return message;
			}
			evict(lane, message);
		}
		return null;
	}

	/**
	 * Records a delivery in the in-flight record: in the ordered part if its lease is the
	 * service's, else in the sorted one.
	 */
	final <E> void track(InFlight<E> inFlight, E entry, long leaseMillis) {
		inFlight.track(entry, leaseMillis != this.leaseMillis);
	}

	/**
	 * Under the framework's guard, for a message just completed: with
	 * {@link Eviction#EAGER} its entry leaves the in-flight record at once, wherever it
	 * is; otherwise it waits there for a head to reach it, and the completed heads go
	 * now.
	 */
	final <E> void dropCompleted(L lane, InFlight<E> inFlight, M message) {
		if (this.eager) {
			if (inFlight.removeEntryOf(message)) {
				evict(lane, message);
			}
			return;
		}
		dropCompletedHeads(lane, inFlight, false);
		if (inFlight.hasSorted()) {
			dropCompletedHeads(lane, inFlight, true);
		}
	}

	private <E> void dropCompletedHeads(L lane, InFlight<E> inFlight, boolean sorted) {
		E head;
		while ((head = inFlight.takeIfCompleted(sorted)) != null) {
			@SuppressWarnings("unchecked")
			M message = (M) inFlight.messageOf(head);
			evict(lane, message);
		}
	}

}
