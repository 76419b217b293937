package io.github.qsbench.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;

import io.github.qsbench.application.stores.Stores;
import io.github.qsbench.core.strategy.Strategy;
import io.github.qsbench.redis.LocalRedis;
import io.github.qsbench.redis.LocalRedisConnections;
import io.github.qsbench.redis.RedisQS;
import io.github.qsbench.redis.RedisStore;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Builds any strategy for a test: in this process, or for {@link Strategy#REDIS} on the
 * test JVM's own {@code redis-server} ({@link LocalRedis#shared()}), each service in a
 * namespace of its own so that tests never see one another's queues.
 */
public final class TestCores {

	private static final AtomicInteger namespaces = new AtomicInteger();

	private TestCores() {
	}

	public static QueueServiceCore create(Strategy strategy, QueueOptions options) {
		return strategy.create(new Strategy.Context(options, () -> store(newNamespace())));
	}

	/**
	 * Asserts that the service charges nothing to its caps: no bytes and no queues on the
	 * heap of an in-process strategy; for {@link Strategy#REDIS}, whose cap is Redis's
	 * {@code maxmemory}, that it keeps no heap caps at all.
	 */
	public static void assertNothingCharged(Strategy strategy, QueueServiceCore service) {
		if (strategy == Strategy.REDIS) {
			assertThat(service.capacity()).as("Redis's maxmemory is the cap").isEmpty();
			return;
		}
		Capacity capacity = service.capacity().orElseThrow();
		assertThat(capacity.heldBytes()).as("bytes charged").isZero();
		assertThat(capacity.heldQueues()).as("queues charged").isZero();
	}

	/** A namespace no other service of this JVM uses. */
	public static String newNamespace() {
		return "t" + namespaces.incrementAndGet() + ":";
	}

	/**
	 * A redis strategy on the shared redis-server in that namespace: two made with the
	 * same one are two instances serving the same queues.
	 */
	public static RedisQS redis(QueueOptions options, String namespace) {
		return (RedisQS) store(namespace).open(options);
	}

	/** The shared redis-server, in that namespace. */
	public static RedisStore store(String namespace) {
		return new RedisStore(SharedConnections.FACTORY, false, namespace);
	}

	/** As {@link #store(String)}, with or without group commits. */
	public static RedisStore store(String namespace, boolean groupCommit) {
		return new RedisStore(SharedConnections.FACTORY, false, namespace, groupCommit);
	}

	/**
	 * Everything a service keeps, as the service chooses it: for {@link Strategy#REDIS}
	 * in the shared redis-server, in a namespace of its own (the caller closes the core
	 * and the explicit queues), else in memory.
	 */
	public static Stores stores(Strategy strategy, QueueOptions options) {
		return stores(strategy, options, newNamespace());
	}

	/** As {@link #stores(Strategy, QueueOptions)}, Redis's in that namespace. */
	public static Stores stores(Strategy strategy, QueueOptions options, String namespace) {
		return (strategy.framework() == Strategy.Framework.EXTERNAL) ? redisStores(options, namespace)
				: Stores.inProcess(strategy.create(options));
	}

	/**
	 * Everything a redis service keeps, in that namespace of the shared redis-server: two
	 * made with the same one are two instances sharing everything.
	 */
	public static Stores redisStores(QueueOptions options, String namespace) {
		return store(namespace).stores(options);
	}

	/** One connection factory for the JVM, made on first use. */
	private static final class SharedConnections {

		static final LettuceConnectionFactory FACTORY = LocalRedisConnections.standalone(LocalRedis.shared());

	}

}
