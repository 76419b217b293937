package io.github.qsbench.application.queues;

import java.util.List;
import java.util.Optional;

import io.github.qsbench.application.queues.MessageMoveTask.Status;
import io.github.qsbench.core.CompletionFence;
import io.github.qsbench.core.QueueServiceCore;

/**
 * Where message move tasks ({@link MessageMoveTasks}) are kept: per source, its active
 * task and its last {@link MessageMoveTasks#MAX_LISTED} tasks; per task, its record, its
 * status (the cancel flag is the status {@link Status#CANCELLING}) and which instance
 * runs it with that instance's last heartbeat. In this instance's memory
 * ({@link InMemoryMoveTasks}), or in Redis, so that every instance on one namespace lists
 * and cancels the same tasks, at most one task runs per source whichever instance was
 * asked, and an instance takes over a task whose owner's heartbeat stopped.
 *
 * <p>
 * Each call is atomic on its own. Only the owner moves a task's messages, and it asks
 * ({@link #progress}) after each batch whether it still owns the task and whether it was
 * cancelled, so a task is stepped by one instance at a time but for an owner that stalls
 * past the timeout while another takes over: then both may lease from the source, which
 * the moves tolerate (each is decided by its lease's completion, which for a recorded
 * move is fenced, {@link #fence}).
 *
 * <p>
 * Where the core reserves ids
 * ({@link io.github.qsbench.core.QueueServiceCore#reserveIds}, Redis), an owner records
 * each batch's moves ({@link #record}) before it pushes the first copy, and the batch's
 * {@link #progress} forgets them with the count: moves still recorded when a step begins
 * belong to a batch that did not end (its instance died, or the step failed), and that
 * step settles them ({@link Running#unsettled}) before it moves anything.
 */
public interface MoveTaskStore {

	/**
	 * Registers {@code task} (running, nothing moved) as its source's active task, unless
	 * one is active, run by {@code owner} whose heartbeat it beats at {@code nowMillis};
	 * the oldest kept task of the source beyond {@link MessageMoveTasks#MAX_LISTED} is
	 * forgotten.
	 * @return whether it was registered
	 */
	boolean start(Running task, String owner, long nowMillis);

	/** The source's last {@code max} tasks, newest first. */
	List<MessageMoveTask> list(String source, int max);

	/** The task with that handle, if it is kept. */
	Optional<MessageMoveTask> task(String handle);

	/**
	 * Sets the cancel flag of a running task: it becomes {@link Status#CANCELLING}.
	 * @return the task as the call found it (a status other than {@link Status#RUNNING}:
	 * nothing changed), empty if none has that handle
	 */
	Optional<MessageMoveTask> cancel(String handle);

	/**
	 * The active tasks {@code owner} is to step now: its own, and any whose owner's last
	 * heartbeat is {@code timeoutMillis} or more before {@code nowMillis}, which it takes
	 * over; each one's heartbeat is set to {@code nowMillis}.
	 */
	List<Running> claim(String owner, long nowMillis, long timeoutMillis);

	/**
	 * Records the moves a batch of the task is about to make, in place of any recorded
	 * before, if {@code owner} runs it.
	 * @return whether it was recorded: if not, {@code owner} no longer runs the task and
	 * must not move
	 */
	boolean record(Running task, String owner, List<Move> moves);

	/**
	 * The fence of the completion of {@code move}'s message in the source
	 * ({@link QueueServiceCore#completeFenced}), one of the moves the batch of
	 * {@code owner} recorded: it holds while {@code owner} runs the task and the move is
	 * still recorded, so once another instance took the task over (and maybe settled the
	 * batch, discarding the copy of a message still in the source) the owner completes
	 * nothing, however long it stalled. {@code null} (unless overridden) where no owner
	 * is taken over alive: in this instance's memory, which one instance steps.
	 */
	default CompletionFence fence(Running task, String owner, Move move) {
		return null;
	}

	/**
	 * Adds {@code moved} to the task's count, forgets its recorded moves and beats its
	 * owner's heartbeat.
	 * @return its status, for the cancel flag; {@code null} if {@code owner} no longer
	 * runs it (it ended, or another instance took it over)
	 */
	Status progress(Running task, String owner, long moved, long nowMillis);

	/**
	 * Ends the task, if {@code owner} runs it: {@link Status#COMPLETED} of a cancelled
	 * task ({@link Status#CANCELLING}) ends it {@link Status#CANCELLED}, as the cancel's
	 * answer said it would; its recorded moves are forgotten.
	 */
	void finish(Running task, String owner, Status status, String failureReason);

	/**
	 * An active task as its owner runs it.
	 *
	 * @param task what it was when started or claimed
	 * @param before the last id pushed when it started: later messages stay
	 * @param checkTarget whether a target must exist for a message to move there: a queue
	 * created explicitly, as the queues a dead letter came from are; a destination
	 * created by pushes exists while it holds messages, and a move's push keeps it
	 * @param unsettled the moves recorded by a batch that did not end, to settle first
	 */
	record Running(MessageMoveTask task, long before, boolean checkTarget, List<Move> unsettled) {

		public String handle() {
			return this.task.handle();
		}

		public String source() {
			return this.task.source();
		}

	}

	/**
	 * A move a batch is about to make ({@link DeadLetters#settle}).
	 *
	 * @param id the message's id in the source
	 * @param delivery the delivery the task leased it by
	 * @param target where it goes
	 * @param copy the id reserved for its copy there
	 */
	record Move(long id, int delivery, String target, long copy) {
	}

}
