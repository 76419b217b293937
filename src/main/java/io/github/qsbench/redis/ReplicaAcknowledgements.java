package io.github.qsbench.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.ByteArrayCodec;

import org.springframework.dao.DataAccessResourceFailureException;

/**
 * Which master's replicas a push waits for ({@link ReplicationBarrier}): the one Redis
 * (standalone, or the master a Sentinel names), or, in a cluster, the master that serves
 * the queue's slot now, whose barrier is made on its first push (a master promoted by a
 * failover is a node of its own, with a barrier of its own). Owns the connection the
 * barriers run on: one of its own, to Redis or to the cluster, made with the client of
 * the shared connection, so with its address, credentials, TLS and timeouts.
 */
final class ReplicaAcknowledgements implements AutoCloseable {

	private final AutoCloseable connection;

	/** The barrier of the master a key is on. */
	private final Function<byte[], CompletableFuture<ReplicationBarrier>> barrierOf;

	private ReplicaAcknowledgements(AutoCloseable connection,
			Function<byte[], CompletableFuture<ReplicationBarrier>> barrierOf) {
		this.connection = connection;
		this.barrierOf = barrierOf;
	}

	/**
	 * @param client the client of the shared connection: a standalone or Sentinel one, or
	 * a cluster's
	 * @param replicas how many replicas must acknowledge a push before its answer
	 * @param timeout how long a push waits for them
	 */
	static ReplicaAcknowledgements of(AbstractRedisClient client, int replicas, Duration timeout) {
		if (client instanceof RedisClient redis) {
			StatefulRedisConnection<byte[], byte[]> connection = redis.connect(ByteArrayCodec.INSTANCE);
			CompletableFuture<ReplicationBarrier> barrier = CompletableFuture
				.completedFuture(new ReplicationBarrier(connection, replicas, timeout));
			return new ReplicaAcknowledgements(connection, (key) -> barrier);
		}
		if (client instanceof RedisClusterClient cluster) {
			StatefulRedisClusterConnection<byte[], byte[]> connection = cluster.connect(ByteArrayCodec.INSTANCE);
			Map<String, CompletableFuture<ReplicationBarrier>> byNode = new ConcurrentHashMap<>();
			return new ReplicaAcknowledgements(connection, (key) -> {
				int slot = SlotHash.getSlot(key);
				RedisClusterNode master = connection.getPartitions().getPartitionBySlot(slot);
				if (master == null) {
					return CompletableFuture
						.failedFuture(new DataAccessResourceFailureException("No master serves slot " + slot));
				}
				return byNode.computeIfAbsent(master.getNodeId(), (node) -> {
					CompletableFuture<ReplicationBarrier> barrier = connection.getConnectionAsync(node)
						.thenApply((toNode) -> new ReplicationBarrier(toNode, replicas, timeout));
					// a master out of reach is asked again by the next push
					barrier.whenComplete((made, failure) -> {
						if (failure != null) {
							byNode.remove(node, barrier);
						}
					});
					return barrier;
				});
			});
		}
		throw new IllegalStateException("qs.redis.replicas-to-acknowledge needs Lettuce's RedisClient or "
				+ "RedisClusterClient, not " + client.getClass().getName());
	}

	/**
	 * A stage that completes once the replicas asked for have every write answered before
	 * this call by the master {@code marker} is on ({@link ReplicationBarrier}).
	 * @param marker a key of the queue pushed to, or beside the id counter, which a round
	 * may write
	 */
	CompletableFuture<Void> afterWritesSoFar(byte[] marker) {
		return this.barrierOf.apply(marker).thenCompose((barrier) -> barrier.afterWritesSoFar(marker));
	}

	/**
	 * A key on {@code key}'s cluster slot, for a marker beside a key of the whole
	 * namespace: {@code key} made the hash tag, or followed by {@code suffix} if it has
	 * one already.
	 * @throws IllegalStateException if braces in {@code key} leave no such name (a
	 * namespace with braces of its own)
	 */
	static byte[] besideOnItsSlot(String key, String suffix) {
		String beside = (key.indexOf('{') >= 0) ? key + suffix : "{" + key + "}" + suffix;
		byte[] marker = beside.getBytes(StandardCharsets.UTF_8);
		if (SlotHash.getSlot(marker) != SlotHash.getSlot(key.getBytes(StandardCharsets.UTF_8))) {
			throw new IllegalStateException("No key named beside " + key + " shares its cluster slot: "
					+ "qs.redis.replicas-to-acknowledge on a cluster needs a namespace whose braces are a hash tag");
		}
		return marker;
	}

	@Override
	public void close() throws Exception {
		this.connection.close();
	}

}
