package io.github.qsbench.jmh;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.ScanOptions;

import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.redis.RedisQS;
import io.github.qsbench.redis.RedisStore;
import io.github.qsbench.core.strategy.Strategy;

/**
 * Builds the core a benchmark measures, for every strategy: in this process
 * ({@link Strategy#create}), or for {@link Strategy#REDIS} a {@link RedisQS} on a Spring
 * Data {@link LettuceConnectionFactory} (what Spring Boot gives the service) to the
 * redis-server at 127.0.0.1 and the port of the system property {@value #PORT_PROPERTY},
 * in a namespace of its own ({@code jmh<n>:}, emptied before use). Every benchmark's
 * {@code @Setup} calls {@link #create} and its {@code @TearDown} {@link #close}, which
 * also deletes the namespace's keys and closes the connection.
 *
 * <p>
 * {@code scripts/jmh-study.sh} starts a redis-server of its own when it runs REDIS and
 * passes its port to the forks. By hand: <pre>
 * redis-server --save "" --appendonly no --bind 127.0.0.1 --port 6390 &amp;
 * java -cp "$CP" org.openjdk.jmh.Main 'QueueServiceBenchmark.Thrpt' -p strategy=REDIS -jvmArgsAppend -Dqs.redis.port=6390
 * </pre> (a {@code -D} of the JMH command itself does not reach the forks).
 */
final class JmhCores {

	/** The system property that names the Redis port. */
	static final String PORT_PROPERTY = "qs.redis.port";

	static final String HOST = "127.0.0.1";

	private static final AtomicInteger namespaces = new AtomicInteger();

	/** The connection of each Redis core made here, until {@link #close}. */
	private static final Map<QueueServiceCore, LettuceConnectionFactory> connections = Collections
		.synchronizedMap(new IdentityHashMap<>());

	private JmhCores() {
	}

	/**
	 * A new core of that strategy.
	 * @throws IllegalStateException for {@link Strategy#REDIS} without
	 * {@value #PORT_PROPERTY}, or when no Redis answers there
	 */
	static QueueServiceCore create(Strategy strategy, QueueOptions options) {
		if (strategy.framework() != Strategy.Framework.EXTERNAL) {
			return strategy.create(options);
		}
		int port = port();
		LettuceConnectionFactory factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(HOST, port));
		factory.afterPropertiesSet();
		factory.start();
		try {
			String namespace = "jmh" + namespaces.incrementAndGet() + ":";
			try (RedisConnection connection = factory.getConnection()) {
				connection.ping();
				// what a fork that died before its tear-down left behind
				deleteKeys(connection, namespace);
			}
			catch (RuntimeException ex) {
				throw new IllegalStateException(
						"No Redis answers at " + HOST + ":" + port + " (-D" + PORT_PROPERTY + "): " + ex.getMessage(),
						ex);
			}
			RedisStore store = new RedisStore(factory, false, namespace);
			QueueServiceCore core = strategy.create(new Strategy.Context(options, () -> store));
			connections.put(core, factory);
			return core;
		}
		catch (RuntimeException ex) {
			factory.destroy();
			throw ex;
		}
	}

	/**
	 * Closes the core; for a Redis core also deletes its keys and closes its connection.
	 */
	static void close(QueueServiceCore core) {
		if (core == null) {
			return;
		}
		LettuceConnectionFactory factory = connections.remove(core);
		try {
			core.close();
			if (factory != null) {
				try (RedisConnection connection = factory.getConnection()) {
					deleteKeys(connection, ((RedisQS) core).namespace());
				}
			}
		}
		finally {
			if (factory != null) {
				factory.destroy();
			}
		}
	}

	private static int port() {
		String port = System.getProperty(PORT_PROPERTY);
		if (port == null || port.isBlank()) {
			throw new IllegalStateException("Strategy REDIS needs a redis-server and its port in -D" + PORT_PROPERTY
					+ " in the forks: scripts/jmh-study.sh starts one itself (--strategies REDIS, or all); by hand,"
					+ " start one (redis-server --save \"\" --appendonly no --bind 127.0.0.1 --port 6390) and add"
					+ " -jvmArgsAppend -D" + PORT_PROPERTY + "=6390 to the JMH command");
		}
		try {
			return Integer.parseInt(port.strip());
		}
		catch (NumberFormatException ex) {
			throw new IllegalStateException("-D" + PORT_PROPERTY + "=" + port + " is not a port", ex);
		}
	}

	/**
	 * Deletes every key of the namespace (all of a {@link RedisQS}'s keys start with it),
	 * so that the next core starts on an empty Redis, as an in-process one starts empty.
	 */
	private static void deleteKeys(RedisConnection connection, String namespace) {
		ScanOptions match = ScanOptions.scanOptions().match(namespace + "*").count(1000).build();
		List<byte[]> batch = new ArrayList<>();
		try (Cursor<byte[]> keys = connection.keyCommands().scan(match)) {
			while (keys.hasNext()) {
				batch.add(keys.next());
				if (batch.size() == 1000) {
					connection.keyCommands().unlink(batch.toArray(byte[][]::new));
					batch.clear();
				}
			}
		}
		if (!batch.isEmpty()) {
			connection.keyCommands().unlink(batch.toArray(byte[][]::new));
		}
	}

}
