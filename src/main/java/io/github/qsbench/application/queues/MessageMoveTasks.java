package io.github.qsbench.application.queues;

import java.time.Duration;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.github.qsbench.application.Checks;
import io.github.qsbench.application.InvalidRequestException;
import io.github.qsbench.application.QueueEvents;
import io.github.qsbench.application.queues.MessageMoveTask.Status;
import io.github.qsbench.application.queues.MoveTaskException.Reason;
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
 * the source; a cancel or a stop takes effect between two batches of moves; a batch cut
 * short by the death of its instance is settled by the next step of its task, on
 * whichever instance ({@link MoveTaskSteps}). Written once above the core on what every
 * strategy offers (lease, complete, delayed push, lease change), and the push under a
 * reserved id of a core that reserves ids (Redis).
 *
 * <p>
 * Tasks live in a {@link MoveTaskStore} (memory, or Redis shared by instances). While
 * started, this instance steps every {@value #STEP_MILLIS} ms on its one thread the tasks
 * it owns and those whose owner's heartbeat is {@value #HEARTBEAT_TIMEOUT_MILLIS} ms old
 * by the service's clock, which it takes over; {@link #step()} is one step, for tests
 * that move the clock. One task runs per source (the store's rule); the last
 * {@value #MAX_LISTED} of each source are kept. Thread safe: the store's calls are
 * atomic; only the stepping thread moves messages and keeps the paces.
 */
public final class MessageMoveTasks implements SmartLifecycle, DisposableBean {

	/** SQS's highest {@code MaxNumberOfMessagesPerSecond}. */
	public static final int MAX_PER_SECOND = 500;

	/** Tasks kept, and listed at most, per source: SQS's {@code MaxResults} bound. */
	public static final int MAX_LISTED = 10;

	/** Why a task failed whose message named no source and which had no destination. */
	static final String NO_ORIGIN = "CouldNotDetermineMessageSource";

	/** Why a task failed whose destination does not exist (any longer). */
	static final String NO_DESTINATION = "AWS.SimpleQueueService.NonExistentQueue";

	/** Why the tasks running when the service stopped failed. */
	static final String STOPPED = "ServiceStopped: the service stopped; the messages not moved are in the source queue.";

	private static final long STEP_MILLIS = 100;

	/**
	 * How long, by the service's clock, an owner's heartbeat may be silent before another
	 * instance takes its tasks over; an owner beats at every step.
	 */
	static final long HEARTBEAT_TIMEOUT_MILLIS = 30_000;

	private static final Logger logger = LoggerFactory.getLogger(MessageMoveTasks.class);

	private final QueueOperations operations;

	private final QueueServiceCore core;

	private final QueueEvents events;

	private final InstantSource clock;

	private final MoveTaskStore store;

	/** This instance as the owner of the tasks it runs. */
	private final String owner = UUID.randomUUID().toString();

	private final ScheduledThreadPoolExecutor mover;

	/** Steps a task: the stepping thread's. */
	private final MoveTaskSteps taskSteps;

	/** The pace of each task this instance stepped, by handle: the stepping thread's. */
	private final Map<String, MovePace> paces = new HashMap<>();

	/** The tasks this instance started or stepped last, by handle, for a stop to fail. */
	private final Map<String, MoveTaskStore.Running> mine = new ConcurrentHashMap<>();

	/** The steps, on {@link #mover}. */
	private final PeriodicPass steps;

	/**
	 * Makes a stop and a step's taking of its claimed tasks as {@link #mine} one before
	 * the other: a stop then waits for the step only if that step moves messages, and a
	 * step after the stop moves none.
	 */
	private final Object stepping = new Object();

	/** Whether {@link #stop} ran since {@link #start}; guarded by {@link #stepping}. */
	private boolean stopped;

	/** Tasks kept in this instance's memory; the parameters as below. */
	public MessageMoveTasks(QueueOperations operations, QueueServiceCore core, QueueEvents events,
			InstantSource clock) {
		this(operations, core, events, clock, new InMemoryMoveTasks());
	}

	/**
	 * Tasks kept in {@code store}.
	 * @param operations the queue operations whose dead-letter moves the tasks make
	 * @param core the core those operations call
	 * @param clock the core's clock, which paces the tasks and times the heartbeats
	 */
	public MessageMoveTasks(QueueOperations operations, QueueServiceCore core, QueueEvents events, InstantSource clock,
			MoveTaskStore store) {
		this.operations = operations;
		this.core = core;
		this.events = events;
		this.clock = clock;
		this.store = store;
		this.taskSteps = new MoveTaskSteps(operations, core, store, clock, this.owner);
		CustomizableThreadFactory threads = new CustomizableThreadFactory("move-tasks-");
		threads.setDaemon(true);
		this.mover = new ScheduledThreadPoolExecutor(1, threads);
		this.steps = new PeriodicPass(this.mover, Duration.ofMillis(STEP_MILLIS), this::step, logger,
				"A message move step");
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
		long now = this.clock.millis();
		MoveTaskStore.Running task = new MoveTaskStore.Running(
				new MessageMoveTask(UUID.randomUUID().toString(), source, destination, maxPerSecond, now, toMove, 0,
						Status.RUNNING, null),
				before, destination == null || this.operations.isExplicit(destination), List.of());
		if (!this.store.start(task, this.owner, now)) {
			throw new MoveTaskException(Reason.ALREADY_RUNNING,
					"There is already a task running. Only one active task is allowed for a source queue at a "
							+ "given time.");
		}
		this.mine.put(task.handle(), task);
		return task.task();
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
		return this.store.list(source, max);
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
		return this.store.task(handle);
	}

	/**
	 * Cancels a running task, whichever instance runs it: it becomes
	 * {@link Status#CANCELLING}, and {@link Status#CANCELLED} at its next step, between
	 * two batches of moves; what it moved stays moved.
	 * @return the task as the cancel left it
	 * @throws MoveTaskException if no task has that handle, or it is not running
	 */
	public MessageMoveTask cancel(String handle) {
		MessageMoveTask task = this.store.cancel(handle)
			.orElseThrow(() -> new MoveTaskException(Reason.NO_SUCH_TASK, "Task does not exist."));
		if (task.status() != Status.RUNNING) {
			throw new MoveTaskException(Reason.NOT_RUNNING,
					"The task is " + task.status() + ": only a RUNNING task can be cancelled.");
		}
		return InMemoryMoveTasks.with(task, Status.CANCELLING, null, 0);
	}

	private void requireSource(String source) {
		if (!this.operations.exists(source)) {
			throw new MoveTaskException(Reason.NO_SUCH_SOURCE, "The source queue '" + source + "' does not exist.");
		}
	}

	/**
	 * One step of every active task this instance owns or takes over: each moves what its
	 * pace allows since its last step, and ends if it is cancelled, its source holds no
	 * more of the messages it had at the start, or a message cannot move. Not to be
	 * called concurrently with itself.
	 * @return how many messages moved
	 */
	int step() {
		List<MoveTaskStore.Running> tasks = this.store.claim(this.owner, this.clock.millis(), HEARTBEAT_TIMEOUT_MILLIS);
		this.paces.keySet().retainAll(tasks.stream().map(MoveTaskStore.Running::handle).toList());
		if (tasks.isEmpty()) {
			return 0;
		}
		synchronized (this.stepping) {
			if (this.stopped) {
				return 0; // what this look claimed, another instance takes over
			}
			tasks.forEach(task -> this.mine.put(task.handle(), task));
		}
		long now = this.clock.millis();
		int moved = 0;
		for (MoveTaskStore.Running task : tasks) {
			MovePace pace = this.paces.computeIfAbsent(task.handle(),
					handle -> new MovePace(task.task().maxPerSecond(), task.task().startedMillis()));
			MoveTaskSteps.Stepped stepped = this.taskSteps.step(task, pace, now);
			moved += stepped.moved();
			if (stepped.over()) {
				this.mine.remove(task.handle()); // ended, or another instance took it
													// over
			}
		}
		if (moved > 0) {
			this.events.redriven(moved);
		}
		return moved;
	}

	@Override
	public void start() {
		synchronized (this.stepping) {
			this.stopped = false;
		}
		this.steps.start();
	}

	/**
	 * Ends the steps, waiting for one under way to finish its move, so no message is left
	 * half moved; the tasks this instance runs fail with {@value #STOPPED} (a stop is not
	 * a death: no other instance takes them over). With no task of its own it waits for
	 * nothing: a look for tasks to claim moves no message, and may be stuck in a store
	 * that does not answer (Redis down), which would hold the shutdown up to its
	 * time-out.
	 */
	@Override
	public void stop() {
		boolean moving;
		synchronized (this.stepping) {
			if (!this.steps.stop()) {
				return;
			}
			this.stopped = true;
			moving = !this.mine.isEmpty();
		}
		if (!moving) {
			return;
		}
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
		for (MoveTaskStore.Running task : List.copyOf(this.mine.values())) {
			this.store.finish(task, this.owner, Status.FAILED, STOPPED);
		}
		this.mine.clear();
	}

	/** Whether {@link #start} ran and {@link #stop} did not since. */
	@Override
	public boolean isRunning() {
		return this.steps.isRunning();
	}

	/** Stops after the web server (no request starts a task never stepped). */
	@Override
	public int getPhase() {
		return WebServerGracefulShutdownLifecycle.SMART_LIFECYCLE_PHASE - 2048;
	}

	@Override
	public void destroy() {
		this.mover.shutdownNow();
	}

}
