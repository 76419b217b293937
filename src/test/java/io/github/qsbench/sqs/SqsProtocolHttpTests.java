package io.github.qsbench.sqs;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import io.github.qsbench.http.HttpTestBase;
import org.junit.jupiter.api.Test;

import org.springframework.test.context.TestPropertySource;

/**
 * The SQS face's envelope as the wire carries it: SQS's error shape and legacy-code
 * header, requests no SDK would send (malformed JSON, wrong member types, unknown
 * actions, another protocol), and {@code /} still serving everything else.
 */
@TestPropertySource(properties = "qs.max-message-size=1KB")
class SqsProtocolHttpTests extends HttpTestBase {

	@Test
	void error_typeMessageAndQueryErrorHeader() {
		HttpResponse<String> answer = sqs("GetQueueUrl", "{\"QueueName\":\"raw-no-such-queue\"}");

		assertError(answer, 400, "QueueDoesNotExist");
		assertThat(answer.headers().firstValue("x-amzn-query-error"))
			.hasValue("AWS.SimpleQueueService.NonExistentQueue;Sender");
		assertThat(answer.headers().firstValue("Content-Type")).hasValue("application/x-amz-json-1.0");
		assertThat(JsonPath.parse(answer.body()).read("$.message", String.class))
			.isEqualTo("The specified queue does not exist.");
	}

	@Test
	void createThenSend_answersIdAndMd5() {
		String url = JsonPath.parse(sqs("CreateQueue", "{\"QueueName\":\"raw-send\"}").body()).read("$.QueueUrl");
		assertThat(url).isEqualTo("http://127.0.0.1:" + this.port + "/000000000000/raw-send");

		HttpResponse<String> sent = sqs("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"hello\"}");

		assertThat(sent.statusCode()).isEqualTo(200);
		DocumentContext json = JsonPath.parse(sent.body());
		assertThat(json.read("$.MD5OfMessageBody", String.class)).isEqualTo("5d41402abc4b2a76b9719d911017c592");
		assertThat(json.read("$.MessageId", String.class)).matches("[1-9][0-9]*");
	}

	@Test
	void malformedRequests_invalidParameterValue() {
		assertError(sqs("ListQueues", "{"), 400, "InvalidParameterValue");
		assertError(sqs("ListQueues", "[]"), 400, "InvalidParameterValue");
		assertError(sqs("ListQueues", "{\"MaxResults\":\"ten\"}"), 400, "InvalidParameterValue");
		assertError(sqs("ListQueues", "{\"MaxResults\":1001}"), 400, "InvalidParameterValue");
		assertError(sqs("ListQueues", "{\"QueueNamePrefix\":7}"), 400, "InvalidParameterValue");
		assertError(sqs("ListQueues", "{\"NextToken\":\"x\"}"), 400, "InvalidParameterValue");
	}

	/** Found by the conformance suite: these wrong types were ignored. */
	@Test
	void membersOfTheWrongType_invalidParameterValue() {
		String url = queue("raw-types");
		assertError(sqs("ListDeadLetterSourceQueues", "{\"QueueUrl\":\"" + url + "\",\"MaxResults\":\"ten\"}"), 400,
				"InvalidParameterValue");
		assertError(sqs("ListDeadLetterSourceQueues", "{\"QueueUrl\":\"" + url + "\",\"NextToken\":7}"), 400,
				"InvalidParameterValue");
		assertError(
				sqs("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"x\",\"MessageAttributes\":"
						+ "{\"a\":{\"DataType\":\"String\",\"StringValue\":\"v\",\"StringListValues\":\"v\"}}}"),
				400, "InvalidParameterValue");
		assertError(sqs("SetQueueAttributes", "{\"QueueUrl\":\"" + url + "\"}"), 400, "MissingParameter");
	}

	@Test
	void missingMembers_missingParameter() {
		assertError(sqs("CreateQueue", "{}"), 400, "MissingParameter");
		assertError(sqs("SendMessage", "{\"MessageBody\":\"x\"}"), 400, "MissingParameter");
		String url = queue("raw-missing");
		assertError(sqs("SendMessage", "{\"QueueUrl\":\"" + url + "\"}"), 400, "MissingParameter");
		assertError(sqs("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"\"}"), 400, "MissingParameter");
	}

	@Test
	void bodies_overTheCapOrNotText_refused() {
		String url = queue("raw-bodies");

		assertError(sqs("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"" + "x".repeat(1025) + "\"}"),
				400, "InvalidParameterValue");
		assertError(sqs("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"\\ud800\"}"), 400,
				"InvalidMessageContents");
		assertError(
				sqs("SendMessage",
						"{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"x\",\"MessageAttributes\":"
								+ "{\"k\":{\"DataType\":\"String\",\"StringValue\":\"\\udfff\"}}}"),
				400, "InvalidMessageContents");
		assertError(
				sqs("SendMessage",
						"{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"x\",\"MessageSystemAttributes\":"
								+ "{\"AWSTraceHeader\":{\"DataType\":\"String\",\"StringValue\":\"Root=\\ud800\"}}}"),
				400, "InvalidMessageContents");
		assertThat(sqs("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"" + "é".repeat(512) + "\"}")
			.statusCode()).as("1024 bytes in UTF-8").isEqualTo(200);
	}

	@Test
	void queueUrls_ofAnotherAccountOrNotAUrl_invalidAddress() {
		queue("raw-address");

		assertError(sqs("GetQueueAttributes", "{\"QueueUrl\":\"http://localhost/123456789012/raw-address\"}"), 400,
				"InvalidAddress");
		assertError(sqs("GetQueueAttributes", "{\"QueueUrl\":\"raw-address\"}"), 400, "InvalidAddress");
		assertError(sqs("GetQueueAttributes", "{\"QueueUrl\":\"http://localhost/000000000000/bad.name\"}"), 400,
				"QueueDoesNotExist");
		assertError(
				sqs("GetQueueAttributes",
						"{\"QueueUrl\":\"http://localhost/000000000000/raw-address\",\"AttributeNames\":[\"Colour\"]}"),
				400, "InvalidAttributeName");
	}

	@Test
	void actions_unknownInvalid_everyActionOfTheModelServed() {
		assertError(sqs("Frobnicate", "{}"), 400, "InvalidAction");
		assertError(this.http.send("/", "POST", BodyPublishers.ofString("{}"), SqsFace.CONTENT_TYPE, "X-Amz-Target",
				"DynamoDB_20120810.GetItem"), 400, "InvalidAction");
		HttpResponse<String> permission = sqs("AddPermission", "{}");
		assertError(permission, 400, "MissingParameter");
		assertThat(permission.headers().firstValue("x-amzn-query-error")).hasValue("MissingParameter;Sender");
	}

	@Test
	void anotherProtocol_refused() {
		assertError(
				this.http.send("/", "POST", BodyPublishers.ofString("Action=ListQueues"),
						"application/x-www-form-urlencoded", "X-Amz-Target", "AmazonSQS.ListQueues"),
				400, "InvalidParameterValue");
	}

	@Test
	void slashWithoutTarget_jsonAnsweredAsSqs_otherPathsNotTheSqsFace() {
		HttpResponse<String> page = this.http.send("/", "GET", BodyPublishers.noBody(), null, "Accept", "text/html");
		assertThat(page.statusCode()).isEqualTo(200);
		assertThat(page.headers().firstValue("Content-Type"))
			.hasValueSatisfying(type -> assertThat(type).startsWith("text/html"));

		HttpResponse<String> post = this.http.send("/", "POST", BodyPublishers.ofString("{}"), SqsFace.CONTENT_TYPE);
		assertError(post, 400, "UnknownOperationException");
		assertThat(post.headers().firstValue("x-amzn-query-error")).hasValue("UnknownOperationException;Sender");
		assertThat(post.headers().firstValue("Content-Type")).hasValue(SqsFace.CONTENT_TYPE);

		HttpResponse<String> form = this.http.send("/", "POST", BodyPublishers.ofString("Version=2012-11-05"),
				QueryProtocol.CONTENT_TYPE);
		assertThat(form.statusCode()).isEqualTo(400);
		assertThat(form.body()).contains("<Code>MissingAction</Code>").contains("<Type>Sender</Type>");

		HttpResponse<String> push = this.http.send("/queues/raw-rest/messages", "POST", BodyPublishers.ofString("x"),
				"text/plain", "X-Amz-Target", "AmazonSQS.ListQueues");
		assertThat(push.statusCode()).as("the face is on / only: the REST API never meets it").isEqualTo(201);
	}

	private String queue(String name) {
		return JsonPath.parse(sqs("CreateQueue", "{\"QueueName\":\"" + name + "\"}").body()).read("$.QueueUrl");
	}

	private HttpResponse<String> sqs(String action, String json) {
		return this.http.send("/", "POST", BodyPublishers.ofString(json), SqsFace.CONTENT_TYPE, "X-Amz-Target",
				"AmazonSQS." + action);
	}

	private static void assertError(HttpResponse<String> answer, int status, String code) {
		assertThat(answer.statusCode()).as(answer.body()).isEqualTo(status);
		assertThat(JsonPath.parse(answer.body()).read("$.__type", String.class)).isEqualTo("com.amazonaws.sqs#" + code);
	}

}
