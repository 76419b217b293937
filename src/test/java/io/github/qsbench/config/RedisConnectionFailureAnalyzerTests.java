package io.github.qsbench.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ConnectException;
import java.net.ServerSocket;

import io.github.qsbench.QueueServiceApplication;
import io.lettuce.core.RedisConnectionException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.mock.env.MockEnvironment;

/**
 * The redis strategy with no Redis to reach stops start-up with a few lines saying where
 * it tried, what failed, and how to start one.
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
