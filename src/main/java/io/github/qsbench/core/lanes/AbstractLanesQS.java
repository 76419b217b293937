package io.github.qsbench.core.lanes;

import io.github.qsbench.core.Capacity;
import io.github.qsbench.core.CapacityExceededException;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.Eviction;
import io.github.qsbench.core.Lease;
import io.github.qsbench.core.LeaseChange;
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
 * {@link #track}, {@link #dropCompleted}). Browsing, listing and counting are in its
 * superclass, {@link LanesView}. The settings are chosen once, at construction: what the
 * service's setting keeps and the thesis's does not is a {@link Ledger}, and the index by
 * id (a locked lane's, or the split service's one) is
 * {@link io.github.qsbench.core.shared.IdIndex#none()} without id lookup, so no push or
 * poll asks which setting it runs in.
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
abstract class AbstractLanesQS<L extends QueueLane, M extends CompletableMessage> extends LanesView<L>
		implements QueueServiceCore {

	/** Closed lanes kept in the map at most, see {@link #retire}. */
	private static final int RETIRED = 64;

	/** Messages one queue may hold; {@link Integer#MAX_VALUE} when unlimited. */
	final int maxPerQueue;

	final long leaseMillis;

	/**
	 * {@link Eviction#EAGER}: read on completions only, where it decides whether to look
	 * past the in-flight head.
	 */
	final boolean eager;

	/**
	 * The service's setting (index by id, counts) or the thesis's: read on completions
	 * and when a lane is made (polls and pushes go through the {@link #ledger} and the
	 * lanes' indexes).
	 */
	final boolean idLookup;

	/** Lanes that closed lately, see {@link #retire}. */
	private final AtomicReferenceArray<L> retired = new AtomicReferenceArray<>(RETIRED);

	AbstractLanesQS(QueueOptions options) {
		super(options);
		this.maxPerQueue = options.limits().maxMessagesPerQueue();
		this.leaseMillis = options.leaseTimeout().toMillis();
		this.eager = options.eviction() == Eviction.EAGER;
		this.idLookup = options.idLookup();
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

	// The framework's part for the operations by id (with id lookup), each written once
	// below from these: a new operation by id that needs no new step is written there
	// alone

	/**
	 * The named lane, guarded for an operation by id until {@link #release} (the lane's
	 * lock, or nothing where compare-and-sets guard each step); {@code null} if there is
	 * none, and then nothing is guarded.
	 */
	abstract L guardById(String queue);

	/** Releases the guard {@link #guardById} took. */
	abstract void release(L lane);

	/** Under the guard: the lane's message with that id, or {@code null}. */
	abstract M find(L lane, long id);

	/**
	 * Under the guard, for a delivered message just completed (or discarded): out of the
	 * index and the counts, and out of the in-flight record as {@link #dropCompleted}
	 * drops it.
	 */
	abstract void completed(L lane, M message);

	/**
	 * Under the guard, for a message discarded before any delivery: out of the index, and
	 * counted as completed.
	 */
	abstract void forgotten(L lane, M message);

	/**
	 * Under the guard: takes the entry of that delivery of the message (0: its delay) out
	 * of the in-flight record, claiming it where entries are claimed.
	 * @return whether this call took it out; {@code false} if it is not there (a poll
	 * took it, or the message is ready)
	 */
	abstract boolean untrack(L lane, M message, int delivery);

	/**
	 * Under the guard: takes a message never delivered out of the ready queue, if the
	 * ready queue can give up an element from its middle.
	 * @return whether it did; if not, a poll drops it when it reaches it
	 */
	abstract boolean dropReady(L lane, M message);

	/**
	 * Under the guard, for a message whose entry {@link #untrack} took out: records that
	 * delivery again, its lease ending at {@code leaseEnd} ({@code ownLease}: a lease
	 * other than the service's, see {@link InFlight#track}).
	 */
	abstract LeaseChange trackAgain(L lane, M message, int delivery, long leaseEnd, boolean ownLease);

	/**
	 * Under the guard, for a delayed message whose entry {@link #untrack} took out: it
	 * joins the ready queue's tail.
	 */
	abstract void readyNow(L lane, M message);

	/**
	 * A completed message left the lane's memory (its in-flight entry was dropped, or it
	 * was discarded before any delivery): release what it was charged.
	 */
	abstract void evict(L lane, M message);

	/**
	 * A delayed message's entry left the lane's in-flight record: its delay ended, and it
	 * was delivered for the first time, or ({@code delivered} false) it was discarded or
	 * made ready.
	 */
	abstract void delayEnded(L lane, boolean delivered);

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
		this.ledger.requireIdLookup();
		L lane = this.lanes.get(queue);
		return (lane != null) ? completeIn(lane, id, delivery) : Completion.NOT_FOUND;
	}

	@Override
	public final List<Lease> lease(String queue, int max) {
		return lease(queue, max, this.leaseMillis);
	}

	/**
	 * Under the lane's guard: takes the delayed message's entry out of the in-flight
	 * record (where entries are claimed, a claim lost means a poll is delivering it, or a
	 * discard took it) and hands it to the ready queue.
	 */
	@Override
	public final boolean endDelay(String queue, long id) {
		this.ledger.requireIdLookup();
		L lane = guardById(queue);
		if (lane == null) {
			return false;
		}
		try {
			M message = find(lane, id);
			if (message == null || message.isCompleted() || message.deliveries() > 0 || !untrack(lane, message, 0)) {
				return false;
			}
			delayEnded(lane, false);
			readyNow(lane, message);
			return true;
		}
		finally {
			release(lane);
		}
	}

	/**
	 * Under the lane's guard, completes the message whatever its state by the
	 * compare-and-set that also decides deliveries and completions. A delivered one is
	 * then dropped as a completion drops it; a delayed one at once, if this call takes
	 * its entry (else the poll that claimed it drops it); a ready one at once if its
	 * ready queue can give it up, else when a poll reaches it.
	 */
	@Override
	public final Completion discard(String queue, long id) {
		this.ledger.requireIdLookup();
		L lane = guardById(queue);
		if (lane == null) {
			return Completion.NOT_FOUND;
		}
		try {
			M message = find(lane, id);
			int deliveries = (message != null) ? message.discard() : -1;
			if (deliveries < 0) {
				return Completion.NOT_FOUND;
			}
			if (deliveries > 0) {
				completed(lane, message);
				return Completion.COMPLETED;
			}
			forgotten(lane, message);
			if (untrack(lane, message, 0)) {
				delayEnded(lane, false);
				evict(lane, message);
			}
			else if (dropReady(lane, message)) {
				evict(lane, message);
			}
			return Completion.COMPLETED;
		}
		finally {
			release(lane);
		}
	}

	/**
	 * Under the lane's guard: the entry of the message's current delivery leaves the
	 * in-flight record (a scan, as far as its position) and enters it again where its new
	 * lease end sorts it. The delivery decided on is read once: a redelivery in between
	 * would otherwise make this change the new holder's lease. Where entries are claimed,
	 * a claim lost means the lease lapsed and a poll is delivering the message again.
	 */
	@Override
	public final LeaseChange changeLease(String queue, long id, int delivery, long leaseMillis) {
		this.ledger.requireIdLookup();
		L lane = guardById(queue);
		if (lane == null) {
			return LeaseChange.NOT_FOUND;
		}
		try {
			M message = find(lane, id);
			if (message == null) {
				return LeaseChange.NOT_FOUND;
			}
			int current = message.deliveries();
			Completion verdict = Completion.decide(message.isCompleted(), current, delivery);
			if (verdict != Completion.COMPLETED) {
				return LeaseChange.of(verdict);
			}
			if (!untrack(lane, message, current)) {
				return message.isCompleted() ? LeaseChange.NOT_FOUND : LeaseChange.STALE_LEASE;
			}
			return trackAgain(lane, message, current, this.clock.millis() + leaseMillis,
					leaseMillis != this.leaseMillis);
		}
		finally {
			release(lane);
		}
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
