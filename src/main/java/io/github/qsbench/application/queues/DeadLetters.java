package io.github.qsbench.application.queues;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.github.qsbench.application.Checks;
import io.github.qsbench.application.InvalidRequestException;
import io.github.qsbench.application.Limits;
import io.github.qsbench.application.QueueEvents;
import io.github.qsbench.application.QueueEvents.DeadLetterOutcome;
import io.github.qsbench.application.QueueNames;
import io.github.qsbench.application.StoredMessage;
import io.github.qsbench.application.Wakeups;
import io.github.qsbench.application.fair.FairQueues;
import io.github.qsbench.core.ByIdOperation;
import io.github.qsbench.core.ByIdOutcome;
import io.github.qsbench.core.CapacityExceededException;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.CompletionFence;
import io.github.qsbench.core.Lease;
import io.github.qsbench.core.Message;
import io.github.qsbench.core.QueueServiceCore;

/**
 * Dead letters, SQS's way, which needs no strategy to change: messages delivered too
 * often move to their queue's dead-letter queue when a poll finds them
 * ({@link #deliverable}), and a redrive moves them back ({@link #redrive}). Both move a
 * message by {@link #move}, which loses and duplicates nothing. Thread safe.
 */
public final class DeadLetters {

	/** How long a move holds its copy back at most (see {@link #move}). */
	private static final long HELD_BACK_MILLIS = TimeUnit.SECONDS.toMillis(Limits.MAX_DELAY_SECONDS);

	private final QueueServiceCore core;

	private final ExplicitQueues explicit;

	private final QueueEvents events;

	/** The FIFO queues' groups, which a move leaves and joins. */
	private final FifoOrder fifo;

	/** The fair queues' groups, which a move leaves. */
	private final FairQueues fair;

	/** Woken when a moved message becomes ready in its new queue. */
	private final Wakeups wakeups;

	public DeadLetters(QueueServiceCore core, ExplicitQueues explicit, QueueEvents events, Wakeups wakeups,
			FifoOrder fifo, FairQueues fair) {
		this.core = core;
		this.fair = fair;
		this.fifo = fifo;
		this.explicit = explicit;
		this.events = events;
		this.wakeups = wakeups;
	}

	/**
	 * Leases up to {@code max} messages to a consumer: those the core leases, less the
	 * ones due for the queue's dead-letter queue, which move there instead. Only a
	 * redelivery can be due, so a poll of first deliveries looks up no policy.
	 */
	public List<Lease> deliverable(String queue, int max, long leaseMillis) {
		List<Lease> leases = this.core.lease(queue, max, leaseMillis);
		for (Lease lease : leases) {
			if (lease.delivery() > 1) {
				return withoutDeadLetters(queue, max, leaseMillis, leases);
			}
		}
		return leases;
	}

	/**
	 * A message delivered {@code maxDeliveries} times whose last lease lapsed is found by
	 * the receive that would deliver it once more, and moves ({@link #move}) with its
	 * attributes and delivery count to the dead-letter queue: exactly one of a move and a
	 * late completion by an earlier holder wins (the holder then gets
	 * {@link Completion#NOT_FOUND}). A poll that found only dead letters leases again.
	 */
	private List<Lease> withoutDeadLetters(String queue, int max, long leaseMillis, List<Lease> leases) {
		DeadLetterPolicy policy = this.explicit.deadLetters(queue);
		if (policy == null || !this.explicit.contains(policy.queue())) {
			return leases;
		}
		List<Lease> kept = new ArrayList<>(leases.size());
		while (true) {
			boolean moved = false;
			for (Lease lease : leases) {
				if (lease.delivery() > policy.maxDeliveries()) {
					moveToDeadLetters(queue, lease, policy.queue());
					moved = true;
				}
				else {
					kept.add(lease);
				}
			}
			if (!kept.isEmpty() || !moved) {
				return kept;
			}
			leases = this.core.lease(queue, max, leaseMillis);
		}
	}

	private void moveToDeadLetters(String queue, Lease lease, String deadLetterQueue) {
		byte[] stored = StoredMessage.deadLettered(lease.message().body(), queue, lease.delivery() - 1);
		Move move = move(queue, lease, deadLetterQueue, stored, 0, null);
		if (move == Move.MOVED) {
			this.events.deadLettered(DeadLetterOutcome.MOVED);
		}
		else if (move == Move.REFUSED) {
			this.events.deadLettered(DeadLetterOutcome.REFUSED);
		}
	}

	/**
	 * Moves a leased message of {@code from} to {@code to} as {@code stored}, losing and
	 * duplicating nothing, with what every strategy offers: the copy is pushed first,
	 * held back as a delayed message that no consumer sees; then the lease is completed,
	 * which decides against a late completion or a purge; then the copy is released, or,
	 * if the completion lost, discarded unseen. So the copy's room is taken before the
	 * message leaves its queue: a cap that refuses it leaves the message where it was,
	 * leased to nobody until its lease lapses, then delivered (and tried) again. Only a
	 * move held up between its push and its release for longer than
	 * {@link #HELD_BACK_MILLIS} would let the copy be seen before the completion decided.
	 * A move task's move pushes its copy under an id it recorded beforehand
	 * ({@code copyId}, 0: none), for {@link #settle} should its instance die mid move,
	 * and completes the message under the fence of that record ({@code fence},
	 * {@code null}: none): once the task is another instance's, this one completes
	 * nothing, and discards its copy ({@link Move#FENCED}).
	 */
	private Move move(String from, Lease lease, String to, byte[] stored, long copyId, CompletionFence fence) {
		Message copy;
		try {
			copy = ((copyId > 0) ? this.core.pushAs(to, copyId, List.of(stored), HELD_BACK_MILLIS)
					: this.core.pushAll(to, List.of(stored), HELD_BACK_MILLIS))
				.get(0);
		}
		catch (CapacityExceededException refused) {
			return Move.REFUSED;
		}
		Completion completion;
		if (fence == null) {
			completion = this.core.complete(from, lease.message().id(), lease.delivery());
		}
		else {
			completion = this.core.completeFenced(from, lease.message().id(), lease.delivery(), fence).orElse(null);
		}
		if (completion != Completion.COMPLETED) {
			this.core.byId(to, copy.id(), ByIdOperation.DISCARD);
			return (completion != null) ? Move.NOT_LEASED : Move.FENCED;
		}
		left(from, lease.message().id());
		boolean ready = QueueNames.isFifo(to)
				? this.fifo.admit(to, copy.id(), StoredMessage.read(stored).system().group())
				: this.core.byId(to, copy.id(), ByIdOperation.END_DELAY).done();
		if (ready) {
			this.wakeups.pushedLater(to);
		}
		return Move.MOVED;
	}

	/**
	 * Follows a message that left {@code from} by a move: its group, if any, moves on.
	 */
	private void left(String from, long id) {
		if (QueueNames.isFifo(from)) {
			if (this.fifo.release(from, id)) {
				this.wakeups.pushedLater(from);
			}
		}
		else {
			this.fair.left(from, id);
		}
	}

	/**
	 * Moves a message a redrive leased from {@code from} to {@code to} as it was in its
	 * source (body and attributes, without its dead-letter origin), by {@link #move}: the
	 * one step a redrive and a move task ({@link MessageMoveTasks}) share; a task's copy
	 * under the id {@code copyId} it recorded (0: none), its completion under the fence
	 * of that record ({@code fence}, {@code null}: none, {@link MoveTaskStore#fence}).
	 */
	public Move redriveOne(String from, Lease lease, String to, long copyId, CompletionFence fence) {
		return move(from, lease, to, StoredMessage.withoutOrigin(lease.message().body()), copyId, fence);
	}

	/**
	 * Settles a move that a task recorded before it pushed the copy and did not count
	 * (its instance died mid batch, or its step failed), as the move's completion
	 * decided: a message still in {@code from} (at that delivery, whose lease then ends
	 * at once, or delivered again since) was not moved, and its copy, if pushed, is
	 * discarded; a message gone was completed by the move, and its copy is released (a
	 * second time, harmlessly, if the move had released it; a FIFO queue's copy is left
	 * to its hold, since joining its group twice would block the group). What it cannot
	 * tell apart: a message another took from {@code from} before the settlement (a
	 * purge, a consumer once the dead owner's lease lapsed) reads as moved. An owner only
	 * stalled past the heartbeat timeout cannot complete the message after its copy was
	 * discarded here: its completion is fenced ({@link MoveTaskStore#fence}), and fails
	 * once the task was taken over.
	 * @return whether the message had moved
	 */
	boolean settle(String from, MoveTaskStore.Move move) {
		if (this.core.byId(from, move.id(), ByIdOperation.CHANGE_LEASE, move.delivery(), 0) != ByIdOutcome.NOT_FOUND) {
			this.core.byId(move.target(), move.copy(), ByIdOperation.DISCARD);
			return false;
		}
		left(from, move.id());
		if (!QueueNames.isFifo(move.target())
				&& this.core.byId(move.target(), move.copy(), ByIdOperation.END_DELAY).done()) {
			this.wakeups.pushedLater(move.target());
		}
		return true;
	}

	/** What {@link #move} did. */
	public enum Move {

		MOVED,

		/** A cap refused the copy: the message stays where it was. */
		REFUSED,

		/**
		 * The lease was no longer the caller's (completed by an earlier holder since,
		 * purged): nothing moved.
		 */
		NOT_LEASED,

		/**
		 * The completion's fence no longer held: the move task that moved it is another
		 * instance's now (this one stalled past the heartbeat timeout), whose settlement
		 * of the batch decides the message; nothing moved, and the copy was discarded,
		 * since that settlement may have run before it was pushed.
		 */
		FENCED

	}

	/** See {@link QueueOperations#redrive}. */
	public int redrive(String queue, String to, int max) {
		Checks.queueName(queue);
		if (to != null) {
			Checks.queueName(to);
		}
		if (max < 1) {
			throw InvalidRequestException.outOfRange("max", 1, Integer.MAX_VALUE);
		}
		long before = this.core.lastId();
		int moved = 0;
		List<Lease> leased;
		redrive: while (moved < max
				&& !(leased = this.core.lease(queue, Math.min(Limits.MAX_BATCH, max - moved))).isEmpty()) {
			for (Lease lease : leased) {
				if (lease.message().id() > before) {
					break redrive; // pushed since the redrive began (one returned by a
									// cap): its lease lapses
				}
				byte[] stored = lease.message().body();
				StoredMessage.DeadLetter origin = StoredMessage.read(stored).deadLetter();
				String target = (to != null) ? to : (origin != null) ? origin.source() : null;
				if (target == null) {
					continue; // not a dead letter and nowhere named: its lease lapses
				}
				if (redriveOne(queue, lease, target, 0, null) == Move.MOVED) {
					moved++;
				}
			}
		}
		this.events.redriven(moved);
		return moved;
	}

}
