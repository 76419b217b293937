package io.github.qsbench.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;

import io.github.qsbench.http.ClockedHttpTestBase;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.test.context.TestPropertySource;

/**
 * Delayed messages over HTTP: {@code delay=S} on a push (plain, JSON, batch) and a
 * queue's own {@code delaySeconds}; counted as delayed, browsed as delayed, polled only
 * when due, purged with the rest. Delays end because the test moves the service's clock;
 * a long poll's wake-up when a delay ends runs on real time, so that test uses one
 * second.
 */
@TestPropertySource(properties = "qs.lease-timeout=30s")
class DelayHttpTests extends ClockedHttpTestBase {

	@Test
	void delayedPushes_countedBrowsedAndPolledOnlyWhenDue() {
		assertThat(this.http.post("/queues/delay-rest/messages?delay=10", "plain").statusCode()).isEqualTo(201);
		assertThat(this.http
			.send("/queues/delay-rest/messages?delay=20", "POST", BodyPublishers.ofString("{\"body\":\"json\"}"),
					"application/json")
			.statusCode()).isEqualTo(201);
		assertThat(this.http
			.send("/queues/delay-rest/messages/batch?delay=30", "POST",
					BodyPublishers.ofString("{\"messages\":[\"b1\",\"b2\"]}"), "application/json")
			.statusCode()).isEqualTo(201);
		this.http.post("/queues/delay-rest/messages", "now");

		assertThat(view("delay-rest")).containsExactly(1, 0, 4);
		DocumentContext browsed = JsonPath.parse(this.http.get("/queues/delay-rest/messages?peek=10").body());
		assertThat(browsed.read("$.messages[?(@.state == 'delayed')].body", List.class)).hasSize(4);
		assertThat(take("delay-rest")).isEqualTo("now");
		assertThat(this.http.get("/queues/delay-rest/messages").statusCode()).isEqualTo(204);

		this.clock.advance(Duration.ofSeconds(10));
		assertThat(view("delay-rest")).containsExactly(1, 0, 3);
		assertThat(take("delay-rest")).isEqualTo("plain");
		this.clock.advance(Duration.ofSeconds(10));
		assertThat(take("delay-rest")).isEqualTo("json");
		this.clock.advance(Duration.ofSeconds(10));
		DocumentContext batch = JsonPath.parse(this.http.get("/queues/delay-rest/messages?max=10").body());
		assertThat(batch.read("$.messages[*].body", List.class)).containsExactly("b1", "b2");
	}

	@Test
	void queueDelay_appliesToEveryPush_andPurgeTakesDelayedToo() {
		assertThat(this.http
			.send("/queues/delay-own", "PUT", BodyPublishers.ofString("{\"delaySeconds\":60}"), "application/json")
			.statusCode()).isEqualTo(201);
		assertThat(JsonPath.parse(this.http.get("/queues/delay-own").body())
			.read("$.settings.delaySeconds", Integer.class)).isEqualTo(60);
		this.http.post("/queues/delay-own/messages", "the queue's delay");
		this.http.post("/queues/delay-own/messages?delay=0", "none asked");

		assertThat(view("delay-own")).containsExactly(1, 0, 1);
		assertThat(this.http.delete("/queues/delay-own/messages").statusCode()).isEqualTo(204);
		assertThat(view("delay-own")).as("purged, delayed ones too").containsExactly(0, 0, 0);
		this.clock.advance(Duration.ofSeconds(60));
		assertThat(this.http.get("/queues/delay-own/messages").statusCode()).isEqualTo(204);
	}

	/**
	 * The running service sweeps retention by itself, every second of real time; the
	 * messages' age is the service's clock, which the test moves a retention period at
	 * each look until a sweep has dropped the message.
	 */
	@Test
	void retention_runningServiceDropsExpiredMessages() {
		assertThat(this.http
			.send("/queues/retained", "PUT", BodyPublishers.ofString("{\"retentionSeconds\":60}"), "application/json")
			.statusCode()).isEqualTo(201);
		this.http.post("/queues/retained/messages", "too old soon");
		assertThat(view("retained")).containsExactly(1, 0, 0);

		await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
			this.clock.advance(Duration.ofSeconds(61));
			return view("retained").equals(List.of(0, 0, 0));
		});
		assertThat(this.http.get("/queues/retained/messages").statusCode()).isEqualTo(204);
	}

	@ParameterizedTest
	@ValueSource(strings = { "delay=901", "delay=-1", "delay=soon" })
	void delayOutOfRange_badRequest_nothingPushed(String query) {
		QueueApiHttpTests.assertProblem(this.http.post("/queues/delay-bad/messages?" + query, "x"), 400,
				"Invalid parameter");
		assertThat(this.http.get("/queues/delay-bad").statusCode()).isEqualTo(404);
	}

	@Test
	void longPoll_wokenWhenADelayEnds() throws Exception {
		CompletableFuture<HttpResponse<String>> waiting = this.http.sendAsync("/queues/delay-wake/messages?wait=20");
		long start = System.nanoTime();
		awaitLongPolls("delay-wake", 1);
		this.http.post("/queues/delay-wake/messages?delay=1", "due in a second");
		this.clock.advance(Duration.ofSeconds(1));

		HttpResponse<String> polled = waiting.get(15, TimeUnit.SECONDS);
		assertThat(body(polled)).isEqualTo("due in a second");
		assertThat(Duration.ofNanos(System.nanoTime() - start)).as("woken when due, not at the wait's end")
			.isLessThan(Duration.ofSeconds(10));
	}

	/** Ready, in flight, delayed, as {@code GET /queues/{queue}} shows them. */
	private List<Integer> view(String queue) {
		HttpResponse<String> response = this.http.get("/queues/" + queue);
		assertThat(response.statusCode()).isEqualTo(200);
		DocumentContext json = JsonPath.parse(response.body());
		return List.of(json.read("$.ready", Integer.class), json.read("$.inflight", Integer.class),
				json.read("$.delayed", Integer.class));
	}

	/** Polls one message and completes it, as a consumer does. */
	private String take(String queue) {
		HttpResponse<String> polled = this.http.get("/queues/" + queue + "/messages");
		String body = body(polled);
		long id = JsonPath.parse(polled.body()).read("$.id", Long.class);
		assertThat(this.http.delete("/queues/" + queue + "/messages/" + id).statusCode()).isEqualTo(204);
		return body;
	}

	private static String body(HttpResponse<String> polled) {
		assertThat(polled.statusCode()).isEqualTo(200);
		return JsonPath.parse(polled.body()).read("$.body", String.class);
	}

}
