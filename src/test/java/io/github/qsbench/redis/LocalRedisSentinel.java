package io.github.qsbench.redis;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Redis's high availability without a cluster: a master, its replica and one Sentinel
 * watching them (quorum 1), each a {@link LocalRedis} process of this fixture's own, as
 * Spring Boot's {@code spring.data.redis.sentinel.*} properties connect to it.
 * {@link #failover()} makes the replica master, as an operator's
 * {@code SENTINEL FAILOVER} does; the old master becomes its replica.
 * <p>
 * {@link #startSecured()} starts them as a managed service runs them: the servers are
 * {@link LocalRedis#secured()}'s kind (TLS, {@link LocalRedis#USER}), and everything
 * speaks TLS, the Sentinel to its clients, to the servers and the replication. The
 * Sentinel and the replication authenticate as a user of their own, {@value #HA_USER},
 * with the rules Redis's Sentinel documentation lists and nothing else.
 */
public final class LocalRedisSentinel implements AutoCloseable {

	/**
	 * The name the Sentinel knows the master by
	 * ({@code spring.data.redis.sentinel.master}).
	 */
	public static final String MASTER = "qs-master";

	/** The user the secured Sentinel and replicas authenticate to the servers as. */
	static final String HA_USER = "ha";

	private static final String HA_PASSWORD = "local-redis-ha-password";

	/**
	 * {@value #HA_USER}'s rules: what a Sentinel sends to the servers it watches and
	 * fails over, and what a replica sends to its master.
	 */
	private static final List<String> HA_RULES = List.of("allchannels", "+multi", "+exec", "+slaveof", "+replicaof",
			"+ping", "+subscribe", "+publish", "+config|rewrite", "+role", "+info", "+client|setname", "+client|kill",
			"+script|kill", "+psync", "+replconf");

	private static final Duration SETTLE = Duration.ofSeconds(30);

	private final List<LocalRedis> servers;

	private final LocalRedis sentinel;

	private final boolean isSecured;

	private LocalRedisSentinel(List<LocalRedis> servers, LocalRedis sentinel, boolean isSecured) {
		this.servers = servers;
		this.sentinel = sentinel;
		this.isSecured = isSecured;
	}

	/**
	 * Starts the three and returns once the replica is in sync and the Sentinel knows it:
	 * a failover needs both.
	 */
	public static LocalRedisSentinel start() {
		return start(false);
	}

	/**
	 * {@link #start()}, everything over TLS and as users: clients of its {@link #nodes()}
	 * need {@link OnSecuredRedis.Initializer#credentials()}.
	 */
	public static LocalRedisSentinel startSecured() {
		return start(true);
	}

	private static LocalRedisSentinel start(boolean secured) {
		LocalRedis.Kind kind = secured ? LocalRedis.Kind.SECURED : LocalRedis.Kind.PLAIN;
		List<String> haArgs = new ArrayList<>();
		if (secured) {
			// the replica's link to its master; the old master's too, once it is a
			// replica
			haArgs.addAll(List.of("--user", HA_USER, "on", ">" + HA_PASSWORD));
			haArgs.addAll(HA_RULES);
			haArgs.addAll(List.of("--masteruser", HA_USER, "--masterauth", HA_PASSWORD));
		}
		LocalRedis master = LocalRedis.start(kind, haArgs, false);
		String masterPort = String.valueOf(secured ? master.tlsPort() : master.port());
		List<String> replicaArgs = new ArrayList<>(haArgs);
		replicaArgs.addAll(List.of("--replicaof", LocalRedis.HOST, masterPort));
		LocalRedis replica = LocalRedis.start(kind, replicaArgs, false);
		List<String> sentinelArgs = new ArrayList<>(
				List.of("--sentinel", "monitor", MASTER, LocalRedis.HOST, masterPort, "1", "--sentinel",
						"down-after-milliseconds", MASTER, "1000", "--sentinel", "failover-timeout", MASTER, "10000"));
		if (secured) {
			sentinelArgs.addAll(List.of("--sentinel", "auth-user", MASTER, HA_USER, "--sentinel", "auth-pass", MASTER,
					HA_PASSWORD));
		}
		LocalRedis sentinel = LocalRedis.start(secured ? LocalRedis.Kind.SECURED_SENTINEL : LocalRedis.Kind.SENTINEL,
				sentinelArgs, false);
		LocalRedisSentinel started = new LocalRedisSentinel(List.of(master, replica), sentinel, secured);
		started.awaitReplicaKnown(replica);
		return started;
	}

	/**
	 * {@code spring.data.redis.sentinel.nodes}: the one Sentinel (its TLS port when
	 * secured).
	 */
	public String nodes() {
		return this.sentinel.host() + ":" + clientPort(this.sentinel);
	}

	/**
	 * The port the service reaches a server or the Sentinel on, and the Sentinel names.
	 */
	private int clientPort(LocalRedis redis) {
		return this.isSecured ? redis.tlsPort() : redis.port();
	}

	/** The two servers, master and replica in either order. */
	public List<LocalRedis> servers() {
		return this.servers;
	}

	/** The server that is master now, by the Sentinel's word. */
	public LocalRedis master() {
		List<String> address = List.of(this.sentinel.cli("SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER).split("\n"));
		int port = Integer.parseInt(address.get(1));
		return this.servers.stream()
			.filter((server) -> clientPort(server) == port)
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("The Sentinel names no server of this fixture: " + address));
	}

	/**
	 * Fails the master over to its replica, and returns once the replica is master (by
	 * {@code INFO}, which a secured server's default user may run), the Sentinel says so,
	 * and the old master is its replica in sync.
	 * @return the new master
	 */
	public LocalRedis failover() {
		LocalRedis old = master();
		LocalRedis next = this.servers.stream().filter((server) -> server != old).findFirst().orElseThrow();
		String answer = this.sentinel.cli("SENTINEL", "FAILOVER", MASTER);
		if (!"OK".equals(answer)) {
			throw new IllegalStateException("SENTINEL FAILOVER answered " + answer);
		}
		// the Sentinel drops the clients of the servers it reconfigures: a look may find
		// its
		// connection reset, and looks again
		await().atMost(SETTLE)
			.ignoreException(IllegalStateException.class)
			.until(() -> master() == next && next.cli("INFO", "replication").contains("role:master"));
		awaitReplicaKnown(old);
		return next;
	}

	/**
	 * The replica linked to its master and listed by the Sentinel as a replica; a look
	 * whose connection the Sentinel's reconfiguration reset looks again.
	 */
	private void awaitReplicaKnown(LocalRedis replica) {
		await().atMost(SETTLE)
			.ignoreException(IllegalStateException.class)
			.until(() -> replica.cli("INFO", "replication").contains("master_link_status:up")
					&& this.sentinel.cli("SENTINEL", "REPLICAS", MASTER).contains(String.valueOf(clientPort(replica))));
	}

	@Override
	public void close() {
		this.sentinel.close();
		this.servers.forEach(LocalRedis::close);
	}

}
