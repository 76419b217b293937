package io.github.qsbench.redis;

import static io.github.qsbench.redis.RedisQueueCalls.ascii;

import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;

import io.github.qsbench.core.Completion;
import io.github.qsbench.core.Lease;
import io.github.qsbench.core.Message;

import org.springframework.data.redis.connection.ReturnType;

/**
 * The three scripts every message runs, push, lease and completion: their arguments made
 * from a core call and their answers read back as the core's values. {@link RedisQS}'s
 * blocking calls and {@link RedisAsyncCore}'s calls send the same arguments and read the
 * same answers; only the waiting differs.
 */
final class RedisMessageScripts {

	static final LuaScript PUSH = LuaScript.of(RedisMessageScripts.class, "push", ReturnType.MULTI);

	static final LuaScript LEASE = LuaScript.of(RedisMessageScripts.class, "lease", ReturnType.MULTI);

	/** Completes, changes leases and discards, by its first argument. */
	static final LuaScript COMPLETE = LuaScript.of(RedisMessageScripts.class, "complete", ReturnType.MULTI);

	static final byte[] COMPLETE_OPERATION = ascii("complete");

	static final byte[] CHANGE_OPERATION = ascii("change");

	static final byte[] DISCARD_OPERATION = ascii("discard");

	private final InstantSource clock;

	private final byte[] maxPerQueue;

	/** Where a push is announced ({@link RedisPushAnnouncements#channel()}). */
	private final byte[] channel;

	RedisMessageScripts(InstantSource clock, int maxPerQueue, byte[] channel) {
		this.clock = clock;
		this.maxPerQueue = ascii(maxPerQueue);
		this.channel = channel;
	}

	/**
	 * The push script's arguments: now, the delay, the first id (0: the script takes the
	 * ids from the counter), the cap, the queue, the channel, then the bodies.
	 */
	byte[][] pushArgs(String queue, List<byte[]> bodies, long delayMillis, long first) {
		byte[][] args = new byte[6 + bodies.size()][];
		args[0] = ascii(now());
		args[1] = ascii(delayMillis);
		args[2] = ascii(first);
		args[3] = this.maxPerQueue;
		args[4] = ascii(queue);
		args[5] = this.channel;
		for (int i = 0; i < bodies.size(); i++) {
			args[6 + i] = bodies.get(i);
		}
		return args;
	}

	/**
	 * A composed script's keys ({@link LuaScript#composed}): its first part's, then the
	 * next part's.
	 */
	static List<byte[]> composedKeys(List<byte[]> partKeys, List<byte[]> moreKeys) {
		List<byte[]> keys = new ArrayList<>(partKeys.size() + moreKeys.size());
		keys.addAll(partKeys);
		keys.addAll(moreKeys);
		return keys;
	}

	/**
	 * A composed script's arguments: how many of its keys are its first part's, how many
	 * messages, that part's arguments, then the next part's.
	 */
	static byte[][] composedArgs(int partKeys, int messages, byte[][] partArgs, byte[][] more) {
		byte[][] args = new byte[2 + partArgs.length + more.length][];
		args[0] = ascii(partKeys);
		args[1] = ascii(messages);
		System.arraycopy(partArgs, 0, args, 2, partArgs.length);
		System.arraycopy(more, 0, args, 2 + partArgs.length, more.length);
		return args;
	}

	/**
	 * The arguments of complete.lua composed with a script that follows it
	 * ({@link RedisQS#completeThen}): complete.lua's, then {@code more}.
	 * @param completeKeys how many of the script's keys are complete.lua's
	 */
	byte[][] completeThenArgs(int completeKeys, long[] ids, int[] deliveries, byte[]... more) {
		return composedArgs(completeKeys, ids.length, decideArgs(ids, deliveries, COMPLETE_OPERATION, 0), more);
	}

	/** The push script's answer, {firstId, created}, as the messages pushed. */
	static List<Message> pushed(List<?> answer, List<byte[]> bodies) {
		long firstId = (Long) answer.get(0);
		List<Message> pushed = new ArrayList<>(bodies.size());
		for (int i = 0; i < bodies.size(); i++) {
			pushed.add(new RedisMessage(firstId + i, bodies.get(i), 0));
		}
		return pushed;
	}

	/** Whether the push script's answer says the queue held nothing before. */
	static boolean created(List<?> answer) {
		return (Long) answer.get(1) == 1;
	}

	/** The lease script's arguments: now, max and when the leases end. */
	byte[][] leaseArgs(int max, long leaseMillis) {
		long now = now();
		return new byte[][] { ascii(now), ascii(max), ascii(now + leaseMillis) };
	}

	/** The lease script's answer, {id, delivery, body, ...}, as leases. */
	static List<Lease> leases(List<?> answer) {
		List<Lease> leases = new ArrayList<>(answer.size() / 3);
		for (int i = 0; i < answer.size(); i += 3) {
			int delivery = ((Long) answer.get(i + 1)).intValue();
			leases
				.add(new Lease(new RedisMessage((Long) answer.get(i), (byte[]) answer.get(i + 2), delivery), delivery));
		}
		return leases;
	}

	/**
	 * The completion script's arguments: the operation, now, the new lease's length (a
	 * lease change's), then each message's id and delivery.
	 */
	byte[][] decideArgs(long[] ids, int[] deliveries, byte[] operation, long leaseMillis) {
		byte[][] args = new byte[3 + 2 * ids.length][];
		args[0] = operation;
		args[1] = ascii(now());
		args[2] = ascii(leaseMillis);
		for (int i = 0; i < ids.length; i++) {
			args[3 + 2 * i] = ascii(ids[i]);
			args[4 + 2 * i] = ascii(deliveries[i]);
		}
		return args;
	}

	/** The completion script's answer, each message's code, as completions. */
	static List<Completion> completions(List<?> answer, int count) {
		List<Completion> completions = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			completions.add(RedisCodes.completion((Long) answer.get(i)));
		}
		return completions;
	}

	private long now() {
		return this.clock.millis();
	}

	/** A message as a script answered it. */
	record RedisMessage(long id, byte[] body, int deliveries) implements Message {
	}

}
