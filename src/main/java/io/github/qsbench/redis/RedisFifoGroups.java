package io.github.qsbench.redis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.github.qsbench.application.fair.FairGroups;
import io.github.qsbench.application.fifo.FifoGroups;
import io.github.qsbench.application.fifo.FifoHeads;
import io.github.qsbench.application.fifo.FifoSends;
import io.github.qsbench.application.fifo.FifoState;

import org.springframework.data.redis.connection.ReturnType;

/**
 * FIFO groups kept in Redis (see {@link FifoGroups}), so that every instance on one Redis
 * keeps one order per group and the rule "one message of a group in flight" holds across
 * them. Per queue, on its slot: a list of ids per group ({@code fifo:group:<group>}), a
 * hash of each id's group ({@code fifo:groupOf}) and the set of groups
 * ({@code fifo:groups}); each call is one script, atomic.
 *
 * <p>
 * The same keys' slot holds the queue's core ({@link RedisQS}), so this releases a
 * group's new head itself ({@link FifoHeads}), in the script that makes it the head: it
 * re-scores the message's entry in the core's delayed set, where the push held it, to
 * when it is due, which the lease script then takes; no call after the script, and no
 * timer in an instance's memory, that an instance's death could cut.
 */
final class RedisFifoGroups implements FifoGroups, FifoHeads {

	private static final LuaScript APPEND = LuaScript.of(RedisFifoGroups.class, "fifo-append", ReturnType.INTEGER);

	private static final LuaScript REMOVE = LuaScript.of(RedisFifoGroups.class, "fifo-remove", ReturnType.INTEGER);

	private static final LuaScript HEAL = LuaScript.of(RedisFifoGroups.class, "fifo-heal", ReturnType.VALUE);

	private static final LuaScript FORGET = LuaScript.of(RedisFifoGroups.class, "fifo-forget", ReturnType.INTEGER);

	/** Each id's group, and the groups: a send's commit writes them too. */
	static final List<String> QUEUE_KEYS = List.of("fifo:groupOf", "fifo:groups");

	/** The prefix of a group's list of ids. */
	static final String GROUP = "fifo:group:";

	/**
	 * How many groups a {@link #heal} pass asks {@code SSCAN} for: the bound of one
	 * pass's work (a hint to Redis, which may return somewhat more).
	 */
	private static final int HEAL_GROUPS_PER_PASS = 100;

	private static final byte[] HEAL_COUNT = ascii(HEAL_GROUPS_PER_PASS);

	private final RedisQS core;

	private final RedisStore store;

	RedisFifoGroups(RedisQS core) {
		this.core = core;
		this.store = core.store();
	}

	@Override
	public boolean append(String queue, String group, long id) {
		List<byte[]> keys = this.store.queueKeys(queue, List.of(GROUP + group, QUEUE_KEYS.get(0), QUEUE_KEYS.get(1)));
		return this.store.<Long>run(APPEND, keys, ascii(id), RedisStore.utf8(group)) == 1;
	}

	@Override
	public long remove(String queue, long id) {
		return this.store.<Long>run(REMOVE, this.store.queueKeys(queue, QUEUE_KEYS), ascii(id), groupPrefix(queue));
	}

	@Override
	public boolean append(String queue, String group, long id, long nowMillis, long delayMillis) {
		List<byte[]> keys = this.store.queueKeys(queue,
				List.of(GROUP + group, QUEUE_KEYS.get(0), QUEUE_KEYS.get(1), RedisQueueCalls.DELAYED));
		return this.store.<Long>run(APPEND, keys, ascii(id), RedisStore.utf8(group), ascii(nowMillis),
				ascii(delayMillis), RedisStore.utf8(queue), this.store.key(RedisPushAnnouncements.PUSHED)) == 1;
	}

	@Override
	public long remove(String queue, long id, long nowMillis) {
		List<byte[]> keys = this.store.queueKeys(queue,
				List.of(QUEUE_KEYS.get(0), QUEUE_KEYS.get(1), RedisQueueCalls.DELAYED));
		return this.store.<Long>run(REMOVE, keys, ascii(id), groupPrefix(queue), ascii(nowMillis),
				RedisStore.utf8(queue), this.store.key(RedisPushAnnouncements.PUSHED));
	}

	/**
	 * Per queue one {@code SSCAN} of {@link #HEAL_GROUPS_PER_PASS} groups, whose cursor
	 * is Redis's; the queues' scripts pipelined ({@link RedisStore#runEach}).
	 */
	@Override
	public List<String> heal(List<String> queues, long nowMillis, List<String> cursors) {
		List<String> suffixes = List.of(QUEUE_KEYS.get(0), QUEUE_KEYS.get(1), RedisQueueCalls.BODIES,
				RedisQueueCalls.DELAYED);
		byte[] now = ascii(nowMillis);
		byte[] pushed = this.store.key(RedisPushAnnouncements.PUSHED);
		List<RedisStore.ScriptRun> runs = new ArrayList<>(queues.size());
		for (int i = 0; i < queues.size(); i++) {
			String queue = queues.get(i);
			runs.add(new RedisStore.ScriptRun(this.store.queueKeys(queue, suffixes), groupPrefix(queue), now,
					RedisStore.utf8(queue), pushed, RedisStore.utf8(cursors.get(i)), HEAL_COUNT));
		}
		List<byte[]> next = this.store.runEach(HEAL, runs);
		return next.stream().map(RedisStore::utf8).toList();
	}

	/** This, which releases a group's new head in the script that makes it the head. */
	@Override
	public FifoHeads heads() {
		return this;
	}

	/** Standard queues' fair-queue groups, in the same Redis. */
	@Override
	public FairGroups fair() {
		return new RedisFairGroups(this.core);
	}

	/** FIFO queues' sequences, deduplication ids and attempts, in the same Redis. */
	@Override
	public FifoState state() {
		return new RedisFifoState(this.store);
	}

	/** FIFO sends in progress, recorded in the same Redis for another to settle. */
	@Override
	public FifoSends sends() {
		return new RedisFifoSends(this.store);
	}

	@Override
	public void forget(String queue) {
		this.store.run(FORGET, this.store.queueKeys(queue, QUEUE_KEYS), groupPrefix(queue));
	}

	/** The prefix of the queue's group lists' keys, on its slot. */
	private byte[] groupPrefix(String queue) {
		return this.store.queueKeys(queue, List.of(GROUP)).get(0);
	}

	private static byte[] ascii(long id) {
		return Long.toString(id).getBytes(StandardCharsets.US_ASCII);
	}

}
