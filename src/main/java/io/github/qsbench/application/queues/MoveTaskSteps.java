package io.github.qsbench.application.queues;

import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.github.qsbench.application.Limits;
import io.github.qsbench.application.StoredMessage;
import io.github.qsbench.application.queues.MessageMoveTask.Status;
import io.github.qsbench.core.ByIdOperation;
import io.github.qsbench.core.CompletionFence;
import io.github.qsbench.core.Lease;
import io.github.qsbench.core.QueueServiceCore;

/**
 * One step of one message move task on the instance that runs it
 * ({@link MessageMoveTasks}): the moves of a batch that did not end are settled first,
 * then the task moves what its pace allows, in batches leased from the source.
 *
 * <p>
 * A move takes three writes (push the held-back copy, complete the source message,
 * release the copy), on two slots of a Redis Cluster, so an instance can die between
 * them. Where the core reserves ids ({@link QueueServiceCore#reserveIds}), each batch
 * therefore records its moves ({@link MoveTaskStore#record}: source id, delivery, target,
 * the copy's reserved id) before it pushes the first copy, and its
 * {@link MoveTaskStore#progress} forgets them with the count. Whoever steps the task
 * next, the same instance or one that took it over, finds them still recorded if the
 * batch did not end, and settles each ({@link DeadLetters#settle}) before it moves
 * anything: made (the source message gone: the copy is released, and counted) or not (the
 * copy, if pushed, is discarded, and the message moves again). So every message moves
 * once, whatever instant the instance dies. An instance that is not dead but stalled past
 * the heartbeat timeout mid batch must then not complete a source message after that
 * settlement discarded its copy: each recorded move completes its message under the
 * store's fence ({@link MoveTaskStore#fence}), which holds only while this instance runs
 * the task and the move is still recorded; once it fails, the instance discards its copy
 * and the batch stops, moving and releasing nothing more. Used by the stepping thread
 * alone.
 */
final class MoveTaskSteps {

	private final QueueOperations operations;

	private final DeadLetters deadLetters;

	private final QueueServiceCore core;

	private final MoveTaskStore store;

	private final InstantSource clock;

	/** The instance as the owner of the tasks it runs. */
	private final String owner;

	MoveTaskSteps(QueueOperations operations, QueueServiceCore core, MoveTaskStore store, InstantSource clock,
			String owner) {
		this.operations = operations;
		this.deadLetters = operations.deadLetters();
		this.core = core;
		this.store = store;
		this.clock = clock;
		this.owner = owner;
	}

	/**
	 * Settles the task's unsettled moves, then moves its next messages, as many as its
	 * pace allows now, in batches leased from the source; what a batch does not move
	 * (pushed after the task began, or after a failure) is made ready again at once.
	 * After each batch the store counts the moves and answers the cancel flag, and
	 * whether this instance still owns the task. The source and destination are checked
	 * once per step.
	 */
	Stepped step(MoveTaskStore.Running task, MovePace pace, long now) {
		Status status = task.task().status();
		int moved = 0;
		if (!task.unsettled().isEmpty()) {
			for (MoveTaskStore.Move move : task.unsettled()) {
				moved += this.deadLetters.settle(task.source(), move) ? 1 : 0;
			}
			status = this.store.progress(task, this.owner, moved, this.clock.millis());
		}
		int budget = pace.budget(now);
		int paced = 0;
		String failure = null;
		boolean done = false;
		Map<String, Boolean> exists = new HashMap<>();
		while (status == Status.RUNNING && paced < budget && failure == null && !done) {
			List<Lease> leased = this.core.lease(task.source(), Math.min(budget - paced, Limits.MAX_BATCH));
			Batch batch = move(task, leased, exists);
			paced += batch.moved();
			failure = batch.failure();
			done = !batch.eligible();
			status = batch.owned() ? this.store.progress(task, this.owner, batch.moved(), this.clock.millis()) : null;
		}
		pace.spent(paced);
		Status ending = (status == null) ? null : (failure != null) ? Status.FAILED
				: done ? Status.COMPLETED : (status == Status.CANCELLING) ? Status.CANCELLED : null;
		if (ending != null) {
			this.store.finish(task, this.owner, ending, failure);
		}
		return new Stepped(moved + paced, status == null || ending != null);
	}

	/**
	 * Moves the messages of one batch that the task is to move; releases the others, and
	 * all that follow a failure. The moves are recorded before the first copy is pushed,
	 * where the core reserves the copies' ids.
	 */
	private Batch move(MoveTaskStore.Running task, List<Lease> leased, Map<String, Boolean> exists) {
		List<Lease> moving = new ArrayList<>(leased.size());
		List<String> targets = new ArrayList<>(leased.size());
		String failure = null;
		boolean eligible = false;
		for (Lease lease : leased) {
			if (failure != null || lease.message().id() > task.before()) {
				release(task.source(), lease);
				continue;
			}
			eligible = true;
			String target = target(task.task(), lease);
			if (target == null) {
				failure = MessageMoveTasks.NO_ORIGIN;
			}
			else if (task.checkTarget() && !exists.computeIfAbsent(target, this.operations::exists)) {
				failure = MessageMoveTasks.NO_DESTINATION;
			}
			if (failure != null) {
				release(task.source(), lease);
			}
			else {
				moving.add(lease);
				targets.add(target);
			}
		}
		long first = moving.isEmpty() ? 0 : this.core.reserveIds(moving.size());
		List<MoveTaskStore.Move> recorded = (first > 0) ? moves(moving, targets, first) : List.of();
		if (first > 0 && !this.store.record(task, this.owner, recorded)) {
			moving.forEach(lease -> release(task.source(), lease));
			return new Batch(0, null, eligible, false);
		}
		int moved = 0;
		String refused = null;
		for (int i = 0; i < moving.size(); i++) {
			Lease lease = moving.get(i);
			if (refused != null) {
				release(task.source(), lease);
				continue;
			}
			long copyId = (first > 0) ? first + i : 0;
			CompletionFence fence = (first > 0) ? this.store.fence(task, this.owner, recorded.get(i)) : null;
			switch (this.deadLetters.redriveOne(task.source(), lease, targets.get(i), copyId, fence)) {
				case MOVED -> moved++;
				case REFUSED -> {
					refused = "OverLimit: queue '" + targets.get(i)
							+ "' refused the message, a cap under qs.limits is reached; it stays in the source.";
					release(task.source(), lease);
				}
				case NOT_LEASED -> {
					// completed by its earlier holder, or purged, since: gone
				}
				case FENCED -> {
					// the task is another's: its settlement decides this
					// move and the rest (their leases are its to end), and
					// counts the moves made
					return new Batch(moved, null, eligible, false);
				}
			}
		}
		// the moves made come before the message that failed the plan
		return new Batch(moved, (refused != null) ? refused : failure, eligible, true);
	}

	private static List<MoveTaskStore.Move> moves(List<Lease> moving, List<String> targets, long first) {
		List<MoveTaskStore.Move> moves = new ArrayList<>(moving.size());
		for (int i = 0; i < moving.size(); i++) {
			Lease lease = moving.get(i);
			moves.add(new MoveTaskStore.Move(lease.message().id(), lease.delivery(), targets.get(i), first + i));
		}
		return moves;
	}

	/**
	 * Where a leased message goes: the task's destination, else the queue it came from.
	 */
	private static String target(MessageMoveTask task, Lease lease) {
		if (task.destination() != null) {
			return task.destination();
		}
		StoredMessage.DeadLetter origin = StoredMessage.read(lease.message().body()).deadLetter();
		return (origin != null) ? origin.source() : null;
	}

	/** Makes a message the task leased and did not move ready again at once. */
	private void release(String source, Lease lease) {
		this.core.byId(source, lease.message().id(), ByIdOperation.CHANGE_LEASE, lease.delivery(), 0);
	}

	/**
	 * What a step did.
	 *
	 * @param moved how many messages it moved, with the settled moves that had been made
	 * @param over whether the task ended, or another instance took it over
	 */
	record Stepped(int moved, boolean over) {
	}

	/**
	 * What a batch did.
	 *
	 * @param moved how many it moved
	 * @param failure why the task fails, {@code null} if it does not
	 * @param eligible whether it leased a message the task is to move
	 * @param owned whether this instance still ran the task when it recorded the moves
	 * and completed them
	 */
	private record Batch(int moved, String failure, boolean eligible, boolean owned) {
	}

}
