package io.github.qsbench.redis;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import io.github.qsbench.core.AsyncCore;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;

import org.springframework.dao.TransientDataAccessResourceException;

/**
 * Holds a write's answer until Redis's replicas have it: Redis's {@code WAIT}, one round
 * for every write that asked while the round before was out (a group commit for
 * replication). Without it an answer means only that the master has the write, and a
 * failover to a replica that had not received it loses it (docs/redis.md, Durability).
 * <p>
 * {@code WAIT} blocks the connection it runs on, so it runs on a connection of its own
 * rather than the shared one every request uses; and it counts only its connection's own
 * writes, so each round first writes a marker ({@code INCR} of the namespace's
 * {@code replicated} key). Redis sends its replicas one stream of writes, in the order it
 * ran them: once the replicas acknowledge the marker, they have every write whose answer
 * came back before the marker was sent, which is every write that asked for this round. A
 * round that ends with fewer replicas than asked fails its writes with
 * {@link NotReplicatedException}: the master has them, and they are served unless the
 * master is lost, but they were not acknowledged.
 * <p>
 * Standalone Redis or Sentinel only: a cluster's writes are on as many masters as it has
 * shards.
 */
final class ReplicationBarrier implements AutoCloseable {

	private final StatefulRedisConnection<byte[], byte[]> connection;

	private final byte[] marker;

	private final int replicas;

	private final long timeoutMillis;

	/** The round the writes asking now wait for; guarded by this. */
	private CompletableFuture<Void> next;

	/** Whether a round is out; guarded by this. */
	private boolean roundOut;

	/**
	 * @param client the client of the shared connection, whose default address (a server,
	 * or a Sentinel's master) this barrier's connection reaches too
	 * @param marker the key each round writes, in the service's namespace
	 * @param replicas how many replicas must acknowledge a write before its answer
	 * @param timeout how long a round waits for them
	 */
	ReplicationBarrier(RedisClient client, byte[] marker, int replicas, Duration timeout) {
		this.connection = client.connect(ByteArrayCodec.INSTANCE);
		this.marker = marker;
		this.replicas = replicas;
		this.timeoutMillis = timeout.toMillis();
	}

	/**
	 * A stage that completes once {@link #replicas} replicas have every write answered
	 * before this call, or fails with {@link NotReplicatedException} (or Redis's
	 * failure); it completes on Lettuce's event loop.
	 */
	CompletableFuture<Void> afterWritesSoFar() {
		CompletableFuture<Void> round;
		synchronized (this) {
			if (this.next == null) {
				this.next = new CompletableFuture<>();
			}
			round = this.next;
			if (this.roundOut) {
				return round;
			}
			this.roundOut = true;
			this.next = null;
		}
		send(round);
		return round;
	}

	/**
	 * Sends a round's marker and its {@code WAIT}, pipelined; when {@code WAIT} answers,
	 * ends the round and sends the next one if writes asked meanwhile.
	 */
	private void send(CompletableFuture<Void> round) {
		RedisAsyncCommands<byte[], byte[]> redis = this.connection.async();
		RedisFuture<Long> marked = redis.incr(this.marker);
		redis.waitForReplication(this.replicas, this.timeoutMillis).whenComplete((acknowledged, failure) -> {
			// one connection answers in order: the marker's answer came first
			Throwable problem = (failure != null) ? failure
					: marked.toCompletableFuture().handle((ok, ex) -> ex).join();
			if (problem != null) {
				round.completeExceptionally(AsyncCore.cause(problem));
			}
			else if (acknowledged < this.replicas) {
				round
					.completeExceptionally(new NotReplicatedException(acknowledged, this.replicas, this.timeoutMillis));
			}
			else {
				round.complete(null);
			}
			CompletableFuture<Void> following;
			synchronized (this) {
				following = this.next;
				this.next = null;
				this.roundOut = following != null;
			}
			if (following != null) {
				send(following);
			}
		});
	}

	@Override
	public void close() {
		this.connection.close();
	}

	/**
	 * A write the master answered but fewer replicas than asked acknowledged in time: the
	 * master has it, and serves it unless a failover loses it. A
	 * {@link org.springframework.dao.DataAccessException}, so it is answered as a store
	 * failure is: 503, retry.
	 */
	public static final class NotReplicatedException extends TransientDataAccessResourceException {

		NotReplicatedException(long acknowledged, int replicas, long timeoutMillis) {
			super("Redis's replicas acknowledged a write " + acknowledged + " times within " + timeoutMillis
					+ " ms, where " + replicas + " were asked (qs.redis.replicas-to-acknowledge)");
		}

	}

}
