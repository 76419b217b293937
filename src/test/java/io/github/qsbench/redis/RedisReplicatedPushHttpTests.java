package io.github.qsbench.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.jayway.jsonpath.JsonPath;
import io.github.qsbench.QueueServiceApplication;
import io.github.qsbench.application.fair.FairGroups;
import io.github.qsbench.application.fifo.FifoGroups;
import io.github.qsbench.core.ByIdOperation;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.TestCores;
import io.github.qsbench.http.HttpClientSupport;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@code qs.redis.replicas-to-acknowledge=1} on Redis Sentinel: a push is answered 201
 * only once the replica has it, so losing the master loses no push that was answered 201.
 * A push the replica does not acknowledge in time (it is stalled, SIGSTOP) is answered
 * 503: the master has it and serves it, but it was not acknowledged. Without the setting,
 * the pushes made while the replica is stalled are answered 201 and lost with the master.
 * Leases and completions wait for the replica as pushes do.
 */
@Timeout(120)
class RedisReplicatedPushHttpTests {

	private static final String QUEUE = "/queues/replicated/messages";

	private LocalRedisSentinel sentinel;

	private ConfigurableApplicationContext service;

	private HttpClientSupport http;

	@BeforeEach
	void start() {
		this.sentinel = LocalRedisSentinel.start();
		this.service = service("all");
		this.http = http(this.service);
	}

	/**
	 * A service on the Sentinel's master whose {@code acknowledged} writes wait for 1
	 * replica.
	 */
	private ConfigurableApplicationContext service(String acknowledged) {
		return new SpringApplicationBuilder(QueueServiceApplication.class).profiles("redis")
			.run("--server.port=0", "--qs.redis.namespace=" + TestCores.newNamespace(),
					"--qs.redis.replicas-to-acknowledge=1", "--qs.redis.replication-timeout=1s",
					"--qs.redis.acknowledged-writes=" + acknowledged,
					"--spring.data.redis.sentinel.master=" + LocalRedisSentinel.MASTER,
					"--spring.data.redis.sentinel.nodes=" + this.sentinel.nodes());
	}

	private static HttpClientSupport http(ConfigurableApplicationContext service) {
		return new HttpClientSupport(((WebServerApplicationContext) service).getWebServer().getPort());
	}

	/** The service first, then the servers it is connected to; either may be null. */
	@AfterEach
	void stop() {
		try (LocalRedisSentinel closedLast = this.sentinel; ConfigurableApplicationContext closedFirst = this.service) {
			// closed in reverse order
		}
	}

	/**
	 * A push, and a delayed one (the blocking path, where the push is asynchronous),
	 * while the replica is stalled: each answered 503 after the 1 s timeout; both kept by
	 * the master and served once the replica runs again.
	 */
	@Test
	void aStalledReplica_pushesAnswered503AfterTheTimeout_servedOnceItRuns() {
		LocalRedis replica = replica();
		replica.stall();
		HttpResponse<String> refused;
		HttpResponse<String> refusedDelayed;
		long start = System.nanoTime();
		try {
			refused = this.http.post(QUEUE, "unacknowledged");
			refusedDelayed = this.http.post(QUEUE + "?delay=1", "unacknowledged, delayed");
		}
		finally {
			replica.resume();
		}
		for (HttpResponse<String> response : List.of(refused, refusedDelayed)) {
			assertThat(response.statusCode()).as(response.body()).isEqualTo(503);
			assertThat(response.headers().firstValue("Retry-After")).hasValue("1");
		}
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(Duration.ofMillis(1800),
				Duration.ofSeconds(10));

		assertThat(this.http.post(QUEUE, "acknowledged").statusCode()).isEqualTo(201);
		assertThat(JsonPath.<List<String>>read(this.http.get(QUEUE + "?peek=10").body(), "$.messages[*].body"))
			.as("the master kept the pushes answered 503; the replica runs again")
			.containsExactlyInAnyOrder("unacknowledged", "unacknowledged, delayed", "acknowledged");
	}

	/**
	 * A lease and a completion while the replica is stalled: each answered 503 after the
	 * timeout, and each done by the master, which the replica gets once it runs again; a
	 * fair queue's group removal waits as a completion does.
	 */
	@Test
	void aStalledReplica_leasesAndCompletionsAnswered503_doneByTheMaster() {
		assertThat(this.http.post(QUEUE, "completed").statusCode()).isEqualTo(201);
		assertThat(this.http.post(QUEUE, "leased").statusCode()).isEqualTo(201);
		HttpResponse<String> polled = this.http.get(QUEUE);
		assertThat(JsonPath.<String>read(polled.body(), "$.body")).isEqualTo("completed");
		long id = JsonPath.parse(polled.body()).read("$.id", Long.class);
		LocalRedis replica = replica();
		replica.stall();
		HttpResponse<String> completion;
		HttpResponse<String> lease;
		try {
			completion = this.http.delete(QUEUE + "/" + id);
			lease = this.http.get(QUEUE);
		}
		finally {
			replica.resume();
		}
		for (HttpResponse<String> response : List.of(completion, lease)) {
			assertThat(response.statusCode()).as(response.body()).isEqualTo(503);
		}

		String peeked = this.http.get(QUEUE + "?peek=10").body();
		assertThat(JsonPath.<List<String>>read(peeked, "$.messages[*].body")).as("the master completed the first")
			.containsExactly("leased");
		assertThat(JsonPath.<List<String>>read(peeked, "$.messages[*].state")).as("and leased the second")
			.containsExactly("inflight");

		// and so does a fair queue's group removal, which follows a completion
		long grouped = JsonPath.parse(this.http.post(QUEUE + "?delay=60", "grouped").body()).read("$.id", Long.class);
		FairGroups fair = this.service.getBean(FifoGroups.class).fair();
		assertThat(fair.append("replicated", List.of("tenant"), new long[] { grouped })[0]).isTrue();
		replica.stall();
		try {
			assertThatThrownBy(() -> fair.remove("replicated", grouped))
				.isInstanceOf(ReplicationBarrier.NotReplicatedException.class);
		}
		finally {
			replica.resume();
		}
	}

	/**
	 * A queue's settings and a move task's start while the replica is stalled: each
	 * answered 503 after the timeout (a failover could undo them), and each kept by the
	 * master, which the replica gets once it runs again.
	 */
	@Test
	void aStalledReplica_settingsAndMoveTaskStartsAnswered503_keptByTheMaster() {
		assertThat(put("/queues/replicated-dlq", "{}").statusCode()).isEqualTo(201);
		assertThat(
				put("/queues/replicated", "{\"deadLetterQueue\":\"replicated-dlq\",\"maxDeliveries\":1}").statusCode())
			.isEqualTo(201);
		LocalRedis replica = replica();
		replica.stall();
		HttpResponse<String> settings;
		HttpResponse<String> moveTask;
		try {
			settings = put("/queues/replicated", "{\"leaseSeconds\":60}");
			moveTask = this.http.send("/queues/replicated-dlq/redrive", "POST", BodyPublishers.ofString("{}"),
					"application/json", "Prefer", "respond-async");
		}
		finally {
			replica.resume();
		}
		for (HttpResponse<String> response : List.of(settings, moveTask)) {
			assertThat(response.statusCode()).as(response.body()).isEqualTo(503);
		}
		assertThat(JsonPath.<Integer>read(this.http.get("/queues/replicated").body(), "$.settings.leaseSeconds"))
			.as("the master kept the change")
			.isEqualTo(60);
		assertThat(JsonPath.<List<String>>read(this.http.get("/queues/replicated-dlq/redrive/tasks").body(),
				"$.tasks[*].source"))
			.as("and the task")
			.containsExactly("replicated-dlq");
	}

	private HttpResponse<String> put(String path, String json) {
		return this.http.send(path, "PUT", BodyPublishers.ofString(json), "application/json");
	}

	/**
	 * With {@code qs.redis.acknowledged-writes=pushes}, while the replica is stalled: a
	 * lease and a completion are answered 200 and 204 (they waited, they would be 503, as
	 * above), and a push is still answered 503 after the timeout.
	 */
	@Test
	void pushesOnly_aStalledReplica_leasesAndCompletionsAnsweredAtOnce_pushes503() {
		try (ConfigurableApplicationContext pushesOnly = service("pushes")) {
			HttpClientSupport http = http(pushesOnly);
			assertThat(http.post(QUEUE, "completed").statusCode()).isEqualTo(201);
			assertThat(http.post(QUEUE, "leased").statusCode()).isEqualTo(201);
			long id = JsonPath.parse(http.get(QUEUE).body()).read("$.id", Long.class);
			LocalRedis replica = replica();
			replica.stall();
			HttpResponse<String> completion;
			HttpResponse<String> lease;
			HttpResponse<String> push;
			try {
				completion = http.delete(QUEUE + "/" + id);
				lease = http.get(QUEUE);
				push = http.post(QUEUE, "unacknowledged");
			}
			finally {
				replica.resume();
			}
			assertThat(completion.statusCode()).as(completion.body()).isEqualTo(204);
			assertThat(lease.statusCode()).as(lease.body()).isEqualTo(200);
			assertThat(JsonPath.<String>read(lease.body(), "$.body")).isEqualTo("leased");
			assertThat(push.statusCode()).as(push.body()).isEqualTo(503);

			// what finishes a push held until released waits too: a fair queue's group
			// entry, the end of the delay (a failover that undid either would hold the
			// message for a year)
			long held = JsonPath.parse(http.post(QUEUE + "?delay=60", "held").body()).read("$.id", Long.class);
			QueueServiceCore core = pushesOnly.getBean(QueueServiceCore.class);
			FairGroups fair = pushesOnly.getBean(FifoGroups.class).fair();
			replica.stall();
			try {
				assertThatThrownBy(() -> core.byId("replicated", held, ByIdOperation.END_DELAY))
					.isInstanceOf(ReplicationBarrier.NotReplicatedException.class);
				assertThatThrownBy(() -> fair.append("replicated", List.of("tenant"), new long[] { held }))
					.isInstanceOf(ReplicationBarrier.NotReplicatedException.class);
				assertThatCode(() -> fair.remove("replicated", held))
					.as("a group's removal follows a completion: answered at once")
					.doesNotThrowAnyException();
			}
			finally {
				replica.resume();
			}
		}
	}

	/**
	 * 10 pushes answered 201; then the replica stalls and the master drops its link (so
	 * nothing more reaches the replica, not even into its socket's buffer): 3 more pushes
	 * are answered 503. The master is killed (SIGKILL), the replica runs again and the
	 * Sentinel promotes it: each of the 10 is there, once, and the 3 are lost with the
	 * master. Without the setting the 3 are answered 201, and lost all the same. (The new
	 * master has no replica: it is browsed, which writes nothing; a lease would wait.)
	 */
	@Test
	void theMasterLost_everyPushAnswered201Kept() {
		List<String> acknowledged = new ArrayList<>();
		for (int i = 0; i < 10; i++) {
			assertThat(push("before-" + i, acknowledged)).isEqualTo(201);
		}
		LocalRedis master = this.sentinel.master();
		LocalRedis replica = replica();
		replica.stall();
		try {
			assertThat(master.cli("CLIENT", "KILL", "TYPE", "replica")).isEqualTo("1");
			for (int i = 0; i < 3; i++) {
				assertThat(push("while-stalled-" + i, acknowledged)).isEqualTo(503);
			}
			master.kill9();
		}
		finally {
			replica.resume();
		}

		await().atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(200))
			.until(() -> this.sentinel.master() == replica
					// a poll of an empty queue leases nothing, so it waits for no replica
					// (the new master has none)
					&& this.http.get("/queues/probe/messages").statusCode() == 204);
		assertThat(bodies()).as("every push answered 201, once; the 3 answered 503 lost with the master")
			.containsExactlyInAnyOrderElementsOf(acknowledged);
	}

	/** Pushes {@code body}, noted in {@code acknowledged} if answered 201. */
	private int push(String body, List<String> acknowledged) {
		HttpResponse<String> pushed = this.http.post(QUEUE, body);
		if (pushed.statusCode() == 201) {
			acknowledged.add(body);
		}
		return pushed.statusCode();
	}

	private LocalRedis replica() {
		LocalRedis master = this.sentinel.master();
		return this.sentinel.servers().stream().filter((server) -> server != master).findFirst().orElseThrow();
	}

	/** Every message of the queue, browsed, each id once. */
	private List<String> bodies() {
		String peeked = this.http.get(QUEUE + "?peek=100").body();
		assertThat(JsonPath.<List<Long>>read(peeked, "$.messages[*].id")).as("each message held once")
			.doesNotHaveDuplicates();
		return JsonPath.read(peeked, "$.messages[*].body");
	}

}
