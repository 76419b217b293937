package io.github.qsbench.redis;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

import io.github.qsbench.core.AsyncCore;
import io.github.qsbench.core.Capacity;
import io.github.qsbench.core.CapacityExceededException;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisConnection;

/**
 * How {@link RedisQS} reaches Redis: a queue's keys in the order every script takes them,
 * a script run on the store's connection, and the push script's refusal answered as the
 * cap it reached.
 */
final class RedisQueueCalls {

	/**
	 * A queue's keys, in the order every script takes them: KEYS[1] ready, KEYS[2]
	 * leased, KEYS[3] delayed, KEYS[4] bodies, KEYS[5] deliveries.
	 */
	private static final List<String> QUEUE_KEY_NAMES = List.of(RedisQueueCalls.READY, "leased",
			RedisQueueCalls.DELAYED, RedisQueueCalls.BODIES, "deliveries");

	/** The suffix of a queue's ready list, whose head a lease takes. */
	static final String READY = "ready";

	/**
	 * The suffix of a queue's delayed set, where a held message waits: the FIFO scripts
	 * release a new group head there ({@link RedisFifoGroups}).
	 */
	static final String DELAYED = "delayed";

	/**
	 * The name of a queue's hash of message bodies, whose fields are the messages it
	 * holds.
	 */
	static final String BODIES = "bodies";

	private final RedisStore store;

	/** Messages one queue may hold, as the refusal names it. */
	private final int maxPerQueue;

	RedisQueueCalls(RedisStore store, int maxPerQueue) {
		this.store = store;
		this.maxPerQueue = maxPerQueue;
	}

	<T> T run(LuaScript script, List<byte[]> keys, byte[]... args) {
		return call(redis -> script.run(redis, keys, args));
	}

	/**
	 * {@link #run} of one script on each queue's keys, with the same arguments, answered
	 * in order: {@link RedisStore#runEach}, pipelined where it can be.
	 */
	<T> List<T> runEach(LuaScript script, List<String> queues, byte[]... args) {
		return this.store.runEach(script,
				queues.stream().map(queue -> new RedisStore.ScriptRun(keys(queue), args)).toList());
	}

	/** {@link #run} without waiting ({@link #callAsync}). */
	<T> CompletableFuture<T> runAsync(LuaScript script, List<byte[]> keys, byte[]... args) {
		return callAsync(redis -> script.runAsync(redis, keys, args));
	}

	/**
	 * {@link RedisStore#callAsync}, with the push script's refusal answered as
	 * {@link #call} answers it.
	 */
	<T> CompletableFuture<T> callAsync(
			Function<RedisClusterAsyncCommands<byte[], byte[]>, ? extends CompletionStage<T>> call) {
		return this.store.<T>callAsync(call)
			.exceptionallyCompose(failure -> CompletableFuture.failedFuture(refusal(failure)));
	}

	/**
	 * {@link RedisStore#call}, with the push script's refusal ("CAP": the queue's cap
	 * reached) answered as that cap.
	 */
	<T> T call(Function<RedisConnection, T> call) {
		try {
			return this.store.call(call);
		}
		catch (DataAccessException ex) {
			throw refusal(ex);
		}
	}

	/** {@link RedisStore#reserveIds(RedisClusterAsyncCommands, int)}. */
	CompletableFuture<Long> reserveIds(RedisClusterAsyncCommands<byte[], byte[]> redis, int count) {
		return this.store.reserveIds(redis, count);
	}

	/**
	 * Which of the calls' answers wait for replicas ({@link RedisStore#replicatedBy}).
	 */
	AcknowledgedWrites acknowledged() {
		return this.store.acknowledged();
	}

	/** The push script's refusal ("CAP") as the cap it reached; any other unchanged. */
	private RuntimeException refusal(Throwable failure) {
		Throwable cause = AsyncCore.cause(failure);
		if (LuaScript.said(cause, "CAP")) {
			return new CapacityExceededException(Capacity.Limit.MESSAGES_PER_QUEUE, this.maxPerQueue);
		}
		return (cause instanceof RuntimeException ex) ? ex : new IllegalStateException(cause);
	}

	/** The queue's keys, then {@code shared} keys where a script may reach them. */
	List<byte[]> keys(String queue, byte[]... shared) {
		return this.store.queueKeys(queue, QUEUE_KEY_NAMES, shared);
	}

	static byte[] ascii(long number) {
		return ascii(Long.toString(number));
	}

	static byte[] ascii(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
