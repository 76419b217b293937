package io.github.qsbench.sqs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublisher;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.jayway.jsonpath.JsonPath;
import io.github.qsbench.http.HttpTestBase;
import org.junit.jupiter.api.Test;

import org.springframework.test.context.TestPropertySource;

/**
 * {@link SqsSelectorRoute} answers the message actions as the face's servlet filter does.
 * Each request is sent twice: with a {@code Content-Length}, which the route takes on the
 * selector, and chunked (no length), which it leaves to the filter; status, content type,
 * the legacy error header and the answer's members must agree, ids and handles aside.
 */
@TestPropertySource(properties = "qs.max-message-size=1KB")
class SqsSelectorRouteHttpTests extends HttpTestBase {

	private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@Test
	void send_sameAnswerEitherWay() throws Exception {
		String url = queue("route-send");
		String send = "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"héllo\"}";

		HttpResponse<String> routed = sqs("SendMessage", send, true);
		HttpResponse<String> filtered = sqs("SendMessage", send, false);

		assertSame(routed, filtered, 200);
		assertThat(JsonPath.<String>read(routed.body(), "$.MD5OfMessageBody"))
			.isEqualTo(JsonPath.read(filtered.body(), "$.MD5OfMessageBody"));
		assertThat(JsonPath.<String>read(routed.body(), "$.MessageId")).matches("[1-9][0-9]*");
	}

	@Test
	void receiveAndDelete_sameAnswersEitherWay() throws Exception {
		String url = queue("route-receive");
		sqs("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"one\"}", true);
		sqs("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"one\"}", false);
		String receive = "{\"QueueUrl\":\"" + url + "\",\"AttributeNames\":[\"ApproximateReceiveCount\"]}";

		HttpResponse<String> routed = sqs("ReceiveMessage", receive, true);
		HttpResponse<String> filtered = sqs("ReceiveMessage", receive, false);

		assertSame(routed, filtered, 200);
		for (HttpResponse<String> received : new HttpResponse[] { routed, filtered }) {
			assertThat(JsonPath.<String>read(received.body(), "$.Messages[0].Body")).isEqualTo("one");
			assertThat(JsonPath.<String>read(received.body(), "$.Messages[0].Attributes.ApproximateReceiveCount"))
				.isEqualTo("1");
		}
		String first = JsonPath.read(routed.body(), "$.Messages[0].ReceiptHandle");
		String second = JsonPath.read(filtered.body(), "$.Messages[0].ReceiptHandle");
		assertSame(sqs("DeleteMessage", delete(url, first), true), sqs("DeleteMessage", delete(url, second), false),
				200);
		// empty now, either way
		assertSame(sqs("ReceiveMessage", receive, true), sqs("ReceiveMessage", receive, false), 200);
		assertThat(sqs("ReceiveMessage", receive, true).body()).doesNotContain("ReceiptHandle");
	}

	@Test
	void batches_sameAnswersEitherWay() throws Exception {
		String url = queue("route-batch");
		String batch = "{\"QueueUrl\":\"" + url + "\",\"Entries\":[{\"Id\":\"a\",\"MessageBody\":\"x\"},"
				+ "{\"Id\":\"b\",\"MessageBody\":\"" + "y".repeat(1025) + "\"}]}";

		HttpResponse<String> routed = sqs("SendMessageBatch", batch, true);
		HttpResponse<String> filtered = sqs("SendMessageBatch", batch, false);

		assertSame(routed, filtered, 200);
		assertThat(JsonPath.<String>read(routed.body(), "$.Successful[0].Id")).isEqualTo("a");
		assertThat(JsonPath.<String>read(routed.body(), "$.Failed[0].Id")).isEqualTo("b");
		assertThat(JsonPath.<String>read(routed.body(), "$.Failed[0].Code"))
			.isEqualTo(JsonPath.read(filtered.body(), "$.Failed[0].Code"));
	}

	@Test
	void errors_sameAnswersEitherWay() throws Exception {
		String url = queue("route-errors");
		String missing = "{\"QueueUrl\":\"http://127.0.0.1:" + this.port + "/000000000000/route-none\","
				+ "\"MessageBody\":\"x\"}";
		assertSameError("SendMessage", missing, "QueueDoesNotExist");
		assertSameError("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"" + "x".repeat(1025) + "\"}",
				"InvalidParameterValue");
		assertSameError("DeleteMessage", delete(url, "not-a-handle"), "ReceiptHandleIsInvalid");
		assertSameError("ReceiveMessage", "{", "InvalidParameterValue");
		assertSameError("ChangeMessageVisibility", "{\"QueueUrl\":\"" + url + "\"}", "MissingParameter");
	}

	/**
	 * A receive that waits is suspended by the route and answered by the send that comes.
	 */
	@Test
	void receiveThatWaits_answeredByALaterSend() throws Exception {
		String url = queue("route-wait");
		CompletableFuture<HttpResponse<String>> waiting = CLIENT.sendAsync(
				request("ReceiveMessage", "{\"QueueUrl\":\"" + url + "\",\"WaitTimeSeconds\":10}", true),
				BodyHandlers.ofString());
		awaitLongPolls("route-wait", 1);

		sqs("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"late\"}", true);

		HttpResponse<String> received = waiting.get(10, TimeUnit.SECONDS);
		assertThat(received.statusCode()).isEqualTo(200);
		assertThat(JsonPath.<String>read(received.body(), "$.Messages[0].Body")).isEqualTo("late");
	}

	private void assertSameError(String action, String body, String code) throws Exception {
		HttpResponse<String> routed = sqs(action, body, true);
		assertSame(routed, sqs(action, body, false), 400);
		assertThat(JsonPath.<String>read(routed.body(), "$.__type")).endsWith("#" + code);
	}

	private static void assertSame(HttpResponse<String> routed, HttpResponse<String> filtered, int status) {
		assertThat(routed.statusCode()).as(routed.body()).isEqualTo(status);
		assertThat(filtered.statusCode()).as(filtered.body()).isEqualTo(status);
		assertThat(routed.headers().firstValue("Content-Type"))
			.isEqualTo(filtered.headers().firstValue("Content-Type"));
		assertThat(routed.headers().firstValue("x-amzn-query-error"))
			.isEqualTo(filtered.headers().firstValue("x-amzn-query-error"));
		assertThat(shape(routed.body())).isEqualTo(shape(filtered.body()));
	}

	/** The answer with its ids, handles and digests blanked. */
	private static String shape(String body) {
		return body.replaceAll("\"(MessageId|ReceiptHandle|MD5OfMessageBody|SenderId|SentTimestamp|"
				+ "ApproximateFirstReceiveTimestamp)\":\"[^\"]*\"", "\"$1\":\"\"");
	}

	private static String delete(String url, String handle) {
		return "{\"QueueUrl\":\"" + url + "\",\"ReceiptHandle\":\"" + handle + "\"}";
	}

	private String queue(String name) {
		try {
			return JsonPath.read(sqs("CreateQueue", "{\"QueueName\":\"" + name + "\"}", true).body(), "$.QueueUrl");
		}
		catch (IOException | InterruptedException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private HttpResponse<String> sqs(String action, String body, boolean withLength)
			throws IOException, InterruptedException {
		return CLIENT.send(request(action, body, withLength), BodyHandlers.ofString());
	}

	private HttpRequest request(String action, String body, boolean withLength) {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		BodyPublisher publisher = withLength ? BodyPublishers.ofByteArray(bytes)
				: BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(bytes));
		return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/"))
			.timeout(Duration.ofSeconds(20))
			.header("Content-Type", SqsFace.CONTENT_TYPE)
			.header(SqsFace.TARGET, "AmazonSQS." + action)
			.POST(publisher)
			.build();
	}

}
