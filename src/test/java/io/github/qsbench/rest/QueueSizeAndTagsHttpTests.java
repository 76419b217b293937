package io.github.qsbench.rest;

import static io.github.qsbench.rest.QueueApiHttpTests.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import io.github.qsbench.http.HttpTestBase;

import org.junit.jupiter.api.Test;

/**
 * The largest message and the tags on the REST face, with the service's defaults: 1 MiB
 * exactly is taken and one byte more refused on every way a push comes in (the fast path,
 * the JSON form, a batch, which takes ten of them in one request); a queue's own
 * {@code maxMessageBytes} (1,024 to 1 MiB) holds on each; tags are merged by a
 * {@code PUT} (null removes one), shown by {@code GET}, refused as SQS refuses them, and
 * gone with the queue.
 */
class QueueSizeAndTagsHttpTests extends HttpTestBase {

	private static final int MEBIBYTE = 1_048_576;

	@Test
	void push_1MiBExactlyCreated_oneByteMoreTooLarge_onEveryPath() {
		String mebibyte = "m".repeat(MEBIBYTE);
		assertThat(this.http.post("/queues/size-default/messages", mebibyte).statusCode()).isEqualTo(201);
		assertThat(JsonPath.parse(this.http.get("/queues/size-default/messages").body()).read("$.body", String.class))
			.isEqualTo(mebibyte);
		assertProblem(this.http.post("/queues/size-default/messages", mebibyte + "m"), 413, "Message too large");

		assertThat(json("/queues/size-default/messages", "{\"body\":\"" + mebibyte + "\"}").statusCode())
			.isEqualTo(201);
		assertProblem(json("/queues/size-default/messages", "{\"body\":\"" + mebibyte + "m\"}"), 413,
				"Message too large");

		String ten = IntStream.range(0, 10)
			.mapToObj(i -> "\"" + mebibyte + "\"")
			.collect(Collectors.joining(",", "{\"messages\":[", "]}"));
		HttpResponse<String> batch = json("/queues/size-default/messages/batch", ten);
		assertThat(batch.statusCode()).as("a batch of ten at 1 MiB is read whole").isEqualTo(201);
		assertThat(JsonPath.parse(batch.body()).read("$.ids.length()", Integer.class)).isEqualTo(10);
		assertThat(this.http.get("/queues/size-default").body()).contains("\"maxMessageBytes\":" + MEBIBYTE);
	}

	@Test
	void queuesOwnMaximum_honouredByEveryPush_withinSqsRange() {
		HttpResponse<String> created = put("size-own", "{\"maxMessageBytes\":2048}");
		assertThat(created.statusCode()).isEqualTo(201);
		assertThat(JsonPath.parse(created.body()).read("$.settings.maxMessageBytes", Integer.class)).isEqualTo(2048);

		assertThat(this.http.post("/queues/size-own/messages", "k".repeat(2048)).statusCode()).isEqualTo(201);
		assertProblem(this.http.post("/queues/size-own/messages", "k".repeat(2049)), 413, "Message too large");
		assertProblem(this.http.send("/queues/size-own/messages", "POST", BodyPublishers.ofString("k".repeat(2049)),
				"text/plain; charset=ISO-8859-1", "Accept", "application/json, */*"), 413, "Message too large");
		assertProblem(json("/queues/size-own/messages", "{\"body\":\"" + "k".repeat(2049) + "\"}"), 413,
				"Message too large");
		assertProblem(
				json("/queues/size-own/messages",
						"{\"body\":\"" + "k".repeat(2040)
								+ "\",\"attributes\":{\"attr\":{\"type\":\"String\",\"value\":\"0123456789\"}}}"),
				400, "Invalid message attributes");
		assertProblem(json("/queues/size-own/messages/batch", "{\"messages\":[\"ok\",\"" + "k".repeat(2049) + "\"]}"),
				413, "Message too large");
		assertThat(JsonPath.parse(this.http.get("/queues/size-own").body()).read("$.ready", Integer.class))
			.as("only the message that fits")
			.isEqualTo(1);

		for (String refused : new String[] { "1023", "1048577", "\"big\"" }) {
			assertProblem(put("size-own", "{\"maxMessageBytes\":" + refused + "}"), 400,
					refused.startsWith("\"") ? "Invalid settings" : "Invalid parameter");
		}
		assertThat(put("size-own", "{\"maxMessageBytes\":1024}").statusCode()).isEqualTo(200);
		assertProblem(this.http.post("/queues/size-own/messages", "k".repeat(1025)), 413, "Message too large");
	}

	@Test
	void tags_mergedByPut_shownByGet_refusedAsSqsRefuses_goneWithTheQueue() {
		assertThat(put("tagged", "{\"tags\":{\"team\":\"blue\",\"Team\":\"Red\"}}").statusCode()).isEqualTo(201);
		HttpResponse<String> merged = put("tagged", "{\"leaseSeconds\":40,\"tags\":{\"Team\":null,\"cost\":\"\"}}");
		assertThat(merged.statusCode()).isEqualTo(200);
		assertThat(tags(merged)).isEqualTo(Map.of("team", "blue", "cost", ""));
		assertThat(tags(this.http.get("/queues/tagged"))).isEqualTo(Map.of("team", "blue", "cost", ""));

		for (String refused : new String[] { "{\"aws:team\":\"x\"}", "{\"\":\"x\"}", "{\"a;b\":\"x\"}",
				"{\"k\":\"" + "v".repeat(257) + "\"}", "{\"" + "k".repeat(129) + "\":\"v\"}" }) {
			assertProblem(put("tagged", "{\"tags\":" + refused + "}"), 400, "Invalid tags");
		}
		assertProblem(put("tagged", "{\"tags\":[\"team\"]}"), 400, "Invalid settings");
		assertProblem(put("tagged", "{\"tags\":{\"team\":7}}"), 400, "Invalid settings");
		String fortyNine = IntStream.range(0, 49)
			.mapToObj(i -> "\"k" + i + "\":\"v\"")
			.collect(Collectors.joining(",", "{\"tags\":{", "}}"));
		assertProblem(put("tagged", fortyNine), 400, "Invalid tags");
		assertThat(tags(this.http.get("/queues/tagged"))).as("nothing changed").hasSize(2);
		assertThat(tags(put("tagged", fortyNine.replace("\"k0\":\"v\"", "\"cost\":null")))).hasSize(49);

		assertThat(this.http.delete("/queues/tagged").statusCode()).isEqualTo(204);
		assertThat(tags(put("tagged", ""))).as("a new queue of the same name has none").isEmpty();
	}

	private static Map<String, String> tags(HttpResponse<String> queue) {
		DocumentContext json = JsonPath.parse(queue.body());
		return json.read("$.settings.tags");
	}

	private HttpResponse<String> put(String queue, String json) {
		return this.http.send("/queues/" + queue, "PUT", BodyPublishers.ofString(json), "application/json");
	}

	private HttpResponse<String> json(String path, String json) {
		return this.http.send(path, "POST", BodyPublishers.ofString(json), "application/json");
	}

}
