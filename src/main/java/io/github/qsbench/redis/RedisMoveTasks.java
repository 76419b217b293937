package io.github.qsbench.redis;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.github.qsbench.application.queues.MessageMoveTask;
import io.github.qsbench.application.queues.MessageMoveTask.Status;
import io.github.qsbench.application.queues.MessageMoveTasks;
import io.github.qsbench.application.queues.MoveTaskStore;
import io.github.qsbench.core.CompletionFence;

import org.springframework.data.redis.connection.ReturnType;

/**
 * Message move tasks kept in Redis (see {@link MoveTaskStore}), shared by every instance
 * on the namespace. Per source, on its slot, one hash {@code <ns>{source}:moves}: the
 * field {@code active} names the active task's handle (the one-task rule: a start sets it
 * only if absent), {@code order} the kept handles newest first, and
 * {@code <handle>.<attribute>} each kept task's record (its status, whose
 * {@code CANCELLING} is the cancel flag, its count of moves, its {@code owner} and the
 * owner's heartbeat {@code beat}, by the service's clock, and {@code moving}, the moves
 * of the batch under way, one a line). Across sources: the hash {@code <ns>moves:handles}
 * finds a handle's source, and the set {@code <ns>moves:active} names the sources with an
 * active task, which every instance reads each step to find tasks to take over. Each call
 * on a source is one script, atomic; on a cluster the two shared keys live on slots of
 * their own and take a command more, and the source's hash decides: a name is dropped
 * from the set only once its hash has no active task, checked after the removal.
 */
final class RedisMoveTasks implements MoveTaskStore {

	private static final LuaScript START = LuaScript.of(RedisMoveTasks.class, "move-start", ReturnType.MULTI);

	private static final LuaScript CLAIM = LuaScript.of(RedisMoveTasks.class, "move-claim", ReturnType.MULTI);

	private static final LuaScript RECORD = LuaScript.of(RedisMoveTasks.class, "move-record", ReturnType.INTEGER);

	private static final LuaScript PROGRESS = LuaScript.of(RedisMoveTasks.class, "move-progress", ReturnType.VALUE);

	private static final LuaScript FINISH = LuaScript.of(RedisMoveTasks.class, "move-finish", ReturnType.INTEGER);

	private static final LuaScript CANCEL = LuaScript.of(RedisMoveTasks.class, "move-cancel", ReturnType.VALUE);

	private static final List<String> TASKS = List.of("moves");

	/** The hash of the tasks' sources by handle ({@link RedisStore#key}). */
	private static final String HANDLES = "moves:handles";

	/** The set of sources with an active task ({@link RedisStore#key}). */
	private static final String ACTIVE_SOURCES = "moves:active";

	private static final byte[] ACTIVE = RedisStore.utf8("active");

	private final RedisStore store;

	private final byte[] handles;

	/** The sources with an active task. */
	private final RedisNameSet active;

	/**
	 * While no task was active at the last look: until when (service clock) a claim does
	 * not look again ({@link #IDLE_LOOK_MILLIS}), unless this instance starts a task.
	 * Guarded by this, with {@link #starts}.
	 */
	private long idleUntilMillis = Long.MIN_VALUE;

	/**
	 * Tasks started through this instance, each counted once its records are written: a
	 * look that found none active goes idle only if no start was counted since it began,
	 * else a look that read the set just before a start's records would idle past the
	 * start (which held a task unstepped for a second of the service's clock, for good on
	 * a test's stopped one). Guarded by this.
	 */
	private long starts;

	/**
	 * How often an instance with no active task in the namespace looks for one (to take
	 * over a task whose owner died): once a second rather than every step (10 a second).
	 * A takeover waits for a heartbeat 30 s old anyway, and a task started through this
	 * instance is stepped at once.
	 */
	static final long IDLE_LOOK_MILLIS = 1_000;

	RedisMoveTasks(RedisStore store) {
		this.store = store;
		this.handles = store.key(HANDLES);
		this.active = new RedisNameSet(store, ACTIVE_SOURCES);
	}

	@Override
	public boolean start(Running task, String owner, long nowMillis) {
		MessageMoveTask record = task.task();
		List<byte[]> args = new ArrayList<>();
		add(args, record.source(), record.handle(), MessageMoveTasks.MAX_LISTED);
		add(args, "source", record.source(), "started", record.startedMillis(), "toMove", record.toMove(), "moved", 0,
				"status", Status.RUNNING, "before", task.before(), "checkTarget", task.checkTarget(), "owner", owner,
				"beat", nowMillis);
		if (record.destination() != null) {
			add(args, "destination", record.destination());
		}
		if (record.maxPerSecond() != null) {
			add(args, "maxPerSecond", record.maxPerSecond());
		}
		List<Object> answer = this.store.run(START, keys(record.source(), this.handles, this.active.key()),
				args.toArray(byte[][]::new));
		if ((Long) answer.get(0) == 0) {
			return false;
		}
		if (this.store.cluster()) {
			byte[] source = RedisStore.utf8(record.source());
			this.store.call(redis -> {
				redis.hashCommands().hSet(this.handles, RedisStore.utf8(record.handle()), source);
				for (Object dropped : answer.subList(1, answer.size())) {
					redis.hashCommands().hDel(this.handles, (byte[]) dropped);
				}
				return redis.setCommands().sAdd(this.active.key(), source);
			});
		}
		startedHere();
		// a failover that lost the task's record, or a cluster's handle or active
		// source, would lose a task that was answered as started
		return this.store.acknowledged()
			.namespaceReplicated(HANDLES, this.store.acknowledged()
				.namespaceReplicated(ACTIVE_SOURCES, this.store.acknowledged().replicated(record.source(), true)));
	}

	/** A start's records written: the next look looks ({@link #starts}). */
	private synchronized void startedHere() {
		this.starts++;
		this.idleUntilMillis = Long.MIN_VALUE;
	}

	@Override
	public List<MessageMoveTask> list(String source, int max) {
		Map<String, String> fields = read(source);
		List<MessageMoveTask> tasks = new ArrayList<>();
		for (String handle : fields.getOrDefault("order", "").split(" ")) {
			if (!handle.isEmpty() && tasks.size() < max) {
				tasks.add(running(handle, fields).task());
			}
		}
		return tasks;
	}

	@Override
	public Optional<MessageMoveTask> task(String handle) {
		String source = sourceOf(handle);
		Map<String, String> fields = (source != null) ? read(source) : Map.of();
		return fields.containsKey(handle + ".status") ? Optional.of(running(handle, fields).task()) : Optional.empty();
	}

	@Override
	public Optional<MessageMoveTask> cancel(String handle) {
		String source = sourceOf(handle);
		if (source == null) {
			return Optional.empty();
		}
		String found = RedisStore.utf8(this.store.acknowledged()
			.replicated(source, this.store.<byte[]>run(CANCEL, keys(source), RedisStore.utf8(handle))));
		if (found.isEmpty()) {
			return Optional.empty();
		}
		MessageMoveTask now = running(handle, read(source)).task();
		return Optional.of(new MessageMoveTask(now.handle(), now.source(), now.destination(), now.maxPerSecond(),
				now.startedMillis(), now.toMove(), now.moved(), Status.valueOf(found), now.failureReason()));
	}

	/**
	 * One script per source in the set of active sources: one more round trip each. While
	 * the set was empty at the last look, none for {@link #IDLE_LOOK_MILLIS} (of the
	 * service's clock; at once if it went back).
	 */
	@Override
	public List<Running> claim(String owner, long nowMillis, long timeoutMillis) {
		long startsBefore;
		synchronized (this) {
			if (nowMillis < this.idleUntilMillis && nowMillis >= this.idleUntilMillis - IDLE_LOOK_MILLIS) {
				return List.of();
			}
			startsBefore = this.starts;
		}
		List<String> sources = this.active.names();
		if (sources.isEmpty()) {
			synchronized (this) {
				if (this.starts == startsBefore) {
					this.idleUntilMillis = nowMillis + IDLE_LOOK_MILLIS;
				}
			}
			return List.of();
		}
		List<Running> tasks = new ArrayList<>();
		for (String source : sources) {
			List<Object> answer = this.store.run(CLAIM, keys(source), RedisStore.utf8(owner), ascii(nowMillis),
					ascii(timeoutMillis));
			String state = RedisStore.utf8((byte[]) answer.get(0));
			if (state.equals("none")) {
				unregister(source);
			}
			else if (state.equals("mine")) {
				String handle = RedisStore.utf8((byte[]) answer.get(1));
				Map<String, String> fields = new HashMap<>();
				for (int i = 2; i + 1 < answer.size(); i += 2) {
					fields.put(handle + "." + RedisStore.utf8((byte[]) answer.get(i)),
							RedisStore.utf8((byte[]) answer.get(i + 1)));
				}
				tasks.add(running(handle, fields));
			}
		}
		return tasks;
	}

	@Override
	public boolean record(Running task, String owner, List<Move> moves) {
		StringBuilder lines = new StringBuilder();
		for (Move move : moves) {
			lines.append(line(move)).append('\n');
		}
		long recorded = this.store.run(RECORD, keys(task.source()), RedisStore.utf8(task.handle()),
				RedisStore.utf8(owner), RedisStore.utf8(lines.toString()));
		return recorded == 1;
	}

	/**
	 * The task's hash and the move's recorded line: {@code move-complete.lua}, which
	 * {@link RedisQS#completeFenced} runs on the source's slot, checks them beside the
	 * message.
	 */
	@Override
	public CompletionFence fence(Running task, String owner, Move move) {
		return new Fence(task.source(), keys(task.source()).get(0), task.handle(), owner, line(move));
	}

	/** A move as {@link #record} writes it, without its newline. */
	private static String line(Move move) {
		return move.id() + " " + move.delivery() + " " + move.copy() + " " + move.target();
	}

	@Override
	public Status progress(Running task, String owner, long moved, long nowMillis) {
		String status = RedisStore.utf8(this.store.<byte[]>run(PROGRESS, keys(task.source()),
				RedisStore.utf8(task.handle()), RedisStore.utf8(owner), ascii(nowMillis), ascii(moved)));
		return status.isEmpty() ? null : Status.valueOf(status);
	}

	@Override
	public void finish(Running task, String owner, Status status, String failureReason) {
		long ended = this.store.run(FINISH, keys(task.source(), this.active.key()), RedisStore.utf8(task.handle()),
				RedisStore.utf8(owner), RedisStore.utf8(status.name()),
				RedisStore.utf8((failureReason != null) ? failureReason : ""), RedisStore.utf8(task.source()));
		if (ended == 1 && this.store.cluster()) {
			unregister(task.source());
		}
	}

	/**
	 * Drops a source from the set of active sources unless its hash has an active task
	 * after the removal: a start that raced this set its hash's {@code active} before it
	 * added the name.
	 */
	private void unregister(String source) {
		byte[] hash = keys(source).get(0);
		this.active.removeUnless(source,
				() -> Boolean.TRUE.equals(this.store.call(redis -> redis.hashCommands().hExists(hash, ACTIVE))));
	}

	private String sourceOf(String handle) {
		byte[] source = this.store.call(redis -> redis.hashCommands().hGet(this.handles, RedisStore.utf8(handle)));
		return (source != null) ? RedisStore.utf8(source) : null;
	}

	private Map<String, String> read(String source) {
		Map<byte[], byte[]> hash = this.store.call(redis -> redis.hashCommands().hGetAll(keys(source).get(0)));
		Map<String, String> fields = new HashMap<>();
		if (hash != null) {
			hash.forEach((field, value) -> fields.put(RedisStore.utf8(field), RedisStore.utf8(value)));
		}
		return fields;
	}

	/** The task {@code handle} from its source's fields. */
	private static Running running(String handle, Map<String, String> fields) {
		String prefix = handle + ".";
		String maxPerSecond = fields.get(prefix + "maxPerSecond");
		MessageMoveTask task = new MessageMoveTask(handle, fields.get(prefix + "source"),
				fields.get(prefix + "destination"), (maxPerSecond != null) ? Integer.valueOf(maxPerSecond) : null,
				Long.parseLong(fields.get(prefix + "started")), Long.parseLong(fields.get(prefix + "toMove")),
				Long.parseLong(fields.get(prefix + "moved")), Status.valueOf(fields.get(prefix + "status")),
				fields.get(prefix + "reason"));
		return new Running(task, Long.parseLong(fields.get(prefix + "before")),
				Boolean.parseBoolean(fields.get(prefix + "checkTarget")), moves(fields.get(prefix + "moving")));
	}

	/** The moves {@link #record} wrote, none for {@code null}. */
	private static List<Move> moves(String lines) {
		List<Move> moves = new ArrayList<>();
		for (String line : (lines != null) ? lines.split("\n") : new String[0]) {
			String[] parts = line.split(" ", 4);
			if (parts.length == 4) {
				moves.add(new Move(Long.parseLong(parts[0]), Integer.parseInt(parts[1]), parts[3],
						Long.parseLong(parts[2])));
			}
		}
		return moves;
	}

	/** The source's hash, then the {@code shared} keys where a script reaches them. */
	private List<byte[]> keys(String source, byte[]... shared) {
		return this.store.queueKeys(source, TASKS, shared);
	}

	private static void add(List<byte[]> args, Object... values) {
		for (Object value : values) {
			args.add(RedisStore.utf8(String.valueOf(value)));
		}
	}

	private static byte[] ascii(long number) {
		return RedisStore.utf8(Long.toString(number));
	}

	/**
	 * The fence of a recorded move's completion in its source
	 * ({@link RedisMoveTasks#fence}).
	 *
	 * @param source the source queue, whose completion it fences
	 * @param tasks the source's hash of tasks, on its slot
	 * @param handle the task
	 * @param owner the instance that recorded the move
	 * @param line the move as recorded
	 */
	record Fence(String source, byte[] tasks, String handle, String owner, String line) implements CompletionFence {
	}

}
