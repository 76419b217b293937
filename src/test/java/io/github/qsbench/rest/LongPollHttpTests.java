package io.github.qsbench.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;

import io.github.qsbench.application.messages.LongPolls;
import io.github.qsbench.http.ClockedHttpTestBase;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

/**
 * Long polls over HTTP: a push wakes a waiting poll at once, a wait with nothing ends in
 * 204, and a thousand waiters hold no thread each. Waits are real time here (the
 * service's clock only decides leases), so each wait that runs out is kept to a second. A
 * waiter holds a connection, so the thousand need more than the service's default
 * {@code server.jetty.max-connections} (which bounds how many can wait).
 */
@TestPropertySource(properties = { "qs.lease-timeout=30s",
		"server.jetty.threads.max=" + LongPollHttpTests.REQUEST_THREADS, "server.jetty.max-connections=1100" })
class LongPollHttpTests extends ClockedHttpTestBase {

	/** Far fewer request threads than waiters: each waiter must not hold one. */
	static final int REQUEST_THREADS = 16;

	@Autowired
	LongPolls longPolls;

	ExecutorService clientThreads;

	HttpClient client;

	@BeforeEach
	void client() {
		this.clientThreads = Executors.newFixedThreadPool(2);
		this.client = HttpClient.newBuilder().executor(this.clientThreads).build();
	}

	@AfterEach
	void stopClient() {
		this.clientThreads.shutdownNow();
	}

	@Test
	void push_wakesWaiterAtOnce() throws Exception {
		long started = System.nanoTime();
		CompletableFuture<HttpResponse<String>> waiting = getAsync("/queues/lp-wake/messages?wait=10");
		awaitLongPolls("lp-wake", 1);

		long pushed = System.nanoTime();
		long id = JsonPath.parse(this.http.post("/queues/lp-wake/messages", "wake up").body()).read("$.id", Long.class);
		HttpResponse<String> response = waiting.get(10, TimeUnit.SECONDS);
		long answered = System.nanoTime();

		assertThat(response.statusCode()).isEqualTo(200);
		DocumentContext json = JsonPath.parse(response.body());
		assertThat(json.read("$.id", Long.class)).isEqualTo(id);
		assertThat(json.read("$.body", String.class)).isEqualTo("wake up");
		assertThat(response.headers().firstValue("ETag")).hasValue("\"" + json.read("$.lease", String.class) + "\"");
		Duration wakeUp = Duration.ofNanos(answered - pushed);
		System.out.printf("long poll: answered %d ms after the push was sent%n", wakeUp.toMillis());
		assertThat(wakeUp).isLessThan(Duration.ofSeconds(2));
		assertThat(Duration.ofNanos(answered - started)).as("woken, long before its 10 s wait ended")
			.isLessThan(Duration.ofSeconds(5));
		assertThat(this.longPolls.waiting()).doesNotContainKey("lp-wake");
	}

	@Test
	void batchPush_wakesWaiterWithMax() throws Exception {
		CompletableFuture<HttpResponse<String>> waiting = getAsync("/queues/lp-max/messages?max=5&wait=10");
		awaitLongPolls("lp-max", 1);

		this.http.send("/queues/lp-max/messages/batch", "POST",
				BodyPublishers.ofString("{\"messages\":[\"a\",\"b\",\"c\"]}"), "application/json");
		HttpResponse<String> response = waiting.get(5, TimeUnit.SECONDS);

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(JsonPath.parse(response.body()).read("$.messages[*].body", List.class)).containsExactly("a", "b",
				"c");
	}

	@Test
	void waitEnds_noContent() throws Exception {
		long started = System.nanoTime();

		HttpResponse<String> response = getAsync("/queues/lp-empty/messages?wait=1").get(10, TimeUnit.SECONDS);

		Duration waited = Duration.ofNanos(System.nanoTime() - started);
		assertThat(response.statusCode()).isEqualTo(204);
		assertThat(waited).isBetween(Duration.ofMillis(900), Duration.ofSeconds(5));
		assertThat(this.longPolls.waiting()).doesNotContainKey("lp-empty");
	}

	@Test
	void readyAlready_orWaitZero_answersAtOnce() {
		this.http.post("/queues/lp-ready/messages", "ready");

		HttpResponse<String> ready = this.http.get("/queues/lp-ready/messages?wait=20");
		HttpResponse<String> none = this.http.get("/queues/lp-ready/messages?wait=0");

		assertThat(ready.statusCode()).isEqualTo(200);
		assertThat(JsonPath.parse(ready.body()).read("$.body", String.class)).isEqualTo("ready");
		assertThat(none.statusCode()).isEqualTo(204);
	}

	@Test
	void pushToAnotherQueue_doesNotAnswer() throws Exception {
		CompletableFuture<HttpResponse<String>> waiting = getAsync("/queues/lp-mine/messages?wait=1");
		awaitLongPolls("lp-mine", 1);

		this.http.post("/queues/lp-other/messages", "not yours");

		assertThat(waiting.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(204);
		assertThat(this.http.get("/queues/lp-other/messages").statusCode()).isEqualTo(200);
	}

	@Test
	void leaseLapsedDuringWait_deliveredWhenWaitEnds() throws Exception {
		this.http.post("/queues/lp-lapse/messages", "again");
		assertThat(this.http.get("/queues/lp-lapse/messages").statusCode()).isEqualTo(200);
		CompletableFuture<HttpResponse<String>> waiting = getAsync("/queues/lp-lapse/messages?wait=1");
		awaitLongPolls("lp-lapse", 1);

		this.clock.advance(Duration.ofSeconds(30));

		HttpResponse<String> response = waiting.get(10, TimeUnit.SECONDS);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(JsonPath.parse(response.body()).read("$.deliveries", Integer.class)).isEqualTo(2);
	}

	@Test
	void head_withWait_leasesNothing() {
		this.http.post("/queues/lp-head/messages", "look only");

		assertThat(
				this.http.send("/queues/lp-head/messages?wait=1", "HEAD", BodyPublishers.noBody(), null).statusCode())
			.isEqualTo(200);
		assertThat(this.http.get("/queues/lp-head/messages").statusCode()).isEqualTo(200);
	}

	/**
	 * A thousand long polls wait on a few threads, and 1000 pushed messages (10 batches
	 * of 100) reach them one each, none twice.
	 */
	@Test
	void thousandWaiters_fewThreads_eachGetsOneDistinctMessage() throws Exception {
		int waiters = 1000;
		int before = ManagementFactory.getThreadMXBean().getThreadCount();
		List<CompletableFuture<HttpResponse<String>>> polls = new ArrayList<>();
		for (int i = 0; i < waiters; i++) {
			polls.add(getAsync("/queues/lp-thousand/messages?wait=20"));
		}
		awaitLongPolls("lp-thousand", waiters);
		int threads = ManagementFactory.getThreadMXBean().getThreadCount();
		System.out.printf(
				"long poll: %d waiters on %d request threads; live threads in this JVM "
						+ "(servers and client): %d before, %d while they wait%n",
				waiters, REQUEST_THREADS, before, threads);
		assertThat(threads - before).as("threads added while %d long polls wait", waiters).isLessThan(50);

		long pushing = System.nanoTime();
		for (int batch = 0; batch < 10; batch++) {
			int first = batch * 100;
			String bodies = IntStream.range(first, first + 100)
				.mapToObj(i -> "\"m" + i + "\"")
				.collect(Collectors.joining(","));
			assertThat(this.http
				.send("/queues/lp-thousand/messages/batch", "POST",
						BodyPublishers.ofString("{\"messages\":[" + bodies + "]}"), "application/json")
				.statusCode()).isEqualTo(201);
		}
		CompletableFuture.allOf(polls.toArray(CompletableFuture[]::new)).get(15, TimeUnit.SECONDS);
		System.out.printf("long poll: all %d answered %d ms after the first batch push%n", waiters,
				Duration.ofNanos(System.nanoTime() - pushing).toMillis());

		Set<String> bodies = new HashSet<>();
		for (CompletableFuture<HttpResponse<String>> poll : polls) {
			HttpResponse<String> response = poll.join();
			assertThat(response.statusCode()).isEqualTo(200);
			bodies.add(JsonPath.parse(response.body()).read("$.body", String.class));
		}
		assertThat(bodies).as("every waiter got a distinct message").hasSize(waiters);
		assertThat(this.http.get("/queues/lp-thousand/messages").statusCode()).as("none left over").isEqualTo(204);
		assertThat(this.longPolls.waiting()).doesNotContainKey("lp-thousand");
	}

	private CompletableFuture<HttpResponse<String>> getAsync(String path) {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.timeout(Duration.ofSeconds(30))
			.build();
		return this.client.sendAsync(request, BodyHandlers.ofString());
	}

}
