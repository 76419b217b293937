package io.github.qsbench.redis;

import static io.github.qsbench.redis.RedisMessageScripts.COMPLETE;
import static io.github.qsbench.redis.RedisMessageScripts.COMPLETE_OPERATION;
import static io.github.qsbench.redis.RedisMessageScripts.LEASE;
import static io.github.qsbench.redis.RedisMessageScripts.PUSH;
import static io.github.qsbench.redis.RedisQueueCalls.ascii;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongFunction;

import io.github.qsbench.core.AsyncCore;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.Lease;
import io.github.qsbench.core.Message;
import io.github.qsbench.core.QueueOptions;

/**
 * {@link RedisQS}'s push, lease and completion sent without waiting, through Lettuce: the
 * scripts the blocking calls run, with the same keys and arguments, answered on Lettuce's
 * event loop.
 */
final class RedisAsyncCore implements AsyncCore {

	private final RedisQueueCalls calls;

	private final RedisMessageScripts scripts;

	private final boolean cluster;

	private final boolean idLookup;

	/** The id counter's key. */
	private final byte[] ids;

	/** The registry's key, the set of queues that may hold messages. */
	private final byte[] registry;

	RedisAsyncCore(RedisQueueCalls calls, RedisMessageScripts scripts, boolean cluster, boolean idLookup, byte[] ids,
			byte[] registry) {
		this.calls = calls;
		this.scripts = scripts;
		this.cluster = cluster;
		this.idLookup = idLookup;
		this.ids = ids;
		this.registry = registry;
	}

	@Override
	public CompletableFuture<Message> push(String queue, byte[] body) {
		List<byte[]> bodies = List.of(body);
		return push(queue, bodies).thenApply(answer -> RedisMessageScripts.pushed(answer, bodies).get(0));
	}

	@Override
	public CompletableFuture<List<Message>> pushAll(String queue, List<byte[]> bodies) {
		return push(queue, bodies).thenApply(answer -> RedisMessageScripts.pushed(answer, bodies));
	}

	private CompletableFuture<List<?>> push(String queue, List<byte[]> bodies) {
		return push(PUSH, queue, bodies, first -> this.scripts.pushArgs(queue, bodies, 0, first), List.of());
	}

	/**
	 * {@link RedisQS#pushThen}, sent without waiting: push.lua composed with the script
	 * that follows it in the same step (fair-push.lua, a fair queue's push).
	 */
	CompletableFuture<List<Message>> pushThen(LuaScript composed, String queue, List<byte[]> bodies, long delayMillis,
			List<byte[]> moreKeys, byte[]... more) {
		int pushKeys = this.calls.keys(queue, this.ids, this.registry).size();
		return push(composed, queue, bodies,
				first -> RedisMessageScripts.composedArgs(pushKeys, bodies.size(),
						this.scripts.pushArgs(queue, bodies, delayMillis, first), more),
				moreKeys)
			.thenApply(answer -> RedisMessageScripts.pushed(answer, bodies));
	}

	/**
	 * As {@link RedisQS}'s blocking push, answering the script's answer once the replicas
	 * asked for have it ({@link RedisStore#replicatedBy}): on a cluster, the ids are
	 * taken first (from the instance's block, or by a command that reserves a new one:
	 * {@link RedisStore#reserveIds(int)}) and a queue the push filled again is registered
	 * after, a command of its own, chained on the connection taken here (Lettuce's
	 * thread, which runs the chain, must not wait to take one).
	 * @param script push.lua, or a script composed of it and more
	 * @param args the script's arguments, given the first id (0: the script takes them)
	 * @param moreKeys the keys of the script's parts after push.lua
	 */
	private CompletableFuture<List<?>> push(LuaScript script, String queue, List<byte[]> bodies,
			LongFunction<byte[][]> args, List<byte[]> moreKeys) {
		List<byte[]> keys = RedisMessageScripts.composedKeys(this.calls.keys(queue, this.ids, this.registry), moreKeys);
		if (!this.cluster) {
			return this.calls.acknowledged().replicated(queue, this.calls.runAsync(script, keys, args.apply(0)));
		}
		return this.calls.acknowledged()
			.replicated(queue,
					this.calls.callAsync(redis -> this.calls.reserveIds(redis, bodies.size())
						.thenCompose(first -> script.<List<?>>runAsync(redis, keys, args.apply(first)))
						.thenCompose(answer -> RedisMessageScripts.created(answer)
								? redis.sadd(this.registry, ascii(queue)).thenApply(added -> answer)
								: CompletableFuture.completedFuture(answer))));
	}

	@Override
	public CompletableFuture<List<Lease>> lease(String queue, int max, long leaseMillis) {
		QueueOptions.requireIdLookup(this.idLookup);
		CompletableFuture<List<Lease>> leased = this.calls
			.<List<?>>runAsync(LEASE, this.calls.keys(queue), this.scripts.leaseArgs(max, leaseMillis))
			.thenApply(RedisMessageScripts::leases);
		return leased.thenCompose(
				(leases) -> leases.isEmpty() ? leased : this.calls.acknowledged().changeReplicated(queue, leased));
	}

	@Override
	public CompletableFuture<Completion> complete(String queue, long id, int delivery) {
		return complete(queue, new long[] { id }, new int[] { delivery })
			.thenApply(answer -> RedisMessageScripts.completions(answer, 1).get(0));
	}

	@Override
	public CompletableFuture<List<Completion>> completeAll(String queue, long[] ids, int[] deliveries) {
		return complete(queue, ids, deliveries)
			.thenApply(answer -> RedisMessageScripts.completions(answer, ids.length));
	}

	/**
	 * {@link RedisQS#completeThen}, sent without waiting: complete.lua composed with the
	 * script that follows it in the same step (fair-complete.lua, a fair queue's
	 * completion).
	 */
	CompletableFuture<List<Completion>> completeThen(LuaScript composed, String queue, long[] ids, int[] deliveries,
			List<byte[]> moreKeys, byte[]... more) {
		QueueOptions.requireIdLookup(this.idLookup);
		List<byte[]> completeKeys = this.calls.keys(queue);
		byte[][] args = this.scripts.completeThenArgs(completeKeys.size(), ids, deliveries, more);
		return this.calls.acknowledged()
			.changeReplicated(queue,
					this.calls
						.<List<?>>runAsync(composed, RedisMessageScripts.composedKeys(completeKeys, moreKeys), args)
						.thenApply(answer -> RedisMessageScripts.completions(answer, ids.length)));
	}

	private CompletableFuture<List<?>> complete(String queue, long[] ids, int[] deliveries) {
		QueueOptions.requireIdLookup(this.idLookup);
		return this.calls.acknowledged()
			.changeReplicated(queue, this.calls.runAsync(COMPLETE, this.calls.keys(queue),
					this.scripts.decideArgs(ids, deliveries, COMPLETE_OPERATION, 0)));
	}

}
