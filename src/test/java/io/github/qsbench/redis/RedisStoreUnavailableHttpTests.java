package io.github.qsbench.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.time.Duration;

import com.jayway.jsonpath.JsonPath;
import io.github.qsbench.QueueServiceApplication;
import io.github.qsbench.core.MutableClock;
import io.github.qsbench.core.TestCores;
import io.github.qsbench.http.HttpClientSupport;
import io.github.qsbench.sqs.SqsClients;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.SqsException;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;

/**
 * A Redis that refuses writes, as a master does with fewer in-sync replicas than its
 * {@code min-replicas-to-write} (a failover's old master, once its replica is promoted):
 * every request that writes is answered {@code 503} with {@code Retry-After}, a problem
 * on the REST API (its hot routes and Spring MVC alike) and {@code ServiceUnavailable} on
 * the SQS face, which the AWS SDKs retry; nothing of the refused requests is stored, and
 * once Redis takes writes again the service serves as before.
 */
@Timeout(60)
class RedisStoreUnavailableHttpTests {

	private static final Duration LEASE = Duration.ofSeconds(30);

	private static final MutableClock clock = new MutableClock();

	private static LocalRedis redis;

	private static ConfigurableApplicationContext service;

	@BeforeAll
	static void start() {
		redis = LocalRedis.start();
		service = new SpringApplicationBuilder(QueueServiceApplication.class).profiles("redis")
			.initializers((context) -> ((GenericApplicationContext) context).registerBean(MutableClock.class,
					() -> clock, (definition) -> definition.setPrimary(true)))
			.run("--server.port=0", "--qs.lease-timeout=" + LEASE.toSeconds() + "s",
					"--qs.redis.namespace=" + TestCores.newNamespace(), "--spring.data.redis.host=" + redis.host(),
					"--spring.data.redis.port=" + redis.port());
	}

	@AfterAll
	static void stop() {
		if (service != null) {
			service.close();
		}
		if (redis != null) {
			redis.close();
		}
	}

	@AfterEach
	void takeWrites() {
		redis.cli("CONFIG", "SET", "min-replicas-to-write", "0");
	}

	@Test
	void writesRefused_503WithRetryAfter_nothingStored_thenServedAgain() {
		HttpClientSupport http = http();
		long before = JsonPath.parse(http.post("/queues/q/messages", "before").body()).read("$.id", Long.class);
		refuseWrites();

		assertUnavailable(http.post("/queues/q/messages", "refused"));
		assertUnavailable(http.send("/queues/q/messages", "POST", BodyPublishers.ofString("refused through MVC"),
				"text/plain", "Accept", "application/json, */*"));
		assertUnavailable(http.get("/queues/q/messages"));
		assertUnavailable(http.send("/queues/q/messages/batch", "POST",
				BodyPublishers.ofString("{\"messages\":[\"a\",\"b\"]}"), "application/json"));

		takeWrites();
		HttpResponse<String> polled = http.get("/queues/q/messages");
		assertThat(JsonPath.parse(polled.body()).read("$.id", Long.class)).isEqualTo(before);
		assertThat(JsonPath.<Integer>read(polled.body(), "$.deliveries")).isEqualTo(1);
		assertThat(http.get("/queues/q/messages").statusCode()).as("nothing else stored").isEqualTo(204);
		assertThat(http.post("/queues/q/messages", "after").statusCode()).isEqualTo(201);
	}

	@Test
	void writesRefused_sqsServiceUnavailable_thenSent() {
		try (SqsClient sqs = SqsClients.v2(port())) {
			String url = sqs.createQueue((create) -> create.queueName("refusing")).queueUrl();
			refuseWrites();

			assertThatExceptionOfType(SqsException.class)
				.isThrownBy(() -> sqs.sendMessage((send) -> send.queueUrl(url).messageBody("refused")))
				.satisfies((ex) -> {
					assertThat(ex.statusCode()).isEqualTo(503);
					assertThat(ex.awsErrorDetails().errorCode()).isEqualTo("ServiceUnavailable");
				});

			takeWrites();
			sqs.sendMessage((send) -> send.queueUrl(url).messageBody("sent"));
			assertThat(sqs.receiveMessage((receive) -> receive.queueUrl(url).maxNumberOfMessages(10)).messages())
				.singleElement()
				.satisfies((message) -> assertThat(message.body()).isEqualTo("sent"));
		}
	}

	/**
	 * A Redis that answers nothing (stopped, or a network that drops its packets) holds a
	 * request for the redis profile's command timeout, 5 s, not Lettuce's default minute:
	 * then 503. What Redis had read it still runs once it answers again, as the 503's
	 * detail says: the push answered so is stored, and the message the poll answered so
	 * leased comes back when that lease ends, delivered once more. Nothing is lost.
	 */
	@Test
	void stalled_503AfterTheCommandTimeout_whatRedisReadRunsAfter_nothingLost() {
		HttpClientSupport http = http();
		long before = JsonPath.parse(http.post("/queues/stalled/messages", "before").body()).read("$.id", Long.class);
		redis.stall();
		try {
			long start = System.nanoTime();
			HttpResponse<String> poll = http.get("/queues/stalled/messages");
			Duration waited = Duration.ofNanos(System.nanoTime() - start);
			assertThat(poll.statusCode()).as(poll.body()).isEqualTo(503);
			assertThat(JsonPath.<String>read(poll.body(), "$.detail"))
				.startsWith("The queue store did not answer in time");
			assertThat(waited).isBetween(Duration.ofSeconds(4), Duration.ofSeconds(9));
			assertThat(http.post("/queues/stalled/messages", "while stalled").statusCode()).isEqualTo(503);
		}
		finally {
			redis.resume();
		}

		HttpResponse<String> stored = http.get("/queues/stalled/messages");
		assertThat(JsonPath.<String>read(stored.body(), "$.body")).as(stored.body()).isEqualTo("while stalled");
		assertThat(http.get("/queues/stalled/messages").statusCode()).as("the first leased by the 503's poll")
			.isEqualTo(204);
		clock.advance(LEASE.plusSeconds(1));
		HttpResponse<String> back = http.get("/queues/stalled/messages");
		assertThat(JsonPath.parse(back.body()).read("$.id", Long.class)).isEqualTo(before);
		assertThat(JsonPath.<Integer>read(back.body(), "$.deliveries")).isEqualTo(2);
	}

	/** No replica, so every write is refused: {@code NOREPLICAS}. */
	private static void refuseWrites() {
		assertThat(redis.cli("CONFIG", "SET", "min-replicas-to-write", "1")).isEqualTo("OK");
	}

	private static void assertUnavailable(HttpResponse<String> response) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(503);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(response.headers().firstValue("Retry-After")).hasValue("1");
		assertThat(JsonPath.<String>read(response.body(), "$.title")).isEqualTo("Queue store unavailable");
		assertThat(JsonPath.<String>read(response.body(), "$.detail"))
			.isEqualTo("The queue store refused the request; retry. A push that failed so may have been stored, "
					+ "and be stored twice when retried; a poll may have leased a message, which comes back when its "
					+ "lease ends.");
	}

	private static int port() {
		return ((WebServerApplicationContext) service).getWebServer().getPort();
	}

	private static HttpClientSupport http() {
		return new HttpClientSupport(port());
	}

}
