package io.github.qsbench.application.queues;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.github.qsbench.application.queues.MessageMoveTask.Status;

/**
 * Message move tasks in this instance's memory (see {@link MoveTaskStore}): one lock
 * guards every map; the one instance owns every task, so heartbeats are not kept. Moves
 * are recorded only on a core that reserves ids (a Redis core whose tasks a test keeps
 * here): an in-process core reserves none, so its tasks record nothing.
 */
public final class InMemoryMoveTasks implements MoveTaskStore {

	private final Object lock = new Object();

	/** The active task of each source, by source. */
	private final Map<String, MoveTaskStore.Running> active = new LinkedHashMap<>();

	/** The last tasks of each source by handle, newest first. */
	private final Map<String, Deque<String>> kept = new HashMap<>();

	/** The kept tasks by handle, as they stand. */
	private final Map<String, MessageMoveTask> byHandle = new HashMap<>();

	/** The moves recorded by each active task's batch under way, by handle. */
	private final Map<String, List<Move>> recorded = new HashMap<>();

	@Override
	public boolean start(Running task, String owner, long nowMillis) {
		synchronized (this.lock) {
			if (this.active.containsKey(task.source())) {
				return false;
			}
			this.active.put(task.source(), task);
			this.byHandle.put(task.handle(), task.task());
			Deque<String> handles = this.kept.computeIfAbsent(task.source(), unused -> new ArrayDeque<>());
			handles.addFirst(task.handle());
			if (handles.size() > MessageMoveTasks.MAX_LISTED) {
				// the oldest has ended: only the newest of a source can be active
				this.byHandle.remove(handles.removeLast());
			}
			return true;
		}
	}

	@Override
	public List<MessageMoveTask> list(String source, int max) {
		synchronized (this.lock) {
			List<MessageMoveTask> tasks = new ArrayList<>();
			for (String handle : this.kept.getOrDefault(source, new ArrayDeque<>())) {
				if (tasks.size() == max) {
					break;
				}
				tasks.add(this.byHandle.get(handle));
			}
			return tasks;
		}
	}

	@Override
	public Optional<MessageMoveTask> task(String handle) {
		synchronized (this.lock) {
			return Optional.ofNullable(this.byHandle.get(handle));
		}
	}

	@Override
	public Optional<MessageMoveTask> cancel(String handle) {
		synchronized (this.lock) {
			MessageMoveTask task = this.byHandle.get(handle);
			if (task != null && task.status() == Status.RUNNING) {
				this.byHandle.put(handle, with(task, Status.CANCELLING, null, 0));
			}
			return Optional.ofNullable(task);
		}
	}

	@Override
	public List<Running> claim(String owner, long nowMillis, long timeoutMillis) {
		synchronized (this.lock) {
			List<Running> tasks = new ArrayList<>(this.active.size());
			for (Running task : this.active.values()) {
				tasks.add(new Running(this.byHandle.get(task.handle()), task.before(), task.checkTarget(),
						this.recorded.getOrDefault(task.handle(), List.of())));
			}
			return tasks;
		}
	}

	@Override
	public boolean record(Running task, String owner, List<Move> moves) {
		synchronized (this.lock) {
			if (!isActive(task)) {
				return false;
			}
			this.recorded.put(task.handle(), List.copyOf(moves));
			return true;
		}
	}

	@Override
	public Status progress(Running task, String owner, long moved, long nowMillis) {
		synchronized (this.lock) {
			MessageMoveTask now = this.byHandle.get(task.handle());
			if (now == null || !isActive(task)) {
				return null;
			}
			this.recorded.remove(task.handle());
			if (moved > 0) {
				now = with(now, now.status(), null, moved);
				this.byHandle.put(task.handle(), now);
			}
			return now.status();
		}
	}

	@Override
	public void finish(Running task, String owner, Status status, String failureReason) {
		synchronized (this.lock) {
			MessageMoveTask now = this.byHandle.get(task.handle());
			if (now == null || !isActive(task)) {
				return;
			}
			this.active.remove(task.source());
			this.recorded.remove(task.handle());
			Status ended = (status == Status.COMPLETED && now.status() == Status.CANCELLING) ? Status.CANCELLED
					: status;
			this.byHandle.put(task.handle(), with(now, ended, failureReason, 0));
		}
	}

	/** Whether the task is its source's active one. Guarded by {@link #lock}. */
	private boolean isActive(Running task) {
		Running active = this.active.get(task.source());
		return active != null && active.handle().equals(task.handle());
	}

	/** The task with that status and failure reason, and {@code moved} more moved. */
	static MessageMoveTask with(MessageMoveTask task, Status status, String failureReason, long moved) {
		return new MessageMoveTask(task.handle(), task.source(), task.destination(), task.maxPerSecond(),
				task.startedMillis(), task.toMove(), task.moved() + moved, status, failureReason);
	}

}
