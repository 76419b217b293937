package io.github.qsbench.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.jayway.jsonpath.JsonPath;
import io.github.qsbench.QueueServiceApplication;
import io.github.qsbench.application.messages.LongPolls;
import io.github.qsbench.core.MutableClock;
import io.github.qsbench.core.TestCores;
import io.github.qsbench.http.HttpClientSupport;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;

/**
 * The redis strategy on Redis Sentinel, connected by Spring Boot's own
 * {@code spring.data.redis.sentinel.*} properties: it serves as on one Redis, and follows
 * a failover by itself. On a failover the Sentinel demotes the old master and drops its
 * clients; the service's connections ask the Sentinel again and reach the new master,
 * where every message acknowledged before is, ready, leased or completed as it was. Run
 * plain, and {@link Setup#SECURED secured} as managed services run Sentinel.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(RedisSentinelHttpTests.Setup.class)
@Timeout(120)
class RedisSentinelHttpTests {

	/** How the servers and the Sentinel are reached. */
	enum Setup {

		PLAIN,

		/**
		 * Everything over TLS, the service as {@link LocalRedis#USER}, the Sentinel and
		 * the replication as a user of their own
		 * ({@link LocalRedisSentinel#startSecured()}).
		 */
		SECURED

	}

	@Parameter
	Setup setup;

	private LocalRedisSentinel sentinel;

	private ConfigurableApplicationContext service;

	private final MutableClock clock = new MutableClock();

	@BeforeEach
	void start() {
		this.sentinel = (this.setup == Setup.SECURED) ? LocalRedisSentinel.startSecured() : LocalRedisSentinel.start();
		List<String> args = new ArrayList<>(List.of("--server.port=0", "--qs.lease-timeout=30s",
				// under qs:, the keys the secured servers' user may touch
				"--qs.redis.namespace=qs:" + TestCores.newNamespace(),
				"--spring.data.redis.sentinel.master=" + LocalRedisSentinel.MASTER,
				"--spring.data.redis.sentinel.nodes=" + this.sentinel.nodes()));
		if (this.setup == Setup.SECURED) {
			OnSecuredRedis.Initializer.credentials().forEach((name, value) -> args.add("--" + name + "=" + value));
		}
		this.service = new SpringApplicationBuilder(QueueServiceApplication.class).profiles("redis")
			.initializers((context) -> ((GenericApplicationContext) context).registerBean(MutableClock.class,
					() -> this.clock, (definition) -> definition.setPrimary(true)))
			.run(args.toArray(String[]::new));
	}

	/** The service first, then the servers it is connected to; either may be null. */
	@AfterEach
	void stop() {
		try (LocalRedisSentinel closedLast = this.sentinel; ConfigurableApplicationContext closedFirst = this.service) {
			// closed in reverse order
		}
	}

	/**
	 * 40 pushed before the failover: 10 completed, 10 leased and 20 ready. After it, 20
	 * more pushed, a long poll woken by a push, and the whole queue drained once the
	 * leases lapse: every message acknowledged is delivered, none twice but the 10 whose
	 * lease lapsed, and none of the 10 completed comes back.
	 */
	@Test
	void aFailover_followed_everyAcknowledgedMessageKept() throws Exception {
		HttpClientSupport http = http();
		List<Long> pushed = new ArrayList<>();
		for (int i = 0; i < 40; i++) {
			pushed.add(push(http, "before-" + i));
		}
		List<Long> completed = new ArrayList<>();
		for (int i = 0; i < 10; i++) {
			long id = poll(http);
			assertThat(http.delete("/queues/ha/messages/" + id).statusCode()).isEqualTo(204);
			completed.add(id);
		}
		List<Long> leased = new ArrayList<>();
		for (int i = 0; i < 10; i++) {
			leased.add(poll(http));
		}
		LocalRedis before = this.sentinel.master();
		awaitReplicaInSync(before);

		LocalRedis after = this.sentinel.failover();

		assertThat(after).isNotSameAs(before);
		await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> http.post("/queues/probe/messages", "after the failover").statusCode() == 201);
		for (int i = 0; i < 20; i++) {
			pushed.add(push(http, "after-" + i));
		}
		CompletableFuture<HttpResponse<String>> waiting = http.sendAsync("/queues/woken/messages?wait=20");
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.service.getBean(LongPolls.class).waiting().getOrDefault("woken", 0) == 1);
		http.post("/queues/woken/messages", "wake up");
		assertThat(JsonPath.<String>read(waiting.get(10, TimeUnit.SECONDS).body(), "$.body")).isEqualTo("wake up");

		this.clock.advance(Duration.ofSeconds(31));
		Map<Long, Integer> deliveries = new HashMap<>();
		for (HttpResponse<String> polled = http.get("/queues/ha/messages"); polled.statusCode() == 200; polled = http
			.get("/queues/ha/messages")) {
			long id = JsonPath.parse(polled.body()).read("$.id", Long.class);
			deliveries.merge(id, JsonPath.parse(polled.body()).read("$.deliveries", Integer.class), Math::max);
			assertThat(http.delete("/queues/ha/messages/" + id).statusCode()).isEqualTo(204);
		}
		List<Long> expected = new ArrayList<>(pushed);
		expected.removeAll(completed);
		assertThat(deliveries.keySet()).as("every acknowledged message not completed, once")
			.containsExactlyInAnyOrderElementsOf(expected);
		leased.forEach(
				(id) -> assertThat(deliveries.get(id)).as("a lease that lapsed: its second delivery").isEqualTo(2));
		assertThat(after.cli("INFO", "replication")).contains("role:master");
	}

	/**
	 * Writes acknowledged by the master reach the replica asynchronously: a failover
	 * before they do would lose them, which is Redis's replication, not the service.
	 */
	private static void awaitReplicaInSync(LocalRedis master) {
		await().atMost(Duration.ofSeconds(10)).until(() -> {
			String replication = master.cli("INFO", "replication");
			String offset = field(replication, "master_repl_offset");
			return replication.contains("offset=" + offset + ",");
		});
	}

	private static String field(String info, String name) {
		for (String line : info.split("\r?\n")) {
			if (line.startsWith(name + ":")) {
				return line.substring(name.length() + 1).strip();
			}
		}
		throw new IllegalStateException("No " + name + " in " + info);
	}

	private static long push(HttpClientSupport http, String body) {
		HttpResponse<String> response = http.post("/queues/ha/messages", body);
		assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
		return JsonPath.parse(response.body()).read("$.id", Long.class);
	}

	private static long poll(HttpClientSupport http) {
		HttpResponse<String> response = http.get("/queues/ha/messages");
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return JsonPath.parse(response.body()).read("$.id", Long.class);
	}

	private HttpClientSupport http() {
		return new HttpClientSupport(((WebServerApplicationContext) this.service).getWebServer().getPort());
	}

}
