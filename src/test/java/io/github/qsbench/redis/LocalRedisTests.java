package io.github.qsbench.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The real servers the Redis suites stand on: reachable, crashable with their AOF
 * replayed, and clustered.
 */
@Timeout(60)
class LocalRedisTests {

	@Test
	void shared_answersPing_andIsOnePerJvm() {
		LocalRedis redis = LocalRedis.shared();

		assertThat(redis.cli("PING")).isEqualTo("PONG");
		assertThat(LocalRedis.shared()).isSameAs(redis);
		assertThat(redis.cli("CONFIG", "GET", "appendonly")).isEqualTo("appendonly\nno");
	}

	/**
	 * The service needs Redis 6.2: its scripts' commands ({@code ZRANGE ... BYSCORE
	 * LIMIT}, {@code LPOP} with a count). A script's write refused for {@code maxmemory}
	 * is read as a reached cap on 6.2 too, where Redis wraps the {@code OOM} in
	 * {@code ERR Error running script} ({@code LuaScriptTests}; the suites' OOM test
	 * passed on 6.2.11).
	 */
	@Test
	void shared_runsTheChosenBinary_aRedisTheServiceCanUse() {
		String info = LocalRedis.shared().cli("INFO", "server");

		assertThat(info).contains("executable:" + LocalRedis.binary() + "\r\n");
		String version = info.substring(info.indexOf("redis_version:") + "redis_version:".length())
			.lines()
			.findFirst()
			.orElseThrow()
			.strip();
		assertThat(Runtime.Version.parse(version)).isGreaterThanOrEqualTo(Runtime.Version.parse("6.2"));
		if ("bundled".equals(System.getProperty(LocalRedis.BINARY_PROPERTY))) {
			assertThat(LocalRedis.binary()).isNotEqualTo(LocalRedis.Binary.onPath());
		}
	}

	@Test
	void shared_flushAll_empties() {
		LocalRedis redis = LocalRedis.shared();
		redis.cli("SET", "k", "v");

		redis.flushAll();

		assertThat(redis.cli("DBSIZE")).isEqualTo("0");
	}

	@Test
	void aofAlways_kill9_restartReplaysTheWrite() {
		try (LocalRedis redis = LocalRedis.start("--appendonly", "yes", "--appendfsync", "always")) {
			int port = redis.port();
			assertThat(redis.cli("SET", "k", "v")).isEqualTo("OK");

			redis.kill9();
			assertThatIllegalStateException().isThrownBy(() -> redis.cli("PING"))
				.withMessageContaining("Connection refused");
			redis.restart();

			assertThat(redis.port()).isEqualTo(port);
			assertThat(redis.cli("GET", "k")).isEqualTo("v");
		}
	}

	@Test
	void inMemory_kill9_restartComesBackEmpty() {
		try (LocalRedis redis = LocalRedis.start()) {
			redis.cli("SET", "k", "v");

			redis.kill9();
			redis.restart();

			assertThat(redis.cli("DBSIZE")).isEqualTo("0");
		}
	}

	@Test
	void shared3_aKeyWrittenOnOneMaster_readOnAnother() {
		LocalRedisCluster cluster = LocalRedisCluster.shared3();
		List<Integer> ports = cluster.ports();

		// slot 15495, the third master's: both commands reach it through a MOVED
		assertThat(cluster.cli(ports.get(0), "SET", "{a}x", "1")).isEqualTo("OK");

		assertThat(cluster.cli(ports.get(1), "GET", "{a}x")).isEqualTo("1");
		assertThat(cluster.cli(ports.get(0), "CLUSTER", "INFO")).contains("cluster_state:ok", "cluster_known_nodes:3");
		assertThat(cluster.nodes())
			.containsExactly(ports.stream().map((port) -> "127.0.0.1:" + port).toArray(String[]::new));
		assertThat(LocalRedisCluster.shared3()).isSameAs(cluster);

		cluster.flushAll();
		assertThat(cluster.cli(ports.get(2), "GET", "{a}x")).isEmpty();
	}

	@Test
	void secured_thePlainPortAnswersOnlyPingAndInfo_theUsersRules() {
		LocalRedis redis = LocalRedis.secured();

		assertThat(redis.cli("PING")).isEqualTo("PONG");
		assertThat(redis.cli("GET", "qs:k")).startsWith("NOPERM");
		assertThat(redis.cli("AUTH", LocalRedis.USER, "wrong")).startsWith("WRONGPASS");
		assertThat(redis.cli("ACL", "GETUSER", LocalRedis.USER)).startsWith("NOPERM");
		assertThat(redis.tlsPort()).isNotEqualTo(redis.port());
		assertThat(LocalRedis.secured()).isSameAs(redis);
	}

}
