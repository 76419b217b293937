package io.github.qsbench.rest;

import static io.github.qsbench.rest.QueueApiHttpTests.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;

import io.github.qsbench.http.ClockedHttpTestBase;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.test.context.TestPropertySource;

/**
 * Batches over HTTP: push, poll with {@code max}, and complete up to 100 messages per
 * request, with leases, caps and strict input checks. The body cap is 1 KiB and a queue
 * holds at most 5 messages, so both limits are crossed cheaply; leases lapse because the
 * test moves the service's clock.
 */
@TestPropertySource(
		properties = { "qs.max-message-size=1KB", "qs.lease-timeout=30s", "qs.limits.max-messages-per-queue=5" })
class BatchHttpTests extends ClockedHttpTestBase {

	private static final int CAP = 1024;

	/** What a batch request may carry: 100 bodies at the cap plus 64 KiB of JSON. */
	private static final int MAX_REQUEST = 100 * CAP + 64 * 1024;

	@Test
	void pushPollComplete_roundTripInOrder() {
		HttpResponse<String> pushed = pushBatch("batch-trip", "[\"a\",\"b\",\"c\"]");
		assertThat(pushed.statusCode()).isEqualTo(201);
		DocumentContext created = JsonPath.parse(pushed.body());
		assertThat(created.read("$.queue", String.class)).isEqualTo("batch-trip");
		List<Long> ids = ids(created, "$.ids");
		assertThat(ids).hasSize(3).isSorted().doesNotHaveDuplicates();

		HttpResponse<String> polled = this.http.get("/queues/batch-trip/messages?max=10");

		assertThat(polled.statusCode()).isEqualTo(200);
		assertThat(polled.headers().firstValue("ETag")).as("ETag only names a single delivery").isEmpty();
		assertThat(polled.headers().firstValue("Cache-Control")).hasValue("no-store");
		DocumentContext delivered = JsonPath.parse(polled.body());
		assertThat(ids(delivered, "$.messages[*].id")).isEqualTo(ids);
		assertThat(delivered.read("$.messages[*].body", List.class)).containsExactly("a", "b", "c");
		assertThat(delivered.read("$.messages[*].queue", List.class)).containsOnly("batch-trip");
		assertThat(delivered.read("$.messages[*].deliveries", List.class)).containsOnly(1);
		List<String> leases = delivered.read("$.messages[*].lease");
		assertThat(leases).hasSize(3).allSatisfy(lease -> assertThat(lease).isNotBlank());
		assertThat(this.http.get("/queues/batch-trip/messages?max=10").statusCode()).isEqualTo(204);

		String entries = IntStream.range(0, 3)
			.mapToObj(i -> "{\"id\":" + ids.get(i) + ",\"lease\":\"" + leases.get(i) + "\"}")
			.collect(Collectors.joining(","));
		HttpResponse<String> completed = completeBatch("batch-trip", "[" + entries + "]");

		assertThat(completed.statusCode()).isEqualTo(200);
		DocumentContext results = JsonPath.parse(completed.body());
		assertThat(ids(results, "$.results[*].id")).isEqualTo(ids);
		assertThat(results.read("$.results[*].status", List.class)).containsExactly(204, 204, 204);
		this.clock.advance(Duration.ofSeconds(30));
		assertThat(this.http.get("/queues/batch-trip/messages?max=10").statusCode()).as("never delivered again")
			.isEqualTo(204);
	}

	@Test
	void pollMax_deliversAtMostMax() {
		pushBatch("batch-max", "[\"1\",\"2\",\"3\"]");

		HttpResponse<String> first = this.http.get("/queues/batch-max/messages?max=2");
		HttpResponse<String> second = this.http.get("/queues/batch-max/messages?max=2");

		assertThat(JsonPath.parse(first.body()).read("$.messages[*].body", List.class)).containsExactly("1", "2");
		assertThat(JsonPath.parse(second.body()).read("$.messages[*].body", List.class)).containsExactly("3");
	}

	@Test
	void completions_eachEntryAnswersWhatItsDeleteWould() {
		List<Long> ids = ids(JsonPath.parse(pushBatch("batch-leases", "[\"a\",\"b\",\"c\"]").body()), "$.ids");
		long a = ids.get(0);
		long b = ids.get(1);
		long c = ids.get(2);
		List<String> firstLeases = JsonPath.parse(this.http.get("/queues/batch-leases/messages?max=2").body())
			.read("$.messages[*].lease");
		this.clock.advance(Duration.ofSeconds(30));
		DocumentContext again = JsonPath.parse(this.http.get("/queues/batch-leases/messages?max=1").body());
		assertThat(again.read("$.messages[0].id", Long.class)).isEqualTo(a);
		assertThat(again.read("$.messages[0].deliveries", Integer.class)).isEqualTo(2);
		String current = again.read("$.messages[0].lease");

		HttpResponse<String> response = completeBatch("batch-leases",
				"[{\"id\":" + a + ",\"lease\":\"" + firstLeases.get(0) + "\"}," // redelivered
						+ "{\"id\":" + b + ",\"lease\":\"" + firstLeases.get(1) + "\"}," // lapsed
																							// only
						+ "{\"id\":" + c + "}," // never delivered
						+ "{\"id\":" + (c + 1000) + "}," // no such message
						+ "{\"id\":" + a + ",\"lease\":\"" + current + "\"}," // current
																				// lease
						+ "{\"id\":" + a + ",\"lease\":null}]"); // completed already

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(JsonPath.parse(response.body()).read("$.results[*].status", List.class)).containsExactly(412, 204,
				409, 404, 204, 404);
		assertProblem(this.http.delete("/queues/batch-leases/messages/" + c), 409, "Message not delivered");
		assertProblem(this.http.delete("/queues/batch-leases/messages/" + a), 404, "No such message");
	}

	@Test
	void pushOverCap_refusedWhole_nothingPushed() {
		assertThat(pushBatch("batch-cap", "[\"1\",\"2\",\"3\"]").statusCode()).isEqualTo(201);

		HttpResponse<String> refused = pushBatch("batch-cap", "[\"4\",\"5\",\"6\"]");

		assertProblem(refused, 429, "Queue service full");
		assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
		assertThat(JsonPath.parse(refused.body()).read("$.limit", String.class)).isEqualTo("max-messages-per-queue");
		assertThat(JsonPath.parse(this.http.get("/queues/batch-cap").body()).read("$.ready", Integer.class))
			.as("none of the refused batch was pushed")
			.isEqualTo(3);
		assertThat(pushBatch("batch-cap", "[\"4\",\"5\"]").statusCode()).as("exactly the room left").isEqualTo(201);
		assertThat(JsonPath.parse(this.http.get("/queues/batch-cap/messages?max=100").body())
			.read("$.messages[*].body", List.class)).containsExactly("1", "2", "3", "4", "5");
	}

	@Test
	void bodyAtCap_createdAndOneByteOver_tooLarge() {
		String atCap = "é".repeat(CAP / 2); // two bytes each in UTF-8
		assertThat(pushBatch("batch-size", "[\"x\",\"" + atCap + "\"]").statusCode()).isEqualTo(201);

		assertProblem(pushBatch("batch-size", "[\"x\",\"" + atCap + "y\"]"), 413, "Message too large");
		assertProblem(pushBatch("batch-size", "[\"" + "x".repeat(CAP + 1) + "\"]"), 413, "Message too large");
		assertThat(JsonPath.parse(this.http.get("/queues/batch-size").body()).read("$.ready", Integer.class))
			.isEqualTo(2);
	}

	@Test
	void hundredBodiesAtCap_withinRequestLimit() {
		String body = "x".repeat(CAP);
		String hundred = IntStream.range(0, 100).mapToObj(i -> "\"" + body + "\"").collect(Collectors.joining(","));

		HttpResponse<String> response = this.http.send("/queues/batch-hundred/messages/batch", "POST",
				BodyPublishers.ofString("{\"messages\":[" + hundred + "]}"), "application/json");

		// read and parsed whole; only the queue cap (5) refuses them
		assertProblem(response, 429, "Queue service full");
	}

	@Test
	void requestOverBatchLimit_tooLarge_declaredOrChunked() {
		String padded = "{\"messages\":[\"x\"]" + " ".repeat(MAX_REQUEST) + "}";
		byte[] bytes = padded.getBytes(StandardCharsets.UTF_8);

		assertProblem(this.http.send("/queues/batch-huge/messages/batch", "POST", BodyPublishers.ofByteArray(bytes),
				"application/json"), 413, "Batch too large");
		assertProblem(
				this.http.send("/queues/batch-huge/messages/completions", "POST",
						BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(bytes)), "application/json"),
				413, "Batch too large");
		String justUnder = "{\"messages\":[\"x\"]" + " ".repeat(MAX_REQUEST - 18) + "}";
		assertThat(justUnder.length()).isEqualTo(MAX_REQUEST);
		assertThat(this.http
			.send("/queues/batch-huge/messages/batch", "POST", BodyPublishers.ofString(justUnder), "application/json")
			.statusCode()).isEqualTo(201);
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "not json", "[\"a\"]", "{}", "null", "{\"messages\":\"a\"}", "{\"messages\":[]}",
			"{\"messages\":[1]}", "{\"messages\":[null]}", "{\"messages\":[[\"a\"]]}", "{\"messages\":[{\"a\":1}]}",
			"{\"messages\":[\"a\"],\"messages\":[\"b\"]}", "{\"messages\":[\"a\"],\"extra\":1}",
			"{\"messages\":[\"a\"]} {}", "{\"messages\":[\"a\"]", "{\"messages\":[\"a\",]}",
			"{\"messages\":[[[[[[[[[[\"a\"]]]]]]]]]]}" })
	void push_malformed_badRequestAndNothingPushed(String body) {
		assertProblem(pushBatchRaw("batch-bad", body), 400, "Invalid batch");
		assertThat(this.http.get("/queues/batch-bad/messages").statusCode()).isEqualTo(204);
	}

	@Test
	void push_overHundredBodies_badRequest() {
		String entries = IntStream.range(0, 101).mapToObj(i -> "\"m\"").collect(Collectors.joining(","));

		assertProblem(pushBatch("batch-101", "[" + entries + "]"), 400, "Invalid batch");
		assertThat(this.http.get("/queues/batch-101/messages").statusCode()).isEqualTo(204);
	}

	@Test
	void push_emptyOrInvalidBody_badRequestAndNothingPushed() {
		assertProblem(pushBatch("batch-empty", "[\"a\",\"\"]"), 400, "Empty message");
		assertProblem(pushBatch("batch-empty", "[\"a\",\"\\ud800\"]"), 400, "Invalid message body");
		assertProblem(
				this.http.send("/queues/batch-empty/messages/batch", "POST",
						BodyPublishers.ofByteArray(new byte[] { '{', '"', 'm', 'e', 's', 's', 'a', 'g', 'e', 's', '"',
								':', '[', '"', (byte) 0xC3, (byte) 0x28, '"', ']', '}' }),
						"application/json"),
				400, "Invalid batch");
		assertThat(this.http.get("/queues/batch-empty/messages").statusCode()).isEqualTo(204);

		assertThat(pushBatch("batch-empty", "[\"\\ud83d\\ude00 a pair is fine\"]").statusCode()).isEqualTo(201);
	}

	@Test
	void push_notJson_unsupportedMediaType() {
		assertProblem(this.http.post("/queues/batch-type/messages/batch", "{\"messages\":[\"a\"]}"), 415,
				"Unsupported Media Type");
	}

	@ParameterizedTest
	@ValueSource(strings = { "{\"id\":\"1\"}", "{\"id\":0}", "{\"id\":-1}", "{\"id\":1.5}", "{\"id\":1e-3}",
			"{\"id\":99999999999999999999}", "{\"lease\":\"1\"}", "{\"id\":1,\"other\":2}", "{\"id\":1,\"id\":2}",
			"{\"id\":1,\"lease\":1}", "{}", "1", "null", "\"1\"", "[]" })
	void complete_malformedEntry_badRequestAndNothingCompleted(String entry) {
		long id = pushedAndPolled("batch-bad-entry");

		assertProblem(completeBatch("batch-bad-entry", "[{\"id\":" + id + "}," + entry + "]"), 400, "Invalid batch");
		assertThat(this.http.delete("/queues/batch-bad-entry/messages/" + id).statusCode()).isEqualTo(204);
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "not json", "{}", "{\"messages\":[]}", "{\"messages\":{}}",
			"{\"messages\":[{\"id\":1}],\"more\":true}" })
	void complete_malformedBatch_badRequest(String body) {
		assertProblem(completeBatchRaw("batch-bad-complete", body), 400, "Invalid batch");
	}

	@ParameterizedTest
	@ValueSource(strings = { "abc", "0", "\"\"", "\"1\"\"", "99999999999" })
	void complete_malformedLease_badRequestAndNothingCompleted(String lease) {
		long id = pushedAndPolled("batch-bad-lease");

		assertProblem(
				completeBatch("batch-bad-lease",
						"[{\"id\":" + id + "},{\"id\":" + id + ",\"lease\":\"" + lease.replace("\"", "\\\"") + "\"}]"),
				400, "Invalid lease");
		assertThat(this.http.delete("/queues/batch-bad-lease/messages/" + id).statusCode()).isEqualTo(204);
	}

	@Test
	void complete_overHundredEntries_badRequest() {
		long id = pushedAndPolled("batch-101-complete");
		String entries = IntStream.range(0, 101).mapToObj(i -> "{\"id\":" + id + "}").collect(Collectors.joining(","));

		assertProblem(completeBatch("batch-101-complete", "[" + entries + "]"), 400, "Invalid batch");
		assertThat(this.http.delete("/queues/batch-101-complete/messages/" + id).statusCode()).isEqualTo(204);
	}

	@ParameterizedTest
	@ValueSource(strings = { "max=0", "max=101", "max=-1", "max=1.5", "max=abc", "max=", "max=01", "max=1&max=2",
			"wait=21", "wait=-1", "wait=x", "wait=", "wait=1.5", "wait=99999999999", "max=0&wait=1", "max=5&wait=21" })
	void poll_parameterOutOfRange_badRequestAndNothingLeased(String query) {
		String queue = "batch-params-" + Integer.toHexString(query.hashCode());
		pushBatch(queue, "[\"kept\"]");

		assertProblem(this.http.get("/queues/" + queue + "/messages?" + query), 400, "Invalid parameter");
		assertThat(this.http.get("/queues/" + queue + "/messages").statusCode()).isEqualTo(200);
	}

	@Test
	void badQueueName_badRequestOnEveryBatchEndpoint() {
		assertProblem(pushBatch("bad.name", "[\"a\"]"), 400, "Invalid queue name");
		assertProblem(completeBatch("bad.name", "[{\"id\":1}]"), 400, "Invalid queue name");
		assertProblem(this.http.get("/queues/bad.name/messages?max=2"), 400, "Invalid queue name");
		assertProblem(this.http.get("/queues/bad.name/messages?wait=1"), 400, "Invalid queue name");
	}

	@Test
	void metrics_countMessagesNotRequests() {
		String before = this.http.get("/actuator/prometheus").body();
		List<Long> ids = ids(JsonPath.parse(pushBatch("batch-metrics", "[\"a\",\"b\",\"c\"]").body()), "$.ids");
		this.http.get("/queues/batch-metrics/messages?max=3");
		this.clock.advance(Duration.ofSeconds(30));
		this.http.get("/queues/batch-metrics/messages?max=2");
		completeBatch("batch-metrics", "[{\"id\":" + ids.get(0) + "},{\"id\":" + ids.get(1) + "},{\"id\":" + ids.get(2)
				+ "},{\"id\":" + ids.get(2) + "}]");
		this.http.get("/queues/batch-metrics/messages?max=2");
		String after = this.http.get("/actuator/prometheus").body();

		assertThat(increase(before, after, "qs_messages_pushed_total")).isEqualTo(3);
		assertThat(increase(before, after, "qs_messages_delivered_total\\{.*redelivery=\"false\".*")).isEqualTo(3);
		assertThat(increase(before, after, "qs_messages_delivered_total\\{.*redelivery=\"true\".*")).isEqualTo(2);
		assertThat(increase(before, after, "qs_messages_completed_total")).as("a second completion of c is a 404")
			.isEqualTo(3);
		assertThat(increase(before, after, "qs_polls_empty_total")).isEqualTo(1);
	}

	private long pushedAndPolled(String queue) {
		long id = JsonPath.parse(pushBatch(queue, "[\"x\"]").body()).read("$.ids[0]", Long.class);
		assertThat(this.http.get("/queues/" + queue + "/messages").statusCode()).isEqualTo(200);
		return id;
	}

	private HttpResponse<String> pushBatch(String queue, String messages) {
		return pushBatchRaw(queue, "{\"messages\":" + messages + "}");
	}

	private HttpResponse<String> pushBatchRaw(String queue, String body) {
		return this.http.send("/queues/" + queue + "/messages/batch", "POST", BodyPublishers.ofString(body),
				"application/json");
	}

	private HttpResponse<String> completeBatch(String queue, String messages) {
		return completeBatchRaw(queue, "{\"messages\":" + messages + "}");
	}

	private HttpResponse<String> completeBatchRaw(String queue, String body) {
		return this.http.send("/queues/" + queue + "/messages/completions", "POST", BodyPublishers.ofString(body),
				"application/json");
	}

	private static List<Long> ids(DocumentContext json, String path) {
		List<Number> ids = json.read(path);
		return ids.stream().map(Number::longValue).toList();
	}

	/** How much the counters matching {@code name} (a regex) rose between two scrapes. */
	static double increase(String before, String after, String name) {
		return sum(after, name) - sum(before, name);
	}

	private static double sum(String scrape, String name) {
		Matcher matcher = Pattern.compile("(?m)^" + name + "(\\{[^}]*\\})? ([0-9.E]+)$").matcher(scrape);
		double sum = 0;
		while (matcher.find()) {
			sum += Double.parseDouble(matcher.group(2));
		}
		return sum;
	}

}
