package io.github.qsbench.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A Redis Cluster of real {@code redis-server} masters, no replicas, on free ports of
 * 127.0.0.1, so that the Redis strategy's tests meet the cluster's own rules: keys of one
 * script in one hash slot, {@code MOVED} redirections. Either the test JVM's
 * {@link #shared3() shared} three-master cluster or one of a test's own ({@link #start}).
 * <p>
 * Each master is a {@link LocalRedis} in a directory of its own, so the same shutdown
 * hook stops whatever is still running when the JVM exits.
 */
public final class LocalRedisCluster implements AutoCloseable {

	private static final Duration CREATE_TIMEOUT = Duration.ofSeconds(30);

	private static final Duration STATE_OK_TIMEOUT = Duration.ofSeconds(20);

	private static final Duration CLI_TIMEOUT = Duration.ofSeconds(10);

	private static final List<String> NODE_ARGS = List.of("--cluster-enabled", "yes", "--cluster-config-file",
			"nodes.conf", "--cluster-node-timeout", "5000");

	private static LocalRedisCluster shared;

	private final List<LocalRedis> masters;

	private final boolean isShared;

	private LocalRedisCluster(List<LocalRedis> masters, boolean isShared) {
		this.masters = masters;
		this.isShared = isShared;
	}

	/**
	 * The test JVM's three-master cluster, created on first use and stopped when the JVM
	 * exits; never close it. Tests that need it empty call {@link #flushAll()}.
	 */
	public static synchronized LocalRedisCluster shared3() {
		if (shared == null) {
			shared = start(3, true);
		}
		return shared;
	}

	/**
	 * A cluster of the caller's own; the caller closes it.
	 * @param masters at least 3, the fewest {@code redis-cli --cluster create} accepts
	 */
	public static LocalRedisCluster start(int masters) {
		return start(masters, false);
	}

	private static LocalRedisCluster start(int count, boolean isShared) {
		if (count < 3) {
			throw new IllegalArgumentException("Redis Cluster needs at least 3 masters, not " + count);
		}
		List<LocalRedis> masters = new ArrayList<>();
		LocalRedisCluster cluster = new LocalRedisCluster(masters, isShared);
		try {
			for (int i = 0; i < count; i++) {
				masters.add(LocalRedis.start(true, NODE_ARGS, false));
			}
			List<String> create = new ArrayList<>(List.of("--cluster", "create"));
			create.addAll(cluster.nodes());
			create.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
			LocalRedis.runCli(CREATE_TIMEOUT, create);
			cluster.awaitStateOk();
			return cluster;
		}
		catch (RuntimeException ex) {
			masters.forEach(LocalRedis::close);
			throw ex;
		}
	}

	/** The masters as {@code redis-cli --cluster} and cluster clients name them. */
	public List<String> nodes() {
		return this.masters.stream().map((master) -> LocalRedis.HOST + ":" + master.port()).toList();
	}

	public List<Integer> ports() {
		return this.masters.stream().map(LocalRedis::port).toList();
	}

	/** Empties every master; a cluster has no command that reaches all of them. */
	public void flushAll() {
		this.masters.forEach(LocalRedis::flushAll);
	}

	/**
	 * Runs {@code redis-cli -c} against the master on this port, which follows
	 * {@code MOVED} redirections to the key's master: {@code cli(port, "GET", "{a}x")}.
	 * @return its standard output, trimmed
	 */
	public String cli(int port, String... args) {
		List<String> cliArgs = new ArrayList<>(List.of("-c", "-h", LocalRedis.HOST, "-p", String.valueOf(port)));
		cliArgs.addAll(List.of(args));
		return LocalRedis.runCli(CLI_TIMEOUT, cliArgs);
	}

	/**
	 * Stops every master and deletes their directories.
	 * @throws IllegalStateException on the {@link #shared3()} cluster, which other tests
	 * still use
	 */
	@Override
	public void close() {
		if (this.isShared) {
			throw new IllegalStateException("The shared cluster is stopped when the JVM exits; do not close it");
		}
		this.masters.forEach(LocalRedis::close);
	}

	/**
	 * Waits until every master knows every other and serves all 16384 slots: {@code
	 * --cluster create} returns once the nodes agree on the slots, before each has marked
	 * the cluster up.
	 */
	private void awaitStateOk() {
		long deadline = System.nanoTime() + STATE_OK_TIMEOUT.toNanos();
		String known = "cluster_known_nodes:" + this.masters.size();
		for (LocalRedis master : this.masters) {
			String info = master.inline("CLUSTER INFO");
			while (!(info.contains("cluster_state:ok") && info.contains(known))) {
				if (System.nanoTime() > deadline) {
					throw new IllegalStateException(
							"Cluster " + nodes() + " not up within " + STATE_OK_TIMEOUT.toSeconds()
									+ " s; CLUSTER INFO on port " + master.port() + ":\n" + info);
				}
				LocalRedis.pause();
				info = master.inline("CLUSTER INFO");
			}
		}
	}

}
