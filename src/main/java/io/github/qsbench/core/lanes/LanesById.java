package io.github.qsbench.core.lanes;

import io.github.qsbench.core.ByIdOperation;
import io.github.qsbench.core.ByIdOutcome;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.shared.CompletableMessage;

/**
 * The operations by id of {@link AbstractLanesQS} that are no hot path (a lease change, a
 * discard, the end of a delay), each written once from steps its framework supplies (its
 * guard, how it finds a message, takes its in-flight entry out and records it again): so
 * an operation by id that needs no new step is written here alone, whichever framework
 * runs it. Completion by id, a hot path, is each framework's own
 * ({@link AbstractLanesQS#completeIn}).
 *
 * @param <L> the framework's lane
 * @param <M> the framework's message
 */
abstract class LanesById<L extends QueueLane, M extends CompletableMessage> extends LanesView<L>
		implements QueueServiceCore {

	/** The service's lease. */
	final long leaseMillis;

	LanesById(QueueOptions options) {
		super(options);
		this.leaseMillis = options.leaseTimeout().toMillis();
	}

	// The framework's part (with id lookup)

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
	 * index and the counts, and out of the in-flight record as
	 * {@link AbstractLanesQS#dropCompleted} drops it.
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
	abstract ByIdOutcome trackAgain(L lane, M message, int delivery, long leaseEnd, boolean ownLease);

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

	// The operations

	/** Each operation under the lane's guard, written from the framework's steps. */
	@Override
	public final ByIdOutcome byId(String queue, long id, ByIdOperation operation, int delivery, long leaseMillis) {
		QueueOptions.requireIdLookup(this.idLookup);
		L lane = guardById(queue);
		if (lane == null) {
			return ByIdOutcome.NOT_FOUND;
		}
		try {
			M message = find(lane, id);
			if (message == null) {
				return ByIdOutcome.NOT_FOUND;
			}
			return switch (operation) {
				case CHANGE_LEASE -> changeLease(lane, message, delivery, leaseMillis);
				case DISCARD -> discard(lane, message);
				case END_DELAY -> endDelay(lane, message);
			};
		}
		finally {
			release(lane);
		}
	}

	/**
	 * Under the lane's guard: takes the delayed message's entry out of the in-flight
	 * record (where entries are claimed, a claim lost means a poll is delivering it, or a
	 * discard took it) and hands it to the ready queue.
	 */
	private ByIdOutcome endDelay(L lane, M message) {
		if (message.isCompleted() || message.deliveries() > 0 || !untrack(lane, message, 0)) {
			return ByIdOutcome.NOT_FOUND;
		}
		delayEnded(lane, false);
		readyNow(lane, message);
		return ByIdOutcome.DONE;
	}

	/**
	 * Under the lane's guard, completes the message whatever its state by the
	 * compare-and-set that also decides deliveries and completions. A delivered one is
	 * then dropped as a completion drops it; a delayed one at once, if this call takes
	 * its entry (else the poll that claimed it drops it); a ready one at once if its
	 * ready queue can give it up, else when a poll reaches it.
	 */
	private ByIdOutcome discard(L lane, M message) {
		int deliveries = message.discard();
		if (deliveries < 0) {
			return ByIdOutcome.NOT_FOUND;
		}
		if (deliveries > 0) {
			completed(lane, message);
			return ByIdOutcome.DONE;
		}
		forgotten(lane, message);
		if (untrack(lane, message, 0)) {
			delayEnded(lane, false);
			evict(lane, message);
		}
		else if (dropReady(lane, message)) {
			evict(lane, message);
		}
		return ByIdOutcome.DONE;
	}

	/**
	 * Under the lane's guard: the entry of the message's current delivery leaves the
	 * in-flight record (a scan, as far as its position) and enters it again where its new
	 * lease end sorts it. The delivery decided on is read once: a redelivery in between
	 * would otherwise make this change the new holder's lease. Where entries are claimed,
	 * a claim lost means the lease lapsed and a poll is delivering the message again.
	 */
	private ByIdOutcome changeLease(L lane, M message, int delivery, long leaseMillis) {
		int current = message.deliveries();
		Completion verdict = Completion.decide(message.isCompleted(), current, delivery);
		if (verdict != Completion.COMPLETED) {
			return ByIdOutcome.of(verdict);
		}
		if (!untrack(lane, message, current)) {
			return message.isCompleted() ? ByIdOutcome.NOT_FOUND : ByIdOutcome.STALE_LEASE;
		}
		return trackAgain(lane, message, current, this.clock.millis() + leaseMillis, leaseMillis != this.leaseMillis);
	}

}
