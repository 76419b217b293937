package io.github.qsbench.application.queues;

import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.github.qsbench.application.Checks;
import io.github.qsbench.application.InvalidRequestException;
import io.github.qsbench.application.Limits;
import io.github.qsbench.application.QueueEvents;
import io.github.qsbench.application.StoredMessage;
import io.github.qsbench.application.queues.MessageMoveTask.Status;
import io.github.qsbench.application.queues.MoveTaskException.Reason;
import io.github.qsbench.core.Lease;
import io.github.qsbench.core.QueueServiceCore;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.web.server.context.WebServerGracefulShutdownLifecycle;
import org.springframework.context.SmartLifecycle;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

/**
 * Message move tasks, SQS's way to redrive a dead-letter queue in the background
 * ({@code StartMessageMoveTask}): each moves the messages its source held when it
 * started, to one destination or each back to the queue it came from, at most
 * {@code maxPerSecond} a second, one message at a time by the move a redrive makes
 * ({@link DeadLetters#redriveOne}), so a message is in exactly one queue whatever
 * happens: a move the destination's cap refuses fails the task and leaves the message in
 * the source; a cancel or a stop takes effect between two moves. Written once above the
 * core on what every strategy offers (lease, complete, delayed push, lease change).
 *
 * <p>
 * While started, the tasks step every {@value #STEP_MILLIS} ms on this object's one
 * thread; {@link #step()} is one step, which tests call after moving the clock, since the
 * pace is measured by the service's clock. At most one task runs per source; the last
 * {@value #MAX_LISTED} tasks of each source are kept, in this instance's memory (a task
 * and its list are per instance, on Redis too). Thread safe: starts, cancels and the
 * step's status changes take one lock; only the stepping thread moves messages.
 */
public final class MessageMoveTasks implements SmartLifecycle, DisposableBean {

	/** SQS's highest {@code MaxNumberOfMessagesPerSecond}. */
	public static final int MAX_PER_SECOND = 500;

	/** Tasks kept, and listed at most, per source: SQS's {@code MaxResults} bound. */
	public static final int MAX_LISTED = 10;

	/**
	 * What a task without a pace moves per step at most, so that one task does not hold
	 * up the others or a stop.
	 */
	static final int UNPACED_PER_STEP = 1_000;

	/** Why a task failed whose message named no source and which had no destination. */
	static final String NO_ORIGIN = "CouldNotDetermineMessageSource";

	/** Why a task failed whose destination does not exist (any longer). */
	static final String NO_DESTINATION = "AWS.SimpleQueueService.NonExistentQueue";

	/** Why the tasks running when the service stopped failed. */
	static final String STOPPED = "ServiceStopped: the service stopped; the messages not moved are in the source queue.";

	private static final long STEP_MILLIS = 100;

	private static final Logger logger = LoggerFactory.getLogger(MessageMoveTasks.class);

	private final QueueOperations operations;

	private final DeadLetters deadLetters;

	private final QueueServiceCore core;

	private final QueueEvents events;

	private final InstantSource clock;

	private final ScheduledThreadPoolExecutor mover;

	private final Object lock = new Object();

	/** The active task of each source, by source. Guarded by {@link #lock}. */
	private final Map<String, Task> active = new LinkedHashMap<>();

	/** The last tasks of each source, newest first. Guarded by {@link #lock}. */
	private final Map<String, Deque<Task>> kept = new HashMap<>();

	/** The kept tasks by handle. Guarded by {@link #lock}. */
	private final Map<String, Task> byHandle = new HashMap<>();

	/** The steps while started, else {@code null}. */
	private volatile ScheduledFuture<?> steps;

	/**
	 * @param operations the queue operations whose dead-letter moves the tasks make
	 * @param core the core those operations call
	 * @param clock the core's clock, which paces the tasks
	 */
	public MessageMoveTasks(QueueOperations operations, QueueServiceCore core, QueueEvents events,
			InstantSource clock) {
		this.operations = operations;
		this.deadLetters = operations.deadLetters();
		this.core = core;
		this.events = events;
		this.clock = clock;
		CustomizableThreadFactory threads = new CustomizableThreadFactory("move-tasks-");
		threads.setDaemon(true);
		this.mover = new ScheduledThreadPoolExecutor(1, threads);
	}

	/**
	 * Starts a task moving the messages {@code source} holds now: all to
	 * {@code destination}, or each back to the queue it came from when it is
	 * {@code null}; at most {@code maxPerSecond} (1 to {@value #MAX_PER_SECOND}) a
	 * second, or {@code null}: as fast as it goes.
	 * @return the task as it starts
	 * @throws InvalidRequestException for a bad queue name or pace
	 * @throws MoveTaskException if a queue does not exist, the source is no queue's
	 * dead-letter queue, or a task runs on it already
	 */
	public MessageMoveTask start(String source, String destination, Integer maxPerSecond) {
		Checks.queueName(source);
		if (destination != null) {
			Checks.queueName(destination);
		}
		if (maxPerSecond != null && (maxPerSecond < 1 || maxPerSecond > MAX_PER_SECOND)) {
			throw InvalidRequestException.outOfRange("maxPerSecond", 1, MAX_PER_SECOND);
		}
		requireSource(source);
		if (destination != null && !this.operations.exists(destination)) {
			throw new MoveTaskException(Reason.NO_SUCH_DESTINATION,
					"The destination queue '" + destination + "' does not exist.");
		}
		if (this.operations.deadLetterSources(source).isEmpty()) {
			throw new MoveTaskException(Reason.NOT_A_DEAD_LETTER_QUEUE,
					"Source queue must be configured as a Dead Letter Queue.");
		}
		long before = this.core.lastId();
		long toMove = this.core.queue(source).map(stats -> (long) stats.ready() + stats.inflight()).orElse(0L);
		synchronized (this.lock) {
			if (this.active.containsKey(source)) {
				throw new MoveTaskException(Reason.ALREADY_RUNNING,
						"There is already a task running. Only one active task is allowed for a source queue at a "
								+ "given time.");
			}
			Task task = new Task(UUID.randomUUID().toString(), source, destination, maxPerSecond, this.clock.millis(),
					toMove, before, destination == null || this.operations.isExplicit(destination));
			this.active.put(source, task);
			this.byHandle.put(task.handle, task);
			Deque<Task> tasks = this.kept.computeIfAbsent(source, unused -> new ArrayDeque<>());
			tasks.addFirst(task);
			if (tasks.size() > MAX_LISTED) {
				// the oldest has ended: only the newest of a source can be active
				this.byHandle.remove(tasks.removeLast().handle);
			}
			return task.snapshot();
		}
	}

	/**
	 * The source's last {@code max} (1 to {@value #MAX_LISTED}) tasks, newest first.
	 * @throws MoveTaskException if the source does not exist
	 */
	public List<MessageMoveTask> list(String source, int max) {
		Checks.queueName(source);
		if (max < 1 || max > MAX_LISTED) {
			throw InvalidRequestException.outOfRange("max", 1, MAX_LISTED);
		}
		requireSource(source);
		synchronized (this.lock) {
			List<MessageMoveTask> tasks = new ArrayList<>();
			for (Task task : this.kept.getOrDefault(source, new ArrayDeque<>())) {
				if (tasks.size() == max) {
					break;
				}
				tasks.add(task.snapshot());
			}
			return tasks;
		}
	}

	/**
	 * Whether {@code handle} has the form of the handles {@link #start} gives out; one
	 * that has may still name no task.
	 */
	public static boolean isHandle(String handle) {
		if (handle.length() != 36) {
			return false;
		}
		try {
			return UUID.fromString(handle).toString().equals(handle);
		}
		catch (IllegalArgumentException ex) {
			return false;
		}
	}

	/** The task with that handle, if it is kept. */
	public Optional<MessageMoveTask> task(String handle) {
		synchronized (this.lock) {
			Task task = this.byHandle.get(handle);
			return (task != null) ? Optional.of(task.snapshot()) : Optional.empty();
		}
	}

	/**
	 * Cancels a running task: it becomes {@link Status#CANCELLING}, and
	 * {@link Status#CANCELLED} at its next step, between two moves; what it moved stays
	 * moved.
	 * @return the task as the cancel left it
	 * @throws MoveTaskException if no task has that handle, or it is not running
	 */
	public MessageMoveTask cancel(String handle) {
		synchronized (this.lock) {
			Task task = this.byHandle.get(handle);
			if (task == null) {
				throw new MoveTaskException(Reason.NO_SUCH_TASK, "Task does not exist.");
			}
			if (task.status != Status.RUNNING) {
				throw new MoveTaskException(Reason.NOT_RUNNING,
						"The task is " + task.status + ": only a RUNNING task can be cancelled.");
			}
			task.status = Status.CANCELLING;
			return task.snapshot();
		}
	}

	private void requireSource(String source) {
		if (!this.operations.exists(source)) {
			throw new MoveTaskException(Reason.NO_SUCH_SOURCE, "The source queue '" + source + "' does not exist.");
		}
	}

	/**
	 * One step of every active task: each moves what its pace allows since its last step,
	 * and ends if it is cancelled, its source holds no more of the messages it had at the
	 * start, or a message cannot move. Not to be called concurrently with itself.
	 * @return how many messages moved
	 */
	int step() {
		List<Task> tasks;
		synchronized (this.lock) {
			tasks = List.copyOf(this.active.values());
		}
		if (tasks.isEmpty()) {
			return 0;
		}
		long now = this.clock.millis();
		int moved = 0;
		for (Task task : tasks) {
			moved += advance(task, now);
		}
		if (moved > 0) {
			this.events.redriven(moved);
		}
		return moved;
	}

	/**
	 * Moves the task's next messages, as many as its pace allows now, in batches leased
	 * from the source; what a batch does not move (pushed after the task began, or after
	 * a cancel or a failure) is made ready again at once. The source and destination are
	 * checked once per step.
	 */
	private int advance(Task task, long now) {
		int budget = task.budget(now);
		int moved = 0;
		Map<String, Boolean> exists = new HashMap<>();
		while (moved < budget) {
			if (task.status != Status.RUNNING) {
				break;
			}
			List<Lease> leased = this.core.lease(task.source, Math.min(budget - moved, Limits.MAX_BATCH));
			boolean eligible = false;
			String failure = null;
			for (Lease lease : leased) {
				if (failure != null || task.status != Status.RUNNING || lease.message().id() > task.before) {
					release(task.source, lease);
					continue;
				}
				eligible = true;
				String target = target(task, lease);
				if (target == null) {
					failure = NO_ORIGIN;
				}
				else if (task.checkTarget && !exists.computeIfAbsent(target, this.operations::exists)) {
					failure = NO_DESTINATION;
				}
				else {
					switch (this.deadLetters.redriveOne(task.source, lease, target)) {
						case MOVED -> {
							moved++;
							task.moved++; // only this thread writes it
						}
						case REFUSED -> failure = "OverLimit: queue '" + target
								+ "' refused the message, a cap under qs.limits is reached; it stays in the source.";
						case NOT_LEASED -> {
							// completed by its earlier holder, or purged, since: gone
						}
					}
				}
				if (failure != null) {
					release(task.source, lease);
				}
			}
			if (failure != null) {
				finish(task, Status.FAILED, failure);
				break;
			}
			if (!eligible && task.status == Status.RUNNING) {
				finish(task, Status.COMPLETED, null);
				break;
			}
		}
		if (task.status == Status.CANCELLING) {
			finish(task, Status.CANCELLED, null);
		}
		task.spent(moved);
		return moved;
	}

	/**
	 * Where a leased message goes: the task's destination, else the queue it came from.
	 */
	private static String target(Task task, Lease lease) {
		if (task.destination != null) {
			return task.destination;
		}
		StoredMessage.DeadLetter origin = StoredMessage.read(lease.message().body()).deadLetter();
		return (origin != null) ? origin.source() : null;
	}

	/** Makes a message the task leased and did not move ready again at once. */
	private void release(String source, Lease lease) {
		this.core.changeLease(source, lease.message().id(), lease.delivery(), 0);
	}

	/**
	 * Ends the task. The step read the status without the lock, so a cancel may have come
	 * since: a task it found with no more to move then ends {@link Status#CANCELLED}, as
	 * the cancel's answer ({@link Status#CANCELLING}) said it would, not
	 * {@link Status#COMPLETED}.
	 */
	private void finish(Task task, Status status, String failureReason) {
		synchronized (this.lock) {
			task.status = (status == Status.COMPLETED && task.status == Status.CANCELLING) ? Status.CANCELLED : status;
			task.failureReason = failureReason;
			this.active.remove(task.source, task);
		}
	}

	private void stepLogged() {
		try {
			step();
		}
		catch (RuntimeException ex) {
			// the next step tries again; an exception would end the schedule
			logger.error("A message move step failed", ex);
		}
	}

	@Override
	public void start() {
		this.steps = this.mover.scheduleWithFixedDelay(this::stepLogged, STEP_MILLIS, STEP_MILLIS,
				TimeUnit.MILLISECONDS);
	}

	/**
	 * Ends the steps, waiting for one under way to finish its move, so no message is left
	 * half moved; the tasks still active fail with {@value #STOPPED}.
	 */
	@Override
	public void stop() {
		ScheduledFuture<?> stepping = this.steps;
		if (stepping == null) {
			return;
		}
		stepping.cancel(false);
		this.steps = null;
		try {
			// the one thread runs this after the step under way, if any
			this.mover.submit(() -> {
			}).get(10, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException | TimeoutException ex) {
			logger.warn("A message move step did not end in time", ex);
		}
		synchronized (this.lock) {
			for (Task task : List.copyOf(this.active.values())) {
				finish(task, Status.FAILED, STOPPED);
			}
		}
	}

	/**
	 * Whether {@link #start} ran and {@link #stop} did not since: Spring starts a
	 * lifecycle bean only if it is not running.
	 */
	@Override
	public boolean isRunning() {
		return this.steps != null;
	}

	/**
	 * Stops after the web server, so no request starts a task that would never step;
	 * starts before it.
	 */
	@Override
	public int getPhase() {
		return WebServerGracefulShutdownLifecycle.SMART_LIFECYCLE_PHASE - 2048;
	}

	@Override
	public void destroy() {
		this.mover.shutdownNow();
	}

	/**
	 * One task. Its status and failure reason change under the lock; {@link #moved} and
	 * the pace's state are written by the stepping thread alone.
	 */
	private static final class Task {

		final String handle;

		final String source;

		final String destination;

		final Integer maxPerSecond;

		final long startedMillis;

		final long toMove;

		/** The last id pushed when it started: later messages stay. */
		final long before;

		/**
		 * Whether a target must exist for a message to move there: a queue created
		 * explicitly, as the queues a dead letter came from are; a destination created by
		 * pushes exists while it holds messages, and a move's push keeps it, as a
		 * redrive's does.
		 */
		final boolean checkTarget;

		volatile Status status = Status.RUNNING;

		volatile String failureReason;

		volatile long moved;

		/** Moves the pace allows now: a token bucket holding at most a second's worth. */
		private double allowance;

		private long refilledAt;

		Task(String handle, String source, String destination, Integer maxPerSecond, long startedMillis, long toMove,
				long before, boolean checkTarget) {
			this.handle = handle;
			this.source = source;
			this.destination = destination;
			this.maxPerSecond = maxPerSecond;
			this.startedMillis = startedMillis;
			this.toMove = toMove;
			this.before = before;
			this.checkTarget = checkTarget;
			this.refilledAt = startedMillis;
		}

		/**
		 * How many it may move now: what its pace allowed since, up to a second's worth.
		 */
		int budget(long now) {
			if (this.maxPerSecond == null) {
				return UNPACED_PER_STEP;
			}
			this.allowance = Math.min(this.maxPerSecond,
					this.allowance + Math.max(0, now - this.refilledAt) * this.maxPerSecond / 1000.0);
			this.refilledAt = Math.max(now, this.refilledAt);
			return (int) this.allowance;
		}

		void spent(int moved) {
			if (this.maxPerSecond != null) {
				this.allowance -= moved;
			}
		}

		MessageMoveTask snapshot() {
			return new MessageMoveTask(this.handle, this.source, this.destination, this.maxPerSecond,
					this.startedMillis, this.toMove, this.moved, this.status, this.failureReason);
		}

	}

}
