package io.github.qsbench.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

import io.github.qsbench.config.QueueServiceProperties;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.http.HttpTestBase;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

/**
 * Every endpoint and status over a real port with the default strategy. The body cap is
 * lowered to 1 KiB so the limit can be crossed cheaply; the default (1 MiB) is checked by
 * {@code QueueServicePropertiesTests}.
 */
@TestPropertySource(properties = "qs.max-message-size=1KB")
class QueueApiHttpTests extends HttpTestBase {

	private static final int CAP = 1024;

	@Autowired
	QueueServiceProperties properties;

	@Autowired
	QueueServiceCore core;

	@Test
	void push_created_withLocationAndId() {
		HttpResponse<String> response = this.http.post("/queues/push-test/messages", "hello");

		assertThat(response.statusCode()).isEqualTo(201);
		DocumentContext json = JsonPath.parse(response.body());
		long id = json.read("$.id", Long.class);
		assertThat(json.read("$.queue", String.class)).isEqualTo("push-test");
		assertThat(response.headers().firstValue("Location")).hasValue("/queues/push-test/messages/" + id);
		assertThat(response.headers().firstValue("Content-Type"))
			.hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
	}

	@Test
	void poll_deliversThenNoContent() {
		this.http.post("/queues/poll-test/messages", "héllo wörld");

		HttpResponse<String> polled = this.http.get("/queues/poll-test/messages");
		assertThat(polled.statusCode()).isEqualTo(200);
		DocumentContext json = JsonPath.parse(polled.body());
		assertThat(json.read("$.body", String.class)).isEqualTo("héllo wörld");
		assertThat(json.read("$.queue", String.class)).isEqualTo("poll-test");
		assertThat(json.read("$.deliveries", Integer.class)).isEqualTo(1);
		assertThat(json.read("$.id", Long.class)).isPositive();

		HttpResponse<String> empty = this.http.get("/queues/poll-test/messages");
		assertThat(empty.statusCode()).isEqualTo(204);
		assertThat(empty.body()).isEmpty();
	}

	@Test
	void poll_unknownQueue_noContent() {
		assertThat(this.http.get("/queues/never-pushed/messages").statusCode()).isEqualTo(204);
	}

	@Test
	void peek_showsStates_leasesNothing() {
		this.http.post("/queues/peek-test/messages", "first");
		this.http.post("/queues/peek-test/messages", "second");
		long held = JsonPath.parse(this.http.get("/queues/peek-test/messages").body()).read("$.id", Long.class);

		HttpResponse<String> peeked = this.http.get("/queues/peek-test/messages?peek=10");

		assertThat(peeked.statusCode()).isEqualTo(200);
		DocumentContext json = JsonPath.parse(peeked.body());
		assertThat(json.read("$.messages[?(@.id == " + held + ")].state", List.class)).containsExactly("inflight");
		assertThat(json.read("$.messages[?(@.body == 'second')].state", List.class)).containsExactly("ready");
		assertThat(json.read("$.messages[?(@.body == 'second')].deliveries", List.class)).containsExactly(0);
		assertThat(json.read("$.messages.length()", Integer.class)).isEqualTo(2);
		assertThat(JsonPath.parse(this.http.get("/queues/peek-test/messages").body()).read("$.body", String.class))
			.as("the browse leased nothing")
			.isEqualTo("second");
		assertThat(JsonPath.parse(this.http.get("/queues/peek-none/messages?peek=1").body())
			.read("$.messages.length()", Integer.class)).isZero();
		assertProblem(this.http.get("/queues/peek-test/messages?peek=0"), 400, "Invalid parameter");
		assertProblem(this.http.get("/queues/peek-test/messages?peek=101"), 400, "Invalid parameter");
		assertThat(JsonPath.parse(this.http.get("/queues/peek-test/messages?peek=1&wait=1&max=2").body())
			.read("$.messages[*].state", List.class)).as("a browse with wait answers at once, leasing nothing")
			.containsExactly("inflight");
		assertProblem(this.http.get("/queues/peek-test/messages?peek=1&max=-3"), 400, "Invalid parameter");
		assertProblem(this.http.get("/queues/peek-test/messages?peek=1&wait=21"), 400, "Invalid parameter");
		assertProblem(this.http.get("/queues/peek-test/messages?peek=1&lease=-1"), 400, "Invalid parameter");
	}

	@Test
	void fifoQueue_createdAsOne_groupsDeliveredInOrder_oneAtATime() {
		String settings = this.http
			.send("/queues/rest-orders.fifo", "PUT",
					BodyPublishers.ofString("{\"fifo\":true,\"contentBasedDeduplication\":true}"), "application/json")
			.body();
		assertThat(JsonPath.parse(settings).read("$.settings.fifo.deduplicationScope", String.class))
			.isEqualTo("queue");
		String first = pushFifo("a1", "a").body();
		pushFifo("a2", "a");
		pushFifo("b1", "b");
		assertThat(pushFifo("a1", "a").body()).as("deduplicated by content").isEqualTo(first);
		assertThat(JsonPath.parse(first).read("$.sequenceNumber", String.class)).hasSize(20);

		DocumentContext polled = JsonPath.parse(this.http.get("/queues/rest-orders.fifo/messages?max=10").body());
		assertThat(polled.read("$.messages[*].body", List.class)).containsExactly("a1", "b1");
		assertThat(polled.read("$.messages[0].group", String.class)).isEqualTo("a");
		assertThat(this.http.get("/queues/rest-orders.fifo/messages").statusCode()).as("a2 waits for a1")
			.isEqualTo(204);
		this.http.send("/queues/rest-orders.fifo/messages/" + polled.read("$.messages[0].id", Long.class), "DELETE",
				BodyPublishers.noBody(), null);
		assertThat(
				JsonPath.parse(this.http.get("/queues/rest-orders.fifo/messages").body()).read("$.body", String.class))
			.isEqualTo("a2");
		assertProblem(this.http.post("/queues/rest-orders.fifo/messages", "no group"), 400, "Message group required");
		assertProblem(
				this.http.send("/queues/never.fifo/messages", "POST",
						BodyPublishers.ofString("{\"body\":\"x\",\"group\":\"g\"}"), "application/json"),
				400, "No such FIFO queue");
	}

	private HttpResponse<String> pushFifo(String body, String group) {
		HttpResponse<String> pushed = this.http.send("/queues/rest-orders.fifo/messages", "POST",
				BodyPublishers.ofString("{\"body\":\"" + body + "\",\"group\":\"" + group + "\"}"), "application/json");
		assertThat(pushed.statusCode()).isEqualTo(201);
		return pushed;
	}

	@Test
	void pushJson_withAttributes_returnedByPollAndBrowse() {
		String message = """
				{"body":"order 42","attributes":{
				  "kind":{"type":"String","value":"order"},
				  "total":{"type":"Number","value":"12.50"},
				  "sig":{"type":"Binary","value":"AAH/"}}}""";
		HttpResponse<String> pushed = this.http.send("/queues/attr-test/messages", "POST",
				BodyPublishers.ofString(message), "application/json");
		assertThat(pushed.statusCode()).isEqualTo(201);
		this.http.post("/queues/attr-test/messages", "{\"looks\":\"like json, sent as text\"}");

		DocumentContext browsed = JsonPath.parse(this.http.get("/queues/attr-test/messages?peek=2").body());
		assertThat(browsed.read("$.messages[0].attributes.kind.value", String.class)).isEqualTo("order");
		DocumentContext polled = JsonPath.parse(this.http.get("/queues/attr-test/messages?max=2").body());
		assertThat(polled.read("$.messages[0].body", String.class)).isEqualTo("order 42");
		assertThat(polled.read("$.messages[0].attributes", Map.class)).containsOnlyKeys("kind", "total", "sig");
		assertThat(polled.read("$.messages[0].attributes.total.type", String.class)).isEqualTo("Number");
		assertThat(polled.read("$.messages[0].attributes.sig.value", String.class)).isEqualTo("AAH/");
		assertThat(polled.read("$.messages[1].body", String.class))
			.isEqualTo("{\"looks\":\"like json, sent as text\"}");
		assertThat(polled.read("$.messages[1]", Map.class)).as("no attributes, no field")
			.doesNotContainKey("attributes");

		assertProblem(this.http.send("/queues/attr-test/messages", "POST", BodyPublishers.ofString("{\"looks\":1}"),
				"application/json"), 400, "Invalid message");
		assertProblem(this.http.send("/queues/attr-test/messages", "POST",
				BodyPublishers
					.ofString("{\"body\":\"x\",\"attributes\":{\"n\":{\"type\":\"Number\",\"value\":\"ten\"}}}"),
				"application/json"), 400, "Invalid message attributes");
		assertProblem(this.http.send("/queues/attr-test/messages", "POST",
				BodyPublishers
					.ofString("{\"body\":\"x\",\"attributes\":{\"AWS.x\":{\"type\":\"String\",\"value\":\"v\"}}}"),
				"application/json"), 400, "Invalid message attributes");
		assertProblem(
				this.http.send("/queues/attr-test/messages", "POST",
						BodyPublishers.ofString("{\"body\":\"x\",\"attributes\":null}"), "application/json"),
				400, "Invalid message");
		assertThat(this.http.get("/queues/attr-test/messages").statusCode()).as("nothing refused was pushed")
			.isEqualTo(204);
	}

	@Test
	void batch_entriesWithAttributes() {
		String batch = """
				{"messages":["plain",{"body":"tagged","attributes":{"k":{"type":"String.custom","value":"v"}}}]}""";
		assertThat(this.http
			.send("/queues/attr-batch/messages/batch", "POST", BodyPublishers.ofString(batch), "application/json")
			.statusCode()).isEqualTo(201);

		DocumentContext polled = JsonPath.parse(this.http.get("/queues/attr-batch/messages?max=2").body());
		assertThat(polled.read("$.messages[*].body", List.class)).containsExactly("plain", "tagged");
		assertThat(polled.read("$.messages[1].attributes.k.type", String.class)).isEqualTo("String.custom");
		assertProblem(
				this.http.send("/queues/attr-batch/messages/batch", "POST",
						BodyPublishers.ofString("{\"messages\":[{\"body\":\"x\",\"extra\":1}]}"), "application/json"),
				400, "Invalid batch");
	}

	@Test
	void deadLetterQueue_namesItsSources() {
		assertThat(put("/queues/sources-dlq", "").statusCode()).isEqualTo(201);
		assertThat(JsonPath.parse(this.http.get("/queues/sources-dlq").body()).read("$", Map.class))
			.as("left out while no queue names it")
			.doesNotContainKey("deadLetterSources");
		assertThat(put("/queues/sources-b", "{\"maxDeliveries\":2,\"deadLetterQueue\":\"sources-dlq\"}").statusCode())
			.isEqualTo(201);
		assertThat(put("/queues/sources-a", "{\"maxDeliveries\":3,\"deadLetterQueue\":\"sources-dlq\"}").statusCode())
			.isEqualTo(201);

		DocumentContext shown = JsonPath.parse(this.http.get("/queues/sources-dlq").body());
		assertThat(shown.read("$.deadLetterSources", List.class)).as("by name")
			.containsExactly("sources-a", "sources-b");
		DocumentContext changed = JsonPath.parse(put("/queues/sources-dlq", "{\"delaySeconds\":1}").body());
		assertThat(changed.read("$.deadLetterSources", List.class)).as("a PUT answers the same view")
			.containsExactly("sources-a", "sources-b");
		assertThat(this.http.delete("/queues/sources-a").statusCode()).isEqualTo(204);
		assertThat(JsonPath.parse(this.http.get("/queues/sources-dlq").body()).read("$.deadLetterSources", List.class))
			.containsExactly("sources-b");
	}

	@Test
	void putSettings_deadLetter_redrive() {
		assertThat(put("/queues/http-dlq", "").statusCode()).isEqualTo(201);
		HttpResponse<String> created = put("/queues/http-src",
				"{\"maxDeliveries\":1,\"deadLetterQueue\":\"http-dlq\"}");
		assertThat(created.statusCode()).isEqualTo(201);
		DocumentContext view = JsonPath.parse(created.body());
		assertThat(view.read("$.explicit", Boolean.class)).isTrue();
		assertThat(view.read("$.settings.maxDeliveries", Integer.class)).isEqualTo(1);
		assertThat(view.read("$.settings.deadLetterQueue", String.class)).isEqualTo("http-dlq");
		assertThat(view.read("$.settings.leaseSeconds", Integer.class)).isEqualTo(30);
		assertThat(put("/queues/http-src", "{\"delaySeconds\":0}").statusCode()).as("changed").isEqualTo(200);
		DocumentContext shown = JsonPath.parse(this.http.get("/queues/http-dlq").body());
		assertThat(shown.read("$.ready", Integer.class)).as("an explicit queue exists while empty").isZero();
		assertThat(shown.read("$.delayed", Integer.class)).isZero();

		assertProblem(put("/queues/http-src", "{\"leaseSeconds\":43201}"), 400, "Invalid parameter");
		assertProblem(put("/queues/http-src", "{\"retentionSeconds\":59}"), 400, "Invalid parameter");
		assertProblem(put("/queues/http-src", "{\"maxDeliveries\":0,\"deadLetterQueue\":\"http-dlq\"}"), 400,
				"Invalid parameter");
		assertProblem(put("/queues/http-src", "{\"maxDeliveries\":2,\"deadLetterQueue\":\"http-none\"}"), 400,
				"Invalid dead-letter queue");
		assertProblem(put("/queues/http-src", "{\"maxDeliveries\":2}"), 400, "Invalid settings");
		assertProblem(put("/queues/http-src", "{\"colour\":\"red\"}"), 400, "Invalid settings");
		assertProblem(put("/queues/http-src", "[1]"), 400, "Invalid settings");
		DocumentContext redriven = JsonPath.parse(this.http.post("/queues/http-dlq/redrive", "").body());
		assertThat(redriven.read("$.moved", Integer.class)).as("nothing to move").isZero();
		assertProblem(this.http.send("/queues/http-dlq/redrive", "POST", BodyPublishers.ofString("{\"max\":0}"),
				"application/json"), 400, "Invalid redrive");
	}

	private HttpResponse<String> put(String path, String json) {
		return this.http.send(path, "PUT", BodyPublishers.ofString(json), "application/json");
	}

	@Test
	void purge_thenDeleteQueue() {
		this.http.post("/queues/purge-test/messages", "held");
		long held = JsonPath.parse(this.http.get("/queues/purge-test/messages").body()).read("$.id", Long.class);
		this.http.post("/queues/purge-test/messages", "ready");

		assertThat(this.http.delete("/queues/purge-test/messages").statusCode()).isEqualTo(204);

		assertProblem(this.http.get("/queues/purge-test"), 404, "No such queue");
		assertProblem(this.http.delete("/queues/purge-test/messages/" + held), 404, "No such message");
		assertThat(this.http.delete("/queues/never-pushed/messages").statusCode()).as("nothing to purge")
			.isEqualTo(204);

		this.http.post("/queues/purge-test/messages", "again");
		assertThat(this.http.delete("/queues/purge-test").statusCode()).isEqualTo(204);
		assertProblem(this.http.get("/queues/purge-test"), 404, "No such queue");
		assertProblem(this.http.delete("/queues/purge-test"), 404, "No such queue");
	}

	@Test
	void complete_thenAgain_noContentThenNotFound() {
		long id = this.http.roundTrip("complete-test", "x");

		assertProblem(this.http.delete("/queues/complete-test/messages/" + id), 404, "No such message");
	}

	@Test
	void complete_unknownIdOrOtherQueue_notFound() {
		long id = JsonPath.parse(this.http.post("/queues/owner/messages", "x").body()).read("$.id", Long.class);
		this.http.get("/queues/owner/messages");

		assertProblem(this.http.delete("/queues/other/messages/" + id), 404, "No such message");
		assertProblem(this.http.delete("/queues/owner/messages/" + (id + 1000)), 404, "No such message");
		assertThat(this.http.delete("/queues/owner/messages/" + id).statusCode()).isEqualTo(204);
	}

	@Test
	void complete_neverPolled_conflict() {
		long id = JsonPath.parse(this.http.post("/queues/unpolled/messages", "x").body()).read("$.id", Long.class);

		assertProblem(this.http.delete("/queues/unpolled/messages/" + id), 409, "Message not delivered");
		assertThat(this.http.get("/queues/unpolled/messages").statusCode()).as("still deliverable").isEqualTo(200);
	}

	@ParameterizedTest
	@ValueSource(strings = { "abc", "0", "-1", "01", "1.5", "9223372036854775808", "99999999999999999999" })
	void complete_malformedId_badRequest(String id) {
		assertProblem(this.http.delete("/queues/q/messages/" + id), 400, "Invalid message id");
	}

	@Test
	void queues_listNamesWithCounts() {
		this.http.post("/queues/list-a/messages", "1");
		this.http.post("/queues/list-a/messages", "2");
		this.http.get("/queues/list-a/messages");

		HttpResponse<String> all = this.http.get("/queues");
		assertThat(all.statusCode()).isEqualTo(200);
		assertThat(JsonPath.parse(all.body()).read("$.queues[?(@.name == 'list-a')].ready", int[].class))
			.containsExactly(1);

		HttpResponse<String> one = this.http.get("/queues/list-a");
		assertThat(one.statusCode()).isEqualTo(200);
		DocumentContext json = JsonPath.parse(one.body());
		assertThat(json.read("$.name", String.class)).isEqualTo("list-a");
		assertThat(json.read("$.ready", Integer.class)).isEqualTo(1);
		assertThat(json.read("$.inflight", Integer.class)).isEqualTo(1);
	}

	@Test
	void queues_createdQueueEmpty_listed() {
		assertThat(put("/queues/list-explicit", "").statusCode()).isEqualTo(201);

		DocumentContext all = JsonPath.parse(this.http.get("/queues").body());
		assertThat(all.read("$.queues[?(@.name == 'list-explicit')].ready", int[].class)).containsExactly(0);
		assertThat(all.read("$.queues[?(@.name == 'list-explicit')].inflight", int[].class)).containsExactly(0);
	}

	@Test
	void queue_unknown_notFound() {
		assertProblem(this.http.get("/queues/no-such-queue"), 404, "No such queue");
	}

	@ParameterizedTest
	@ValueSource(strings = { "bad.name", "caf%C3%A9", "sp%20ace", "a%2Fb",
			"123456789012345678901234567890123456789012345678901234567890123456789012345678901" })
	void everyEndpoint_badQueueName_badRequest(String name) {
		assertProblem(this.http.post("/queues/" + name + "/messages", "x"), 400, "Invalid queue name");
		assertProblem(this.http.get("/queues/" + name + "/messages"), 400, "Invalid queue name");
		assertProblem(this.http.delete("/queues/" + name + "/messages/1"), 400, "Invalid queue name");
		assertProblem(this.http.get("/queues/" + name), 400, "Invalid queue name");
	}

	@Test
	void queueName_80Characters_accepted() {
		String name = "a".repeat(40) + "Z9_-".repeat(10);
		assertThat(name).hasSize(80);

		this.http.roundTrip(name, "x");
	}

	@Test
	void push_emptyBody_badRequest() {
		assertProblem(this.http.post("/queues/q/messages", ""), 400, "Empty message");
	}

	@Test
	void push_bodyAtCap_createdAndOneByteOver_tooLarge() {
		assertThat(this.http.post("/queues/cap/messages", "x".repeat(CAP)).statusCode()).isEqualTo(201);

		assertProblem(this.http.post("/queues/cap/messages", "x".repeat(CAP + 1)), 413, "Message too large");
	}

	@Test
	void push_chunkedBodyOverCap_tooLarge() {
		byte[] body = new byte[CAP * 4];
		java.util.Arrays.fill(body, (byte) 'x');

		HttpResponse<String> response = this.http.send("/queues/cap/messages", "POST",
				BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body)), "text/plain");

		assertProblem(response, 413, "Message too large");
	}

	@Test
	void push_invalidUtf8_badRequest() {
		HttpResponse<String> response = this.http.send("/queues/q/messages", "POST",
				BodyPublishers.ofByteArray(new byte[] { 'o', 'k', (byte) 0xC3, (byte) 0x28 }), "text/plain");

		assertProblem(response, 400, "Invalid message body");
	}

	@Test
	void wrongMethod_methodNotAllowed() {
		HttpResponse<String> response = this.http.send("/queues/q/messages", "PUT", BodyPublishers.ofString("x"),
				"text/plain");

		assertProblem(response, 405, "Method Not Allowed");
		assertThat(response.headers().firstValue("Allow"))
			.hasValueSatisfying(allow -> assertThat(allow).contains("GET", "POST"));
	}

	/** The batch resources look like a message's id to DELETE and PATCH: still 405. */
	@ParameterizedTest
	@CsvSource({ "DELETE, batch", "PATCH, batch", "DELETE, completions", "PATCH, completions" })
	void batchResources_onlyPost(String method, String resource) {
		HttpResponse<String> response = this.http.send("/queues/q/messages/" + resource, method,
				BodyPublishers.ofString("{\"leaseSeconds\":1}"), "application/json", "If-Match", "*");

		assertProblem(response, 405, "Method Not Allowed");
		assertThat(response.headers().firstValue("Allow")).hasValue("POST");
	}

	@Test
	void unknownPath_notFound() {
		assertThat(this.http.get("/nothing/here").statusCode()).isEqualTo(404);
		assertThat(this.http.get("/nothing/here").headers().firstValue("Content-Type"))
			.hasValue("application/problem+json");
	}

	@Test
	void info_showsStrategy() {
		DocumentContext info = JsonPath.parse(this.http.get("/actuator/info").body());

		assertThat(info.read("$.strategy.name", String.class)).isEqualTo(this.properties.strategy().profile());
		assertThat(info.read("$.strategy.implementation", String.class))
			.isEqualTo(this.core.getClass().getSimpleName());
		assertThat(info.read("$.strategy.delivery", String.class)).isEqualTo("EXACTLY_ONCE");
	}

	@Test
	void prometheus_queueMetricsTaggedWithStrategy() {
		this.http.roundTrip("metrics-test", "x");
		this.http.get("/queues/metrics-test/messages");

		String scrape = this.http.get("/actuator/prometheus").body();

		String tags = "application=\"queue-service\"";
		String strategy = this.properties.strategy().profile();
		for (String name : new String[] { "qs_messages_pushed_total", "qs_messages_completed_total",
				"qs_polls_empty_total", "qs_messages_ready", "qs_messages_inflight", "qs_queues" }) {
			assertThat(scrape)
				.containsPattern("(?m)^" + name + "\\{" + tags + ",strategy=\"" + strategy + "\"\\} [0-9.E]+$");
		}
		assertThat(scrape).containsPattern("(?m)^qs_messages_delivered_total\\{" + tags
				+ ",redelivery=\"false\",strategy=\"" + strategy + "\"\\} [1-9]");
		assertThat(scrape).containsPattern("(?m)^qs_messages_pushed_total\\{.*\\} [1-9]");
		assertThat(scrape).contains("http_server_requests_seconds_bucket{");
		assertThat(scrape).contains("jvm_memory_used_bytes{");
	}

	@Test
	void exposedEndpoints_onlyHealthInfoPrometheus() {
		assertThat(this.http.get("/actuator/health").statusCode()).isEqualTo(200);
		assertThat(this.http.get("/actuator/env").statusCode()).isEqualTo(404);
		assertThat(this.http.get("/actuator/metrics").statusCode()).isEqualTo(404);
	}

	static void assertProblem(HttpResponse<String> response, int status, String title) {
		assertThat(response.statusCode()).as(response.request().method() + " " + response.uri()).isEqualTo(status);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		DocumentContext problem = JsonPath.parse(response.body());
		assertThat(problem.read("$.status", Integer.class)).isEqualTo(status);
		assertThat(problem.read("$.title", String.class)).isEqualTo(title);
		assertThat(response.body()).doesNotContain("Exception", "at io.github", "at org.springframework");
	}

}
