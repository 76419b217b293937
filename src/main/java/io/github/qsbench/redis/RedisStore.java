package io.github.qsbench.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

import io.github.qsbench.application.fifo.FifoGroups;
import io.github.qsbench.application.queues.MoveTaskStore;
import io.github.qsbench.application.stores.Stores;
import io.github.qsbench.core.AsyncCore;
import io.github.qsbench.core.ExternalStore;
import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.QueueServiceCore;

import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceExceptionConverter;

/**
 * One Redis, standalone or a cluster, as every Redis class of the service reaches it: the
 * one call helper (a call on a shared connection, Redis's refusals translated), the one
 * key scheme (every key starts with the namespace; a queue's keys carry its name as the
 * hash tag, so a cluster keeps a queue on one slot), and the one subscription
 * ({@link RedisChannels}), on which the pushes ({@link RedisQS}) and the settings changes
 * ({@link RedisExplicitQueues}) are heard. Instances on one Redis with the same namespace
 * serve the same queues.
 */
public final class RedisStore implements ExternalStore, AutoCloseable {

	private static final LettuceExceptionConverter EXCEPTIONS = new LettuceExceptionConverter();

	private final RedisConnectionFactory connections;

	/**
	 * A cluster: keys outside a queue's slot (the id counter, the registries) are on
	 * slots of their own, which a queue's script cannot reach.
	 */
	private final boolean cluster;

	private final String namespace;

	/**
	 * Whether the redis strategy coalesces concurrent pushes, polls and completions on
	 * one queue into one script ({@link GroupCommit}).
	 */
	private final boolean groupCommit;

	/** Which answers wait for replicas ({@link #replicatedBy}): none until asked. */
	private AcknowledgedWrites acknowledged = AcknowledgedWrites.NONE;

	/**
	 * The name of the id counter every push takes its messages' ids from ({@link #key}).
	 */
	static final String IDS = "ids";

	/**
	 * The id counter's key ({@link #IDS}), made once: a cluster's pushes each read it.
	 */
	private final byte[] ids;

	/**
	 * The ids this instance reserved and has not given yet ({@link #reserveIds(int)}).
	 */
	private final IdBlocks idBlocks = new IdBlocks();

	/** The one subscription, for every channel. */
	private final RedisChannels channels;

	/**
	 * @param connections Redis, standalone or a cluster
	 * @param cluster whether {@code connections} reach a Redis Cluster
	 * @param namespace the prefix of every key and channel: instances with the same one
	 * share their queues
	 */
	public RedisStore(RedisConnectionFactory connections, boolean cluster, String namespace) {
		this(connections, cluster, namespace, false);
	}

	/**
	 * @param groupCommit whether concurrent pushes, polls and completions on one queue
	 * are coalesced into one script each ({@link GroupCommit})
	 */
	public RedisStore(RedisConnectionFactory connections, boolean cluster, String namespace, boolean groupCommit) {
		this.connections = connections;
		this.cluster = cluster;
		this.namespace = namespace;
		this.groupCommit = groupCommit;
		this.ids = key(IDS);
		this.channels = new RedisChannels(connections);
	}

	/** On the connections Spring Boot made, a cluster if they are cluster-aware. */
	public static RedisStore of(RedisConnectionFactory connections, String namespace) {
		return of(connections, namespace, false);
	}

	/** As {@link #of(RedisConnectionFactory, String)}, with or without group commits. */
	public static RedisStore of(RedisConnectionFactory connections, String namespace, boolean groupCommit) {
		boolean cluster = connections instanceof LettuceConnectionFactory lettuce && lettuce.isClusterAware();
		return new RedisStore(connections, cluster, namespace, groupCommit);
	}

	/**
	 * Holds every push's answer (REST, SQS, batches, FIFO sends) until {@code replicas}
	 * replicas of its master have it ({@link ReplicaAcknowledgements}), within
	 * {@code timeout}, else answers it as a store failure; so too every lease and
	 * completion (and lease change, discard), unless {@code pushesOnly}. Once, before the
	 * store serves.
	 * @param pushesOnly whether leases and completions are answered once the master has
	 * them: a failover may then undo one, so that its message is delivered again (as a
	 * lapsed lease is), under a delivery number already given; no push answered is lost
	 * @throws IllegalStateException on a connection factory other than Lettuce's
	 */
	public void replicatedBy(int replicas, Duration timeout, boolean pushesOnly) {
		if (!(this.connections instanceof LettuceConnectionFactory lettuce)) {
			throw new IllegalStateException("qs.redis.replicas-to-acknowledge needs Lettuce's connections");
		}
		this.acknowledged = AcknowledgedWrites.of(this, lettuce.getRequiredNativeClient(), replicas, timeout,
				pushesOnly);
	}

	/** Which answers wait for replicas, and the wait ({@link #replicatedBy}). */
	AcknowledgedWrites acknowledged() {
		return this.acknowledged;
	}

	/** Whether the redis strategy runs group commits ({@link GroupCommit}). */
	public boolean groupCommit() {
		return this.groupCommit;
	}

	/** The redis strategy on this store. */
	@Override
	public QueueServiceCore open(QueueOptions options) {
		return new RedisQS(options, this);
	}

	/**
	 * Everything a service keeps, in this store: the redis strategy with those options,
	 * the explicit queues, the FIFO groups, the move tasks and the gauges' snapshot (the
	 * caller closes the core, the explicit queues and the gauges).
	 */
	public Stores stores(QueueOptions options) {
		RedisQS core = new RedisQS(options, this);
		return new Stores.Of(core, explicitQueues(), fifoGroups(core), moveTasks(), new RedisGauges(core));
	}

	/** The message move tasks kept in this store. */
	public MoveTaskStore moveTasks() {
		return new RedisMoveTasks(this);
	}

	/**
	 * The FIFO queues' groups kept in this store, and through them the fair queues',
	 * whose pushes run {@code core}'s push, a core on this store, in the same script.
	 */
	public FifoGroups fifoGroups(RedisQS core) {
		return new RedisFifoGroups(core);
	}

	/** The explicit queues kept in this store; the caller closes them. */
	public RedisExplicitQueues explicitQueues() {
		return new RedisExplicitQueues(this);
	}

	public String namespace() {
		return this.namespace;
	}

	public boolean cluster() {
		return this.cluster;
	}

	/**
	 * One call on a connection of the factory (Lettuce shares one connection between
	 * threads, so this costs no connection of its own), with Redis's refusals translated
	 * ({@link LuaScript#refusal}).
	 */
	public <T> T call(Function<RedisConnection, T> call) {
		try (RedisConnection connection = this.connections.getConnection()) {
			return call.apply(connection);
		}
		catch (DataAccessException ex) {
			throw LuaScript.refusal(ex);
		}
	}

	/**
	 * Takes {@code count} ids from the counter every push takes its ids from
	 * ({@link #IDS}): from this instance's block of them ({@link IdBlocks}), else by one
	 * {@code INCRBY} of a new block, answered once the replicas asked for have it
	 * ({@link AcknowledgedWrites#idsReplicated}).
	 * @return the first of them
	 */
	long reserveIds(int count) {
		long first = this.idBlocks.take(count);
		if (first != 0) {
			return first;
		}
		long sentAt = this.idBlocks.reserving();
		long last = call(redis -> redis.stringCommands().incrBy(this.ids, count + IdBlocks.BLOCK));
		return this.idBlocks.keep(this.acknowledged.idsReplicated(last), count, sentAt);
	}

	/** {@link #reserveIds(int)} without waiting, on {@code redis}. */
	CompletableFuture<Long> reserveIds(RedisClusterAsyncCommands<byte[], byte[]> redis, int count) {
		long first = this.idBlocks.take(count);
		if (first != 0) {
			return CompletableFuture.completedFuture(first);
		}
		long sentAt = this.idBlocks.reserving();
		return this.acknowledged.idsReplicated(redis.incrby(this.ids, count + IdBlocks.BLOCK).toCompletableFuture())
			.thenApply(last -> this.idBlocks.keep(last, count, sentAt));
	}

	/** Runs {@code script} as {@link #call} does. */
	public <T> T run(LuaScript script, List<byte[]> keys, byte[]... args) {
		return call(redis -> script.run(redis, keys, args));
	}

	/** Script runs {@link #runEach} sends at once. */
	static final int WINDOW = 256;

	/**
	 * One run of {@code script} per entry of {@code runs}, answered in order. Where calls
	 * may go asynchronously ({@link #runsAsync}), {@value #WINDOW} runs at a time are
	 * sent at once (pipelined on the shared connection: one round trip a window rather
	 * than one a run, which made a listing of 10,000 queues take a second, and the
	 * gauges' reading of them each second a third of a core); else one after another. A
	 * failure is thrown as {@link #call} throws it.
	 */
	<T> List<T> runEach(LuaScript script, List<ScriptRun> runs) {
		List<T> answers = new ArrayList<>(runs.size());
		if (!runsAsync()) {
			for (ScriptRun run : runs) {
				answers.add(run(script, run.keys(), run.args()));
			}
			return answers;
		}
		for (int from = 0; from < runs.size(); from += WINDOW) {
			List<ScriptRun> window = runs.subList(from, Math.min(from + WINDOW, runs.size()));
			CompletableFuture<List<T>> sent = callAsync(redis -> {
				List<CompletableFuture<T>> each = new ArrayList<>(window.size());
				for (ScriptRun run : window) {
					each.add(script.runAsync(redis, run.keys(), run.args()));
				}
				return CompletableFuture.allOf(each.toArray(CompletableFuture[]::new))
					.thenApply(done -> each.stream().map(CompletableFuture::join).toList());
			});
			answers.addAll(joined(sent));
		}
		return answers;
	}

	/**
	 * The stage's answer, waited for on the caller's thread; its failure thrown as the
	 * blocking call would throw it (unwrapped from the stage's wrapping).
	 */
	static <T> T joined(CompletableFuture<T> stage) {
		try {
			return stage.join();
		}
		catch (CompletionException ex) {
			Throwable cause = AsyncCore.cause(ex);
			throw (cause instanceof RuntimeException failure) ? failure : ex;
		}
	}

	/** A script's keys and arguments: one of {@link #runEach}'s runs. */
	record ScriptRun(List<byte[]> keys, byte[]... args) {
	}

	/**
	 * Whether {@link #callAsync} may be called: on Lettuce's shared connection (Spring
	 * Boot's default; a connection of its own would be closed before its answer came),
	 * standalone or a cluster (whose commands Lettuce routes by their first key's slot).
	 */
	boolean runsAsync() {
		return this.connections instanceof LettuceConnectionFactory lettuce && lettuce.getShareNativeConnection();
	}

	/**
	 * One command, a script or commands chained, sent through Lettuce's asynchronous API
	 * on the shared connection, taken here, on the caller's thread: the stage completes
	 * on Lettuce's event loop when Redis answers, or fails there with what {@link #call}
	 * would throw, a timeout after the connection's command timeout included (Lettuce's
	 * own, which Spring Boot turns on for every command: a stage's {@code orTimeout}
	 * would cost a wake-up of the common pool's timer per call).
	 */
	<T> CompletableFuture<T> callAsync(
			Function<RedisClusterAsyncCommands<byte[], byte[]>, ? extends CompletionStage<T>> call) {
		RedisClusterAsyncCommands<byte[], byte[]> redis;
		try (LettuceConnection connection = (LettuceConnection) this.connections.getConnection()) {
			// the shared connection, which closing this one leaves open
			redis = connection.getNativeConnection();
		}
		catch (DataAccessException ex) {
			return CompletableFuture.failedFuture(LuaScript.refusal(ex));
		}
		return call.apply(redis)
			.toCompletableFuture()
			.exceptionallyCompose(failure -> CompletableFuture.failedFuture(translated(failure)));
	}

	/** A failure of an asynchronous call as the blocking call would have thrown it. */
	static RuntimeException translated(Throwable failure) {
		Throwable cause = AsyncCore.cause(failure);
		if (cause instanceof DataAccessException access) {
			return LuaScript.refusal(access);
		}
		DataAccessException access = (cause instanceof Exception ex) ? EXCEPTIONS.convert(ex) : null;
		return LuaScript.refusal((access != null) ? access : new RedisSystemException(cause.getMessage(), cause));
	}

	/** The id counter's key, which the push scripts on a standalone Redis reach. */
	byte[] idsKey() {
		return this.ids;
	}

	/** A key of the whole namespace (on a slot of its own in a cluster). */
	public byte[] key(String name) {
		return utf8(this.namespace + name);
	}

	/**
	 * The keys of {@code queue} with those suffixes, in that order, on the queue's slot;
	 * then the {@code shared} keys, where a script can reach them: not on a cluster.
	 */
	public List<byte[]> queueKeys(String queue, List<String> suffixes, byte[]... shared) {
		String prefix = this.namespace + "{" + queue + "}:";
		List<byte[]> keys = new ArrayList<>(suffixes.size() + shared.length);
		for (String suffix : suffixes) {
			keys.add(utf8(prefix + suffix));
		}
		if (!this.cluster) {
			Collections.addAll(keys, shared);
		}
		return keys;
	}

	/**
	 * Hears the namespace's channel {@code name} (its key, {@link #key}) until the answer
	 * is closed ({@link RedisChannels#subscribe}).
	 */
	AutoCloseable subscribe(String name, RedisChannels.ChannelListener listener) {
		return this.channels.subscribe(key(name), listener);
	}

	/** Ends the subscription, if any, and the replicas' acknowledgements' connection. */
	@Override
	public void close() {
		this.acknowledged.close();
		this.channels.close();
	}

	static byte[] utf8(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	static String utf8(byte[] bytes) {
		return new String(bytes, StandardCharsets.UTF_8);
	}

}
