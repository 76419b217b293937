package io.github.qsbench.redis;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.AbstractRedisClient;

/**
 * Which answers wait for replicas, and the wait: every push's answer (REST, SQS, batches,
 * FIFO sends) and every write that finishes one (a fair queue's group entry, a held
 * message's release), a queue's settings and move tasks; and every lease and completion
 * (and lease change, discard) unless only pushes wait
 * ({@code qs.redis.acknowledged-writes=pushes}). Each waits until the replicas asked for
 * have every write made so far on the master of the key it marks
 * ({@link ReplicaAcknowledgements#afterWritesSoFar}), or fails as the store's call would.
 * Without replicas to acknowledge ({@link #NONE}) every answer is given at once.
 */
final class AcknowledgedWrites implements AutoCloseable {

	/** Every answer at once: no replicas asked for. */
	static final AcknowledgedWrites NONE = new AcknowledgedWrites(null, null, null, false);

	/** The suffix of the key a queue's push may mark replication with. */
	private static final List<String> REPLICATED = List.of("replicated");

	private final RedisStore store;

	/** What holds an answer until replicas have it, or {@code null}: none. */
	private final ReplicaAcknowledgements replicas;

	/** Whether only pushes wait: leases and completions are answered at once. */
	private final boolean pushesOnly;

	/**
	 * On a cluster, the key that marks replication on the id counter's master, or
	 * {@code null}. A push takes its ids there, a write of its own: a failover that lost
	 * it would give the same ids again, to a queue that may still hold them
	 * ({@link #idsReplicated}).
	 */
	private final byte[] idsMarker;

	private AcknowledgedWrites(RedisStore store, byte[] idsMarker, ReplicaAcknowledgements replicas,
			boolean pushesOnly) {
		this.store = store;
		this.idsMarker = idsMarker;
		this.replicas = replicas;
		this.pushesOnly = pushesOnly;
	}

	/**
	 * @param store whose keys the answers mark
	 * @param client the client of the store's shared connection, whose address,
	 * credentials, TLS and timeouts the wait's own connection takes
	 * ({@link ReplicaAcknowledgements#of})
	 * @param replicas how many replicas must have a write before its answer
	 * @param timeout how long an answer waits for them, then fails as the store's call
	 * would
	 * @param pushesOnly whether leases and completions are answered once the master has
	 * them: a failover may then undo one, so that its message is delivered again (as a
	 * lapsed lease is), under a delivery number already given; no push answered is lost
	 */
	static AcknowledgedWrites of(RedisStore store, AbstractRedisClient client, int replicas, Duration timeout,
			boolean pushesOnly) {
		byte[] idsMarker = store.cluster()
				? ReplicaAcknowledgements.besideOnItsSlot(store.namespace() + RedisStore.IDS, ":replicated") : null;
		return new AcknowledgedWrites(store, idsMarker, ReplicaAcknowledgements.of(client, replicas, timeout),
				pushesOnly);
	}

	/**
	 * Ids taken from the counter, {@code taken}, once the replicas asked for have them:
	 * on a cluster, where the counter's master is not the queue's, so a push writes its
	 * messages only with ids a failover cannot give again; at once without them, or on a
	 * standalone Redis, where the push script takes its ids beside the queue.
	 */
	<T> CompletableFuture<T> idsReplicated(CompletableFuture<T> taken) {
		return (this.idsMarker == null) ? taken : acknowledged(taken, this.idsMarker);
	}

	/** {@link #idsReplicated(CompletableFuture)}, waiting on the caller's thread. */
	<T> T idsReplicated(T taken) {
		return (this.idsMarker == null) ? taken
				: RedisStore.joined(idsReplicated(CompletableFuture.completedFuture(taken)));
	}

	/**
	 * A push's answer, or a queue's settings' or move task's, {@code written}, once the
	 * replicas asked for have it and every write before it on the master of
	 * {@code queue}; at once without them.
	 */
	<T> CompletableFuture<T> replicated(String queue, CompletableFuture<T> written) {
		return (this.replicas == null) ? written
				: acknowledged(written, this.store.queueKeys(queue, REPLICATED).get(0));
	}

	/**
	 * {@link #replicated(String, CompletableFuture)}, waiting on the caller's thread.
	 */
	<T> T replicated(String queue, T answer) {
		return (this.replicas == null) ? answer
				: RedisStore.joined(replicated(queue, CompletableFuture.completedFuture(answer)));
	}

	/**
	 * {@code answer}, once the replicas asked for have every write made so far to the key
	 * {@code name} of the whole namespace ({@link RedisStore#key}): on a cluster, where
	 * such a key (a registry of names) is on a master of its own; at once without them,
	 * or on a standalone Redis, whose one master the queue's round
	 * ({@link #replicated(String, Object)}) covers.
	 */
	<T> T namespaceReplicated(String name, T answer) {
		return (this.replicas == null || !this.store.cluster()) ? answer
				: RedisStore.joined(acknowledged(CompletableFuture.completedFuture(answer),
						ReplicaAcknowledgements.besideOnItsSlot(this.store.namespace() + name, ":replicated")));
	}

	/**
	 * A lease's or a completion's answer (or a lease change's, a discard's),
	 * {@code written}, as {@link #replicated(String, CompletableFuture)} unless only
	 * pushes wait.
	 */
	<T> CompletableFuture<T> changeReplicated(String queue, CompletableFuture<T> written) {
		return this.pushesOnly ? written : replicated(queue, written);
	}

	/**
	 * {@link #changeReplicated(String, CompletableFuture)}, waiting on the caller's
	 * thread.
	 */
	<T> T changeReplicated(String queue, T answer) {
		return this.pushesOnly ? answer : replicated(queue, answer);
	}

	private <T> CompletableFuture<T> acknowledged(CompletableFuture<T> written, byte[] marker) {
		ReplicaAcknowledgements waiting = this.replicas;
		return written.thenCompose(answer -> waiting.afterWritesSoFar(marker)
			.exceptionallyCompose(failure -> CompletableFuture.failedFuture(RedisStore.translated(failure)))
			.thenApply(replicated -> answer));
	}

	/** Closes the replicas' acknowledgements' connection, if any. */
	@Override
	public void close() {
		if (this.replicas != null) {
			try {
				this.replicas.close();
			}
			catch (Exception ex) {
				throw new IllegalStateException("Closing the replicas' acknowledgements' connection failed", ex);
			}
		}
	}

}
