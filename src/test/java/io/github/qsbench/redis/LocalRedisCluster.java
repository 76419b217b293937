package io.github.qsbench.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * A Redis Cluster of real {@code redis-server} masters, without replicas or with one each
 * ({@link #startWithReplicas}), on free ports of 127.0.0.1, so that the Redis strategy's
 * tests meet the cluster's own rules: keys of one script in one hash slot, {@code MOVED}
 * redirections. The test JVM's {@link #shared3() shared} three-master cluster, its
 * {@link #secured3() secured} one (TLS and a user), or one of a test's own
 * ({@link #start}).
 * <p>
 * Each master is a {@link LocalRedis} in a directory of its own, so the same shutdown
 * hook stops whatever is still running when the JVM exits. The cluster is made with the
 * commands {@code redis-cli --cluster create} sends, so it needs no {@code redis-cli}.
 */
public final class LocalRedisCluster implements AutoCloseable {

	private static final Duration STATE_OK_TIMEOUT = Duration.ofSeconds(20);

	private static final int SLOTS = 16384;

	/** Redirections {@link #cli} follows before it gives up. */
	private static final int MAX_REDIRECTIONS = 5;

	private static final List<String> NODE_ARGS = List.of("--cluster-enabled", "yes", "--cluster-config-file",
			"nodes.conf", "--cluster-node-timeout", "5000");

	private static LocalRedisCluster shared;

	private static LocalRedisCluster secured;

	private final List<LocalRedis> masters;

	/**
	 * The replica of each master, in the masters' order; none but for
	 * {@link #startWithReplicas}.
	 */
	private final List<LocalRedis> replicas = new ArrayList<>();

	private final boolean isShared;

	private final boolean isSecured;

	private LocalRedisCluster(List<LocalRedis> masters, boolean isShared, boolean isSecured) {
		this.masters = masters;
		this.isShared = isShared;
		this.isSecured = isSecured;
	}

	/**
	 * The test JVM's three-master cluster, created on first use and stopped when the JVM
	 * exits; never close it. Tests that need it empty call {@link #flushAll()}.
	 */
	public static synchronized LocalRedisCluster shared3() {
		if (shared == null) {
			shared = start(3, true, false);
		}
		return shared;
	}

	/**
	 * The test JVM's three-master cluster served as {@link LocalRedis#secured()} is: its
	 * clients and its bus over TLS, its clients as {@link LocalRedis#USER}; its
	 * {@link #nodes()} are the TLS ports. Its {@link #cli} may run only {@code CLUSTER},
	 * {@code PING} and {@code INFO} (the nodes' default user). Created on first use and
	 * stopped when the JVM exits; never close it.
	 */
	public static synchronized LocalRedisCluster secured3() {
		if (secured == null) {
			secured = start(3, true, true);
		}
		return secured;
	}

	/**
	 * A cluster of the caller's own; the caller closes it.
	 * @param masters at least 3, the fewest that can elect a replacement master, and so
	 * the fewest {@code redis-cli --cluster create} accepts
	 */
	public static LocalRedisCluster start(int masters) {
		return start(masters, false, false);
	}

	/**
	 * A cluster of the caller's own with a replica for each master
	 * ({@code CLUSTER REPLICATE}), returned once each replica is in sync; the caller
	 * closes it.
	 */
	public static LocalRedisCluster startWithReplicas(int masters) {
		LocalRedisCluster cluster = start(masters);
		try {
			for (LocalRedis master : cluster.masters) {
				LocalRedis replica = LocalRedis.start(LocalRedis.Kind.CLUSTER_NODE, NODE_ARGS, false);
				cluster.replicas.add(replica);
				expectOk(master, List.of("CLUSTER", "MEET", LocalRedis.HOST, String.valueOf(replica.port())));
			}
			for (int i = 0; i < masters; i++) {
				String masterId = Resp.text(cluster.masters.get(i).call("CLUSTER", "MYID")).trim();
				LocalRedis replica = cluster.replicas.get(i);
				long deadline = System.nanoTime() + STATE_OK_TIMEOUT.toNanos();
				// the replica must have heard of its master by gossip before it may
				// follow it
				while (!"OK".equals(replica.call("CLUSTER", "REPLICATE", masterId))) {
					if (System.nanoTime() > deadline) {
						throw new IllegalStateException("Port " + replica.port() + " never knew master " + masterId);
					}
					LocalRedis.pause();
				}
			}
			for (LocalRedis replica : cluster.replicas) {
				long deadline = System.nanoTime() + STATE_OK_TIMEOUT.toNanos();
				while (!Resp.text(replica.call("INFO", "replication")).contains("master_link_status:up")) {
					if (System.nanoTime() > deadline) {
						throw new IllegalStateException("The replica on port " + replica.port() + " is not in sync");
					}
					LocalRedis.pause();
				}
			}
			return cluster;
		}
		catch (RuntimeException ex) {
			cluster.close();
			throw ex;
		}
	}

	private static LocalRedisCluster start(int count, boolean isShared, boolean isSecured) {
		if (count < 3) {
			throw new IllegalArgumentException("Redis Cluster needs at least 3 masters, not " + count);
		}
		List<LocalRedis> masters = new ArrayList<>();
		LocalRedisCluster cluster = new LocalRedisCluster(masters, isShared, isSecured);
		LocalRedis.Kind kind = isSecured ? LocalRedis.Kind.SECURED_CLUSTER_NODE : LocalRedis.Kind.CLUSTER_NODE;
		try {
			for (int i = 0; i < count; i++) {
				masters.add(LocalRedis.start(kind, NODE_ARGS, false));
			}
			cluster.create();
			cluster.awaitStateOk();
			return cluster;
		}
		catch (RuntimeException ex) {
			masters.forEach(LocalRedis::close);
			throw ex;
		}
	}

	/**
	 * The masters as cluster clients name them ({@code host:port}): a secured cluster's
	 * TLS ports.
	 */
	public List<String> nodes() {
		return clientPorts().stream().map((port) -> LocalRedis.HOST + ":" + port).toList();
	}

	private List<Integer> clientPorts() {
		return this.masters.stream().map((master) -> this.isSecured ? master.tlsPort() : master.port()).toList();
	}

	/**
	 * The replica of the master that serves {@code slot}; only of a cluster made by
	 * {@link #startWithReplicas}.
	 */
	public LocalRedis replicaServing(int slot) {
		int count = this.masters.size();
		for (int i = 0; i < count; i++) {
			if (slot >= SLOTS * i / count && slot < SLOTS * (i + 1) / count) {
				return this.replicas.get(i);
			}
		}
		throw new IllegalArgumentException("No slot " + slot);
	}

	/** The masters' plain ports, which {@link #cli} speaks to. */
	public List<Integer> ports() {
		return this.masters.stream().map(LocalRedis::port).toList();
	}

	/** Empties every master; a cluster has no command that reaches all of them. */
	public void flushAll() {
		this.masters.forEach(LocalRedis::flushAll);
	}

	/**
	 * Sends one command to the master on this port and follows {@code MOVED} redirections
	 * to the key's master, as {@code redis-cli -c} does: {@code cli(port, "GET",
	 * "{a}x")}.
	 * @return the reply as {@link LocalRedis#cli} returns it
	 */
	public String cli(int port, String... args) {
		List<String> command = List.of(args);
		int target = port;
		for (int redirections = 0;; redirections++) {
			Object reply = LocalRedis.reply(target, command);
			if (!(reply instanceof Resp.ErrorReply error && error.message().startsWith("MOVED "))) {
				return Resp.text(reply).trim();
			}
			if (redirections == MAX_REDIRECTIONS) {
				throw new IllegalStateException(command + " still redirected after " + redirections + ": " + error);
			}
			String node = error.message().substring(error.message().lastIndexOf(' ') + 1);
			target = Integer.parseInt(node.substring(node.lastIndexOf(':') + 1));
		}
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
		this.replicas.forEach(LocalRedis::close);
		this.masters.forEach(LocalRedis::close);
	}

	/**
	 * Gives each master an equal range of the slots, in order, and a config epoch of its
	 * own, then has the first meet the others at the ports their buses follow (a secured
	 * node's bus is its TLS port + 10000).
	 */
	private void create() {
		int count = this.masters.size();
		for (int i = 0; i < count; i++) {
			List<String> addSlots = new ArrayList<>(List.of("CLUSTER", "ADDSLOTS"));
			IntStream.range(SLOTS * i / count, SLOTS * (i + 1) / count)
				.mapToObj(String::valueOf)
				.forEach(addSlots::add);
			expectOk(this.masters.get(i), addSlots);
			expectOk(this.masters.get(i), List.of("CLUSTER", "SET-CONFIG-EPOCH", String.valueOf(i + 1)));
		}
		for (int port : clientPorts().subList(1, count)) {
			expectOk(this.masters.get(0), List.of("CLUSTER", "MEET", LocalRedis.HOST, String.valueOf(port)));
		}
	}

	private static void expectOk(LocalRedis master, List<String> command) {
		Object reply = master.call(command.toArray(String[]::new));
		if (!"OK".equals(reply)) {
			throw new IllegalStateException(command.subList(0, Math.min(3, command.size())) + "... on port "
					+ master.port() + " answered " + Resp.text(reply));
		}
	}

	/**
	 * Waits until every master knows every other and sees all 16384 slots served: the
	 * masters learn of each other and of each other's slots by gossip.
	 */
	private void awaitStateOk() {
		long deadline = System.nanoTime() + STATE_OK_TIMEOUT.toNanos();
		String known = "cluster_known_nodes:" + this.masters.size();
		for (LocalRedis master : this.masters) {
			String info = Resp.text(master.call("CLUSTER", "INFO"));
			while (!(info.contains("cluster_state:ok") && info.contains(known))) {
				if (System.nanoTime() > deadline) {
					throw new IllegalStateException(
							"Cluster " + nodes() + " not up within " + STATE_OK_TIMEOUT.toSeconds()
									+ " s; CLUSTER INFO on port " + master.port() + ":\n" + info);
				}
				LocalRedis.pause();
				info = Resp.text(master.call("CLUSTER", "INFO"));
			}
		}
	}

}
