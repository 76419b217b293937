package io.github.qsbench.redis;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import io.github.qsbench.core.AsyncCore;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;

import org.springframework.dao.TransientDataAccessResourceException;

/**
 * Holds a write's answer until one master's replicas have it: Redis's {@code WAIT}, one
 * round for every write that asked while the round before was out (a group commit for
 * replication). Without it an answer means only that the master has the write, and a
 * failover to a replica that had not received it loses it (docs/redis.md, Durability).
 * <p>
 * {@code WAIT} blocks the connection it runs on, so it runs on a connection of its own
 * rather than the shared one every request uses; and it counts only its connection's own
 * writes, so each round first writes a marker: a key of the master's, named by the write
 * that opened the round, which expires by itself. A master sends its replicas one stream
 * of writes, in the order it ran them: once the replicas acknowledge the marker, they
 * have every write whose answer came back before the marker was sent, which is every
 * write that asked for this round. A round that ends with fewer replicas than asked fails
 * its writes with {@link NotReplicatedException}: the master has them, and serves them
 * unless it is lost, but they were not acknowledged.
 */
final class ReplicationBarrier {

	/** How long a round's marker outlives it: any time longer than a round. */
	private static final SetArgs MARKER_LIFE = SetArgs.Builder.px(60_000);

	private static final byte[] MARKED = new byte[0];

	private final StatefulRedisConnection<byte[], byte[]> connection;

	private final int replicas;

	private final long timeoutMillis;

	/** The round the writes asking now wait for; guarded by this. */
	private CompletableFuture<Void> next;

	/** The marker {@link #next} writes; guarded by this. */
	private byte[] nextMarker;

	/** Whether a round is out; guarded by this. */
	private boolean roundOut;

	/**
	 * @param connection a connection to the master, of no other use (its owner closes it)
	 * @param replicas how many replicas must acknowledge a write before its answer
	 * @param timeout how long a round waits for them
	 */
	ReplicationBarrier(StatefulRedisConnection<byte[], byte[]> connection, int replicas, Duration timeout) {
		this.connection = connection;
		this.replicas = replicas;
		this.timeoutMillis = timeout.toMillis();
	}

	/**
	 * A stage that completes once {@link #replicas} replicas have every write this master
	 * answered before this call, or fails with {@link NotReplicatedException} (or Redis's
	 * failure); it completes on Lettuce's event loop.
	 * @param marker a key of this master's, which the round writes if this call opens it
	 */
	CompletableFuture<Void> afterWritesSoFar(byte[] marker) {
		CompletableFuture<Void> round;
		synchronized (this) {
			if (this.next == null) {
				this.next = new CompletableFuture<>();
				this.nextMarker = marker;
			}
			round = this.next;
			if (this.roundOut) {
				return round;
			}
			this.roundOut = true;
			this.next = null;
		}
		send(round, marker);
		return round;
	}

	/**
	 * Sends a round's marker and its {@code WAIT}, pipelined; when {@code WAIT} answers,
	 * ends the round and sends the next one if writes asked meanwhile.
	 */
	private void send(CompletableFuture<Void> round, byte[] marker) {
		RedisAsyncCommands<byte[], byte[]> redis = this.connection.async();
		RedisFuture<String> marked = redis.set(marker, MARKED, MARKER_LIFE);
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
			byte[] followingMarker;
			synchronized (this) {
				following = this.next;
				followingMarker = this.nextMarker;
				this.next = null;
				this.roundOut = following != null;
			}
			if (following != null) {
				send(following, followingMarker);
			}
		});
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
