package io.github.qsbench.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.SocketException;
import java.security.cert.CertPathBuilderException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.qsbench.QueueServiceApplication;
import io.github.qsbench.core.TestCores;
import io.github.qsbench.redis.LocalRedis;
import io.github.qsbench.redis.OnSecuredRedis;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisConnectionException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.mock.env.MockEnvironment;

/**
 * The redis strategy with no Redis it can use stops start-up with a few lines saying
 * where it tried, what failed, and what to change: start one, trust its certificate,
 * speak TLS to it, give credentials it takes, or give the user the rights the service
 * needs. The start-ups on the secured test Redis ({@link LocalRedis#secured()}) make each
 * failure for real.
 */
@ExtendWith(OutputCaptureExtension.class)
class RedisConnectionFailureAnalyzerTests {

	@Test
	void defaults_localhost6379_andTheRefusal() {
		FailureAnalysis analysis = analyze(new MockEnvironment());

		assertThat(analysis.getDescription())
			.isEqualTo("The redis strategy could not connect to Redis at localhost:6379 (spring.data.redis.host and "
					+ "spring.data.redis.port): ConnectException: Connection refused.");
		assertThat(analysis.getAction()).startsWith("Start one there: redis-server --port 6379 (on Debian or Ubuntu, "
				+ "apt-get install redis-server first); or point spring.data.redis.url");
	}

	@Test
	void url_withoutItsPassword() {
		FailureAnalysis analysis = analyze(
				new MockEnvironment().withProperty("spring.data.redis.url", "redis://user:secret@cache.local:6390/2"));

		assertThat(analysis.getDescription())
			.startsWith("The redis strategy could not connect to Redis at redis://cache.local:6390/2 "
					+ "(spring.data.redis.url)")
			.doesNotContain("secret");
		assertThat(analysis.getAction()).startsWith("Start one there: redis-server --port 6390 ");
	}

	@Test
	void clusterNodes() {
		FailureAnalysis analysis = analyze(
				new MockEnvironment().withProperty("spring.data.redis.cluster.nodes", "10.0.0.1:7000,10.0.0.2:7000")
					.withProperty("spring.data.redis.url", "redis://ignored:1"));

		assertThat(analysis.getDescription()).startsWith("The redis strategy could not connect to Redis at the cluster "
				+ "nodes 10.0.0.1:7000,10.0.0.2:7000 (spring.data.redis.cluster.nodes)");
		assertThat(analysis.getAction()).startsWith("Start a Redis Cluster on those nodes");
	}

	@Test
	void redisProfile_closedPort_startUpStopsWithTheAnalysis(CapturedOutput output) throws IOException {
		int closed;
		try (ServerSocket socket = new ServerSocket(0)) {
			closed = socket.getLocalPort();
		}
		assertThatThrownBy(() -> new SpringApplicationBuilder(QueueServiceApplication.class).profiles("redis")
			.run("--server.port=0", "--spring.data.redis.host=127.0.0.1", "--spring.data.redis.port=" + closed)
			.close()).hasRootCauseInstanceOf(ConnectException.class);

		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("The redis strategy could not connect to Redis at 127.0.0.1:" + closed)
			.contains("Start one there: redis-server --port " + closed);
	}

	@Test
	void aFinalStop_notDoubled() {
		FailureAnalysis analysis = new RedisConnectionFailureAnalyzer(new MockEnvironment())
			.analyze(new RedisConnectionFailureException("Unable to connect to Redis",
					new RedisConnectionException("Unable to connect", new SocketException("Connection reset."))));

		assertThat(analysis.getDescription()).endsWith("SocketException: Connection reset.");
	}

	@Test
	void anotherDataAccessFailure_leftToOtherAnalyzers() {
		assertThat(new RedisConnectionFailureAnalyzer(new MockEnvironment())
			.analyze(new RedisSystemException("Error in execution", new RedisCommandExecutionException("ERR boom"))))
			.isNull();
	}

	/** A user named in the URL, refused a command after it connected, at start-up. */
	@Test
	void noPerm_theUserOfTheUrl_theRulesForTheNamespace() {
		FailureAnalysis analysis = new RedisConnectionFailureAnalyzer(
				new MockEnvironment().withProperty("spring.data.redis.url", "rediss://app:secret@cache.local:6390")
					.withProperty("qs.redis.namespace", "jobs:"))
			.analyze(new BeanCreationException("stores",
					new RedisSystemException("Error in execution", new RedisCommandExecutionException(
							"NOPERM this user has no permissions to run the 'evalsha' " + "command"))));

		assertThat(analysis.getDescription()).isEqualTo("Redis at rediss://cache.local:6390 (spring.data.redis.url) "
				+ "refused the redis strategy's user app a command: "
				+ "RedisCommandExecutionException: NOPERM this user has no permissions to run the 'evalsha' command.");
		assertThat(analysis.getAction()).startsWith("Give that user the rules the service needs for its namespace "
				+ "jobs: (qs.redis.namespace): ACL SETUSER app ~jobs:* &jobs:* +@all -@dangerous +info");
	}

	@Test
	void securedRedis_wrongPassword_theCredentialsRefused(CapturedOutput output) {
		assertThatThrownBy(() -> start(secured("spring.data.redis.password=wrong")))
			.hasRootCauseInstanceOf(RedisCommandExecutionException.class);

		assertThat(output)
			.contains("Redis at 127.0.0.1:" + LocalRedis.secured().tlsPort()
					+ " (spring.data.redis.host and spring.data.redis.port) refused the redis strategy's credentials: "
					+ "RedisCommandExecutionException: WRONGPASS")
			.contains("Give the name and password of an enabled Redis user: spring.data.redis.username and "
					+ "spring.data.redis.password")
			.doesNotContain("Start one there");
	}

	/**
	 * The secured Redis's default user may connect, and only PING and INFO: so no
	 * credentials reach it and are refused a command.
	 */
	@Test
	void securedRedis_noCredentials_theDefaultUserRefusedACommand_nameAUser(CapturedOutput output) {
		assertThatThrownBy(() -> start(secured("spring.data.redis.username=", "spring.data.redis.password=")))
			.hasRootCauseInstanceOf(RedisCommandExecutionException.class);

		assertThat(output)
			.contains(
					"refused the redis strategy's user default a command: " + "RedisCommandExecutionException: NOPERM")
			.contains("Name a Redis user that has the rules the service needs for its namespace qs:t");
	}

	/** A Redis whose default user has a password (requirepass), given none. */
	@Test
	void noAuth_theCredentialsRefused() {
		FailureAnalysis analysis = new RedisConnectionFailureAnalyzer(new MockEnvironment())
			.analyze(new RedisConnectionFailureException("Unable to connect to Redis",
					new RedisConnectionException("Unable to connect to localhost/<unresolved>:6379",
							new RedisCommandExecutionException("NOAUTH Authentication required."))));

		assertThat(analysis.getDescription()).isEqualTo("Redis at localhost:6379 (spring.data.redis.host and "
				+ "spring.data.redis.port) refused the redis strategy's credentials: RedisCommandExecutionException: "
				+ "NOAUTH Authentication required.");
		assertThat(analysis.getAction()).startsWith("Give the name and password of an enabled Redis user");
	}

	@Test
	void securedRedis_aNamespaceOutsideTheUsersKeys_theRulesToGiveIt(CapturedOutput output) {
		assertThatThrownBy(() -> start(secured("qs.redis.namespace=other:")))
			.hasRootCauseInstanceOf(RedisCommandExecutionException.class);

		assertThat(output)
			.contains("refused the redis strategy's user qs a command: " + "RedisCommandExecutionException: NOPERM")
			.contains("Give that user the rules the service needs for its namespace other: (qs.redis.namespace): "
					+ "ACL SETUSER qs ~other:* &other:* " + String.join(" ", LocalRedis.USER_RULES.subList(2, 5)));
	}

	@Test
	void securedRedis_itsCertificateNotTrusted_theBundleToTrustIt(CapturedOutput output) {
		assertThatThrownBy(() -> start(secured("spring.data.redis.ssl.bundle=")))
			.hasRootCauseInstanceOf(CertPathBuilderException.class);

		assertThat(output)
			.contains("The redis strategy's TLS handshake with Redis at 127.0.0.1:" + LocalRedis.secured().tlsPort()
					+ " (spring.data.redis.host and spring.data.redis.port) failed: " + "SunCertPathBuilderException")
			.contains("If Redis there speaks TLS, trust its certificate: spring.data.redis.ssl.bundle=NAME");
	}

	@Test
	void securedRedis_noTls_itHangsUp_turnTlsOn(CapturedOutput output) {
		assertThatThrownBy(() -> start(secured("spring.data.redis.ssl.enabled=false")))
			.hasRootCauseInstanceOf(SocketException.class);

		assertThat(output).contains("could not connect to Redis at 127.0.0.1:" + LocalRedis.secured().tlsPort())
			.contains("If that is it, set spring.data.redis.ssl.enabled=true");
	}

	/**
	 * The arguments {@link OnSecuredRedis} gives, then {@code overrides}
	 * ({@code name=value}, replacing the same name's: given twice, Spring would read
	 * both, joined by a comma).
	 */
	private static String[] secured(String... overrides) {
		Map<String, String> properties = new LinkedHashMap<>(OnSecuredRedis.Initializer.properties());
		for (String override : overrides) {
			String[] nameValue = override.split("=", 2);
			properties.put(nameValue[0], nameValue[1]);
		}
		return properties.entrySet()
			.stream()
			.map((property) -> "--" + property.getKey() + "=" + property.getValue())
			.toArray(String[]::new);
	}

	private static void start(String... args) {
		List<String> all = new ArrayList<>(List.of("--server.port=0"));
		all.addAll(List.of(args));
		new SpringApplicationBuilder(QueueServiceApplication.class).profiles("redis")
			.run(all.toArray(String[]::new))
			.close();
	}

	/**
	 * The chain Spring throws when a bean cannot connect: Spring Data Redis's translation
	 * of Lettuce's exception, inside the bean's creation failure.
	 */
	private static FailureAnalysis analyze(MockEnvironment environment) {
		Exception refused = new BeanCreationException("explicitQueues",
				new RedisConnectionFailureException("Unable to connect to Redis",
						new RedisConnectionException("Unable to connect to localhost/<unresolved>:6379",
								new ConnectException("Connection refused"))));
		return new RedisConnectionFailureAnalyzer(environment).analyze(refused);
	}

}
