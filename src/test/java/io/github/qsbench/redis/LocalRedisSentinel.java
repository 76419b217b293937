package io.github.qsbench.redis;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

/**
 * Redis's high availability without a cluster: a master, its replica and one Sentinel
 * watching them (quorum 1), each a {@link LocalRedis} process of this fixture's own, as
 * Spring Boot's {@code spring.data.redis.sentinel.*} properties connect to it.
 * {@link #failover()} makes the replica master, as an operator's
 * {@code SENTINEL FAILOVER} does; the old master becomes its replica.
 */
public final class LocalRedisSentinel implements AutoCloseable {

	/**
	 * The name the Sentinel knows the master by
	 * ({@code spring.data.redis.sentinel.master}).
	 */
	public static final String MASTER = "qs-master";

	private static final Duration SETTLE = Duration.ofSeconds(30);

	private final List<LocalRedis> servers;

	private final LocalRedis sentinel;

	private LocalRedisSentinel(List<LocalRedis> servers, LocalRedis sentinel) {
		this.servers = servers;
		this.sentinel = sentinel;
	}

	/**
	 * Starts the three and returns once the replica is in sync and the Sentinel knows it:
	 * a failover needs both.
	 */
	public static LocalRedisSentinel start() {
		LocalRedis master = LocalRedis.start();
		LocalRedis replica = LocalRedis.start("--replicaof", LocalRedis.HOST, String.valueOf(master.port()));
		LocalRedis sentinel = LocalRedis.start(LocalRedis.Kind.SENTINEL,
				List.of("--sentinel", "monitor", MASTER, LocalRedis.HOST, String.valueOf(master.port()), "1",
						"--sentinel", "down-after-milliseconds", MASTER, "1000", "--sentinel", "failover-timeout",
						MASTER, "10000"),
				false);
		LocalRedisSentinel started = new LocalRedisSentinel(List.of(master, replica), sentinel);
		started.awaitReplicaKnown(replica);
		return started;
	}

	/** {@code spring.data.redis.sentinel.nodes}: the one Sentinel. */
	public String nodes() {
		return this.sentinel.host() + ":" + this.sentinel.port();
	}

	/** The server that is master now, by the Sentinel's word. */
	public LocalRedis master() {
		List<String> address = List.of(this.sentinel.cli("SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER).split("\n"));
		int port = Integer.parseInt(address.get(1));
		return this.servers.stream()
			.filter((server) -> server.port() == port)
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("The Sentinel names no server of this fixture: " + address));
	}

	/**
	 * Fails the master over to its replica, and returns once the replica is master, the
	 * Sentinel says so, and the old master is its replica in sync.
	 * @return the new master
	 */
	public LocalRedis failover() {
		LocalRedis old = master();
		LocalRedis next = this.servers.stream().filter((server) -> server != old).findFirst().orElseThrow();
		String answer = this.sentinel.cli("SENTINEL", "FAILOVER", MASTER);
		if (!"OK".equals(answer)) {
			throw new IllegalStateException("SENTINEL FAILOVER answered " + answer);
		}
		await().atMost(SETTLE).until(() -> master() == next && next.cli("ROLE").startsWith("master"));
		awaitReplicaKnown(old);
		return next;
	}

	/** The replica linked to its master and listed by the Sentinel as a replica. */
	private void awaitReplicaKnown(LocalRedis replica) {
		await().atMost(SETTLE)
			.until(() -> replica.cli("INFO", "replication").contains("master_link_status:up")
					&& this.sentinel.cli("SENTINEL", "REPLICAS", MASTER).contains(String.valueOf(replica.port())));
	}

	@Override
	public void close() {
		this.sentinel.close();
		this.servers.forEach(LocalRedis::close);
	}

}
