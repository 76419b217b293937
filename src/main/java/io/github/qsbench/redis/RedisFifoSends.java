package io.github.qsbench.redis;

import java.util.ArrayList;
import java.util.List;

import io.github.qsbench.application.Sent;
import io.github.qsbench.application.fifo.FifoSends;

import org.springframework.data.redis.connection.ReturnType;

/**
 * FIFO sends in progress recorded in Redis (see {@link FifoSends}). Per queue, on its
 * slot: {@code fifo:sending} (a sorted set: each message id a send recorded, by its
 * claim's time on the service's clock), written by the claim's script
 * ({@code fifo-claim.lua}, {@link RedisFifoState}), and {@code fifo:settling} (the ids a
 * settlement took, by when). A commit is one script ({@code fifo-commit.lua}) on the keys
 * of the window ({@link RedisFifoState}), of the groups ({@link RedisFifoGroups}), the
 * core's delayed set ({@link RedisQS}) and these, so an answer written, a message in its
 * group (released if it is the head) and its record gone are one step; it is refused once
 * the record is gone or {@link RedisFifoState#PENDING_MILLIS} old, which is when the
 * send's pending claims lapse and a take ({@code fifo-take.lua}) may have it. A taken
 * record stays, restamped, until the settlement forgets it after its discard, so a
 * settlement that dies midway is taken over after the bound.
 */
final class RedisFifoSends implements FifoSends {

	/** The keys of the sends in progress and of those taken, on the queue's slot. */
	static final List<String> KEYS = List.of("fifo:sending", "fifo:settling");

	private static final LuaScript COMMIT = LuaScript.of(RedisFifoSends.class, "fifo-commit", ReturnType.MULTI);

	private static final LuaScript TAKE = LuaScript.of(RedisFifoSends.class, "fifo-take", ReturnType.MULTI);

	private static final LuaScript UNRECORD = LuaScript.of(RedisFifoSends.class, "fifo-unrecord", ReturnType.INTEGER);

	private final RedisStore store;

	private final RedisFifoState state;

	RedisFifoSends(RedisStore store) {
		this.store = store;
		this.state = new RedisFifoState(store);
	}

	@Override
	public long boundMillis() {
		return RedisFifoState.PENDING_MILLIS;
	}

	/**
	 * One script, the claim's ({@code fifo-claim.lua}), which takes the ids and records
	 * them too; on a cluster, whose id counter is on a slot of its own, with one id per
	 * key reserved first ({@link RedisStore#reserveIds(int)}: from the instance's block,
	 * else a round trip).
	 */
	@Override
	public Claimed claim(String queue, List<String> keys, long nowMillis) {
		long reserved = this.store.cluster() ? this.store.reserveIds(keys.size()) : 0;
		return this.state.claimRecording(queue, keys, nowMillis, reserved);
	}

	@Override
	public boolean[] commit(String queue, List<String> keys, List<Sent> sent, List<String> groups, long sentMillis,
			long nowMillis, long delayMillis) {
		List<byte[]> args = new ArrayList<>(7 + 5 * keys.size());
		args.add(ascii(nowMillis));
		args.add(ascii(boundMillis()));
		args.add(ascii(RedisFifoState.WINDOW_MILLIS + RedisFifoState.PENDING_MILLIS));
		args.add(this.store.queueKeys(queue, List.of(RedisFifoGroups.GROUP)).get(0));
		args.add(ascii(delayMillis));
		args.add(RedisStore.utf8(queue));
		args.add(this.store.key(RedisPushAnnouncements.PUSHED));
		for (int i = 0; i < keys.size(); i++) {
			Sent one = sent.get(i);
			args.add(ascii(one.id()));
			args.add(RedisStore.utf8("d:" + keys.get(i)));
			args.add(RedisStore.utf8(one.id() + ":" + one.sequenceNumber()));
			args.add(ascii(sentMillis + RedisFifoState.WINDOW_MILLIS));
			args.add(RedisStore.utf8(groups.get(i)));
		}
		List<String> suffixes = List.of(KEYS.get(0), RedisFifoState.WINDOW.get(0), RedisFifoState.WINDOW.get(1),
				RedisFifoGroups.QUEUE_KEYS.get(0), RedisFifoGroups.QUEUE_KEYS.get(1), RedisQueueCalls.DELAYED);
		// the send's answer: once the replicas asked for have it
		List<Object> answer = this.store.acknowledged()
			.replicated(queue, this.store.<List<Object>>run(COMMIT, this.store.queueKeys(queue, suffixes),
					args.toArray(byte[][]::new)));
		if ((Long) answer.get(0) == 0) {
			return null;
		}
		boolean[] heads = new boolean[keys.size()];
		for (int i = 0; i < heads.length; i++) {
			heads[i] = (Long) answer.get(1 + i) == 1;
		}
		return heads;
	}

	/** One take script per queue, pipelined ({@link RedisStore#runEach}). */
	@Override
	public List<List<Long>> take(List<String> queues, long nowMillis) {
		byte[][] args = { ascii(nowMillis), ascii(boundMillis()) };
		List<RedisStore.ScriptRun> runs = queues.stream()
			.map(queue -> new RedisStore.ScriptRun(this.store.queueKeys(queue, KEYS), args))
			.toList();
		List<List<Object>> answers = this.store.runEach(TAKE, runs);
		return answers.stream()
			.map(taken -> taken.stream().map(id -> Long.parseLong(RedisStore.utf8((byte[]) id))).toList())
			.toList();
	}

	@Override
	public void forget(String queue, List<Long> ids) {
		this.store.run(UNRECORD, this.store.queueKeys(queue, KEYS),
				ids.stream().map(RedisFifoSends::ascii).toArray(byte[][]::new));
	}

	private static byte[] ascii(long number) {
		return RedisStore.utf8(Long.toString(number));
	}

}
