package io.github.qsbench.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import io.github.qsbench.QueueServiceApplication;
import io.github.qsbench.application.QueueOperations;
import io.github.qsbench.core.TestCores;
import io.github.qsbench.web.HttpClientSupport;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Three service instances on one Redis serve the same queues: a message pushed through
 * one is polled through another and completed through the third, a lease token from one
 * is honoured (and a stale one refused) by all, a long poll on one is woken by a push
 * through another, and a load spread over two instances loses and duplicates nothing. Run
 * on a standalone Redis and on a cluster of three masters.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(RedisInstancesHttpTests.Topology.class)
@Timeout(120)
class RedisInstancesHttpTests {

	/** Where the instances keep their queues. */
	enum Topology {

		STANDALONE, CLUSTER;

		String[] connection() {
			if (this == CLUSTER) {
				return new String[] {
						"--spring.data.redis.cluster.nodes=" + String.join(",", LocalRedisCluster.shared3().nodes()) };
			}
			LocalRedis redis = LocalRedis.shared();
			return new String[] { "--spring.data.redis.host=" + redis.host(),
					"--spring.data.redis.port=" + redis.port() };
		}

	}

	private static final Map<Topology, List<ConfigurableApplicationContext>> instances = new EnumMap<>(Topology.class);

	@Parameter
	Topology topology;

	/** The three instances of this topology, started on first use, in one namespace. */
	private List<ConfigurableApplicationContext> contexts() {
		synchronized (instances) {
			return instances.computeIfAbsent(this.topology, RedisInstancesHttpTests::start);
		}
	}

	private List<HttpClientSupport> clients() {
		return contexts().stream()
			.map(context -> new HttpClientSupport(((WebServerApplicationContext) context).getWebServer().getPort()))
			.toList();
	}

	private static List<ConfigurableApplicationContext> start(Topology topology) {
		String namespace = TestCores.newNamespace();
		List<ConfigurableApplicationContext> started = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			List<String> args = new ArrayList<>(
					List.of("--server.port=0", "--qs.redis.namespace=" + namespace, "--qs.lease-timeout=30s"));
			args.addAll(List.of(topology.connection()));
			started.add(new SpringApplicationBuilder(QueueServiceApplication.class).profiles("redis")
				.run(args.toArray(String[]::new)));
		}
		return started;
	}

	@AfterAll
	static void stopInstances() {
		synchronized (instances) {
			instances.values().forEach(started -> started.forEach(ConfigurableApplicationContext::close));
			instances.clear();
		}
	}

	@Test
	void pushedThroughOne_polledThroughAnother_completedThroughTheThird() {
		List<HttpClientSupport> http = clients();
		String queue = "across-" + this.topology;
		long id = JsonPath.parse(http.get(0).post("/queues/" + queue + "/messages", "hello").body())
			.read("$.id", Long.class);

		HttpResponse<String> polled = http.get(1).get("/queues/" + queue + "/messages");
		DocumentContext json = JsonPath.parse(polled.body());
		assertThat(json.read("$.id", Long.class)).isEqualTo(id);
		assertThat(json.read("$.body", String.class)).isEqualTo("hello");
		String lease = json.read("$.lease", String.class);

		assertThat(http.get(0).get("/queues/" + queue + "/messages").statusCode()).as("leased through the other")
			.isEqualTo(204);
		assertThat(http.get(2).deleteIfMatch("/queues/" + queue + "/messages/" + id, "\"" + lease + "\"").statusCode())
			.isEqualTo(204);
		assertThat(http.get(1).delete("/queues/" + queue + "/messages/" + id).statusCode()).as("completed once")
			.isEqualTo(404);
		assertThat(http.get(0).get("/queues/" + queue).statusCode()).as("gone from every instance").isEqualTo(404);
	}

	@Test
	void staleLease_refusedByEveryInstance() {
		List<HttpClientSupport> http = clients();
		String queue = "stale-" + this.topology;
		long id = JsonPath.parse(http.get(0).post("/queues/" + queue + "/messages", "x").body())
			.read("$.id", Long.class);
		String first = JsonPath.parse(http.get(0).get("/queues/" + queue + "/messages?lease=0").body())
			.read("$.lease", String.class);
		String second = JsonPath.parse(http.get(1).get("/queues/" + queue + "/messages").body())
			.read("$.lease", String.class);

		assertThat(second).isNotEqualTo(first);
		for (HttpClientSupport instance : http) {
			assertThat(instance.deleteIfMatch("/queues/" + queue + "/messages/" + id, "\"" + first + "\"").statusCode())
				.isEqualTo(412);
		}
		assertThat(http.get(2).deleteIfMatch("/queues/" + queue + "/messages/" + id, "\"" + second + "\"").statusCode())
			.isEqualTo(204);
	}

	@Test
	void longPollOnOne_wokenByAPushThroughAnother() throws Exception {
		List<HttpClientSupport> http = clients();
		String queue = "wake-" + this.topology;
		CompletableFuture<HttpResponse<String>> waiting = http.get(1)
			.sendAsync("/queues/" + queue + "/messages?wait=20");
		QueueOperations second = contexts().get(1).getBean(QueueOperations.class);
		await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(10))
			.until(() -> second.waiting().getOrDefault(queue, 0) == 1);

		http.get(0).post("/queues/" + queue + "/messages", "wake up");

		HttpResponse<String> answered = waiting.get(10, TimeUnit.SECONDS);
		assertThat(answered.statusCode()).as("woken long before its 20 s wait ends").isEqualTo(200);
		assertThat(JsonPath.parse(answered.body()).read("$.body", String.class)).isEqualTo("wake up");
	}

	/**
	 * Producers push through two instances, consumers poll through both and complete each
	 * message through the instance it did not poll: every message delivered once and
	 * completed once (leases of 30 s do not lapse in this run).
	 */
	@Test
	void loadOverTwoInstances_nothingLostNothingDuplicated() throws Exception {
		List<HttpClientSupport> http = clients();
		String queue = "load-" + this.topology;
		int producers = 4;
		int perProducer = 250;
		int total = producers * perProducer;
		Map<Long, AtomicInteger> deliveries = new ConcurrentHashMap<>();
		AtomicInteger completed = new AtomicInteger();
		ExecutorService threads = Executors.newFixedThreadPool(8);
		try {
			List<Future<?>> work = new ArrayList<>();
			for (int p = 0; p < producers; p++) {
				HttpClientSupport through = http.get(p % 2);
				work.add(threads.submit(() -> {
					for (int i = 0; i < perProducer; i++) {
						assertThat(through.post("/queues/" + queue + "/messages", "m").statusCode()).isEqualTo(201);
					}
				}));
			}
			for (int c = 0; c < 4; c++) {
				HttpClientSupport polling = http.get(c % 2);
				HttpClientSupport completing = http.get((c + 1) % 2);
				work.add(threads.submit(() -> {
					while (completed.get() < total) {
						HttpResponse<String> polled = polling.get("/queues/" + queue + "/messages?wait=1");
						if (polled.statusCode() == 204) {
							continue;
						}
						DocumentContext json = JsonPath.parse(polled.body());
						long id = json.read("$.id", Long.class);
						deliveries.computeIfAbsent(id, any -> new AtomicInteger()).incrementAndGet();
						String lease = json.read("$.lease", String.class);
						if (completing.deleteIfMatch("/queues/" + queue + "/messages/" + id, "\"" + lease + "\"")
							.statusCode() == 204) {
							completed.incrementAndGet();
						}
					}
				}));
			}
			for (Future<?> done : work) {
				done.get(100, TimeUnit.SECONDS);
			}
		}
		finally {
			threads.shutdownNow();
		}
		assertThat(completed.get()).as("each completed once").isEqualTo(total);
		assertThat(deliveries).as("each delivered").hasSize(total);
		assertThat(deliveries.values()).as("none delivered twice").allMatch(count -> count.get() == 1);
		assertThat(http.get(2).get("/queues/" + queue).statusCode()).isEqualTo(404);
	}

}
