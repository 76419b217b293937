package io.github.qsbench.sqs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.net.URLEncoder;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathFactory;

import io.github.qsbench.http.HttpTestBase;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

import org.springframework.test.context.TestPropertySource;

/**
 * The query protocol as the wire carries it: form-encoded {@code POST}s and {@code GET}s
 * to {@code /} and to queue URLs, SQS's XML answers (namespace, result wrapper, flattened
 * lists and maps, request id) and error documents (the protocol's codes and the JSON
 * face's statuses), requests no SDK would send, and the paths and requests it leaves to
 * the rest of the service.
 */
@TestPropertySource(properties = "qs.max-message-size=1KB")
class SqsQueryProtocolHttpTests extends HttpTestBase {

	private static final String NAMESPACE = "http://queue.amazonaws.com/doc/2012-11-05/";

	@Test
	void createQueue_answerDocument() throws Exception {
		HttpResponse<String> answer = post("/", "Action", "CreateQueue", "QueueName", "query-create",
				"Attribute.1.Name", "VisibilityTimeout", "Attribute.1.Value", "60");

		assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
		assertThat(answer.headers().firstValue("Content-Type"))
			.hasValueSatisfying(type -> assertThat(type).startsWith("text/xml"));
		Document xml = xml(answer);
		assertThat(xml.getDocumentElement().getTagName()).isEqualTo("CreateQueueResponse");
		assertThat(xml.getDocumentElement().getAttribute("xmlns")).isEqualTo(NAMESPACE);
		assertThat(text(xml, "/CreateQueueResponse/CreateQueueResult/QueueUrl"))
			.isEqualTo("http://127.0.0.1:" + this.port + "/000000000000/query-create");
		assertThat(text(xml, "/CreateQueueResponse/ResponseMetadata/RequestId"))
			.matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")
			.isEqualTo(answer.headers().firstValue("x-amzn-RequestId").orElseThrow());
		Document attributes = xml(post("/000000000000/query-create", "Action", "GetQueueAttributes", "AttributeName.1",
				"VisibilityTimeout", "AttributeName.2", "QueueArn"));
		assertThat(texts(attributes, "/GetQueueAttributesResponse/GetQueueAttributesResult/Attribute/Name"))
			.containsExactlyInAnyOrder("VisibilityTimeout", "QueueArn");
		assertThat(text(attributes,
				"/GetQueueAttributesResponse/GetQueueAttributesResult/Attribute[Name='VisibilityTimeout']/Value"))
			.isEqualTo("60");
	}

	@Test
	void getWithQueryString_andQueueUrlInThePath() throws Exception {
		assertThat(get("/?Action=CreateQueue&QueueName=query-get&Version=2012-11-05").statusCode()).isEqualTo(200);

		HttpResponse<String> sent = get("/000000000000/query-get?Action=SendMessage&MessageBody=hello");
		assertThat(text(xml(sent), "/SendMessageResponse/SendMessageResult/MD5OfMessageBody"))
			.isEqualTo("5d41402abc4b2a76b9719d911017c592");
		Document received = xml(post("/", "Action", "ReceiveMessage", "QueueUrl",
				"http://127.0.0.1:" + this.port + "/000000000000/query-get", "AttributeName.1", "All"));
		assertThat(text(received, "/ReceiveMessageResponse/ReceiveMessageResult/Message/Body")).isEqualTo("hello");
		assertThat(text(received,
				"/ReceiveMessageResponse/ReceiveMessageResult/Message/Attribute[Name='ApproximateReceiveCount']/Value"))
			.isEqualTo("1");

		Document empty = xml(post("/000000000000/query-get", "Action", "ReceiveMessage"));
		assertThat(nodes(empty, "/ReceiveMessageResponse/ReceiveMessageResult/*").getLength()).isZero();
	}

	@Test
	void noResult_onlyResponseMetadata() throws Exception {
		post("/", "Action", "CreateQueue", "QueueName", "query-purge");

		HttpResponse<String> purged = post("/000000000000/query-purge", "Action", "PurgeQueue");

		assertThat(purged.statusCode()).isEqualTo(200);
		Document xml = xml(purged);
		assertThat(nodes(xml, "/PurgeQueueResponse/*").getLength()).isEqualTo(1);
		assertThat(text(xml, "/PurgeQueueResponse/ResponseMetadata/RequestId")).isNotBlank();
	}

	@Test
	void bodyWithMarkupAndCarriageReturns_arrivesAsSent() throws Exception {
		post("/", "Action", "CreateQueue", "QueueName", "query-markup");
		String body = "<a href=\"x\">&amp;</a>\r\n\tlast line\r";
		Document sent = xml(post("/000000000000/query-markup", "Action", "SendMessage", "MessageBody", body));

		Document received = xml(post("/000000000000/query-markup", "Action", "ReceiveMessage"));

		assertThat(text(received, "//Message/Body")).isEqualTo(body);
		assertThat(text(received, "//Message/MD5OfBody")).isEqualTo(text(sent, "//MD5OfMessageBody"))
			.isEqualTo(Md5.hex(body.getBytes(StandardCharsets.UTF_8)));
	}

	@Test
	void batch_entriesAndAttributes_flattened() throws Exception {
		post("/", "Action", "CreateQueue", "QueueName", "query-batch");

		Document sent = xml(post("/000000000000/query-batch", "Action", "SendMessageBatch",
				"SendMessageBatchRequestEntry.1.Id", "a", "SendMessageBatchRequestEntry.1.MessageBody", "first",
				"SendMessageBatchRequestEntry.1.MessageAttribute.1.Name", "kind",
				"SendMessageBatchRequestEntry.1.MessageAttribute.1.Value.DataType", "String",
				"SendMessageBatchRequestEntry.1.MessageAttribute.1.Value.StringValue", "order",
				"SendMessageBatchRequestEntry.2.Id", "b", "SendMessageBatchRequestEntry.2.MessageBody", ""));

		String result = "/SendMessageBatchResponse/SendMessageBatchResult/";
		assertThat(texts(sent, result + "SendMessageBatchResultEntry/Id")).containsExactly("a");
		assertThat(text(sent, result + "SendMessageBatchResultEntry/MD5OfMessageAttributes")).hasSize(32);
		assertThat(text(sent, result + "BatchResultErrorEntry/Id")).isEqualTo("b");
		assertThat(text(sent, result + "BatchResultErrorEntry/Code")).isEqualTo("MissingParameter");
		assertThat(text(sent, result + "BatchResultErrorEntry/SenderFault")).isEqualTo("true");

		Document received = xml(post("/000000000000/query-batch", "Action", "ReceiveMessage", "MessageAttributeName.1",
				"All", "MaxNumberOfMessages", "10"));
		String message = "/ReceiveMessageResponse/ReceiveMessageResult/Message/";
		assertThat(text(received, message + "MessageAttribute/Name")).isEqualTo("kind");
		assertThat(text(received, message + "MessageAttribute/Value/DataType")).isEqualTo("String");
		assertThat(text(received, message + "MessageAttribute/Value/StringValue")).isEqualTo("order");
		assertThat(text(received, message + "MD5OfMessageAttributes"))
			.isEqualTo(text(sent, result + "SendMessageBatchResultEntry/MD5OfMessageAttributes"));
	}

	@Test
	void error_documentWithTheQueryProtocolsCode() throws Exception {
		HttpResponse<String> answer = post("/", "Action", "GetQueueUrl", "QueueName", "query-no-such-queue");

		assertThat(answer.statusCode()).isEqualTo(400);
		assertThat(answer.headers().firstValue("Content-Type"))
			.hasValueSatisfying(type -> assertThat(type).startsWith("text/xml"));
		Document xml = xml(answer);
		assertThat(xml.getDocumentElement().getAttribute("xmlns")).isEqualTo(NAMESPACE);
		assertThat(text(xml, "/ErrorResponse/Error/Type")).isEqualTo("Sender");
		assertThat(text(xml, "/ErrorResponse/Error/Code")).isEqualTo("AWS.SimpleQueueService.NonExistentQueue");
		assertThat(text(xml, "/ErrorResponse/Error/Message")).isEqualTo("The specified queue does not exist.");
		assertThat(text(xml, "/ErrorResponse/RequestId")).isNotBlank();
		assertThat(answer.headers().firstValue("x-amzn-query-error")).isEmpty();
	}

	@Test
	void requestsNoSdkWouldSend_sqsErrors() throws Exception {
		post("/", "Action", "CreateQueue", "QueueName", "query-invalid");

		assertError(post("/", "QueueName", "x"), 400, "MissingAction");
		assertError(post("/", "Action", "Frobnicate"), 400, "InvalidAction");
		assertError(post("/", "Action", "ListQueues", "MaxResults", "ten"), 400, "InvalidParameterValue");
		assertError(post("/000000000000/query-invalid", "Action", "ReceiveMessage", "MaxNumberOfMessages", "11"), 400,
				"InvalidParameterValue");
		assertError(form("/", "Action=ListQueues&QueueNamePrefix=%zz"), 400, "InvalidParameterValue");
		assertError(post("/", "Action", "SendMessage", "MessageBody", "x"), 400, "MissingParameter");
		assertError(post("/000000000000/query-invalid", "Action", "SendMessage", "MessageBody", "x".repeat(1025)), 400,
				"InvalidParameterValue");
		assertError(post("/123456789012/query-invalid", "Action", "SendMessage", "MessageBody", "x"), 404, null);
		assertError(post("/000000000000/query-invalid/more", "Action", "SendMessage", "MessageBody", "x"), 400,
				"AWS.SimpleQueueService.NonExistentQueue");
		assertError(form("/", "Action=ListQueues&" + "x".repeat(4 * 1024 + 64 * 1024)), 400, "InvalidParameterValue");
	}

	@Test
	void sameQueuesAsTheJsonFace() throws Exception {
		HttpResponse<String> json = this.http.send("/", "POST",
				BodyPublishers.ofString("{\"QueueName\":\"query-and-json\"}"), SqsFace.CONTENT_TYPE, "X-Amz-Target",
				"AmazonSQS.CreateQueue");
		assertThat(json.statusCode()).isEqualTo(200);

		Document listed = xml(post("/", "Action", "ListQueues", "QueueNamePrefix", "query-and-"));

		assertThat(texts(listed, "/ListQueuesResponse/ListQueuesResult/QueueUrl"))
			.containsExactly("http://127.0.0.1:" + this.port + "/000000000000/query-and-json");
	}

	@Test
	void receive_waiting_answeredInXmlWhenWoken() throws Exception {
		post("/", "Action", "CreateQueue", "QueueName", "query-wait");
		CompletableFuture<HttpResponse<String>> waiting = this.http
			.sendAsync("/000000000000/query-wait?Action=ReceiveMessage&WaitTimeSeconds=10");
		awaitLongPolls("query-wait", 1);

		post("/000000000000/query-wait", "Action", "SendMessage", "MessageBody", "woken");

		HttpResponse<String> answer = waiting.get(8, TimeUnit.SECONDS);
		assertThat(answer.statusCode()).isEqualTo(200);
		assertThat(text(xml(answer), "/ReceiveMessageResponse/ReceiveMessageResult/Message/Body")).isEqualTo("woken");
	}

	@Test
	void notTheQueryProtocol_leftToTheRestOfTheService() {
		HttpResponse<String> page = this.http.send("/", "GET", BodyPublishers.noBody(), null, "Accept", "text/html");
		assertThat(page.statusCode()).isEqualTo(200);
		assertThat(page.headers().firstValue("Content-Type"))
			.hasValueSatisfying(type -> assertThat(type).startsWith("text/html"));

		HttpResponse<String> queuePath = get("/000000000000/query-none");
		assertThat(queuePath.statusCode()).isEqualTo(404);
		assertThat(queuePath.headers().firstValue("Content-Type"))
			.hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));

		HttpResponse<String> rest = form("/queues/query-rest/messages", "Action=SendMessage&MessageBody=x");
		assertThat(rest.statusCode()).as("the REST API never meets the query protocol").isEqualTo(201);
	}

	private HttpResponse<String> post(String path, String... members) {
		StringBuilder form = new StringBuilder();
		for (int i = 0; i < members.length; i += 2) {
			form.append((i == 0) ? "" : "&")
				.append(URLEncoder.encode(members[i], StandardCharsets.UTF_8))
				.append('=')
				.append(URLEncoder.encode(members[i + 1], StandardCharsets.UTF_8));
		}
		return form(path, form.toString());
	}

	private HttpResponse<String> form(String path, String form) {
		return this.http.send(path, "POST", BodyPublishers.ofString(form),
				"application/x-www-form-urlencoded; charset=utf-8");
	}

	private HttpResponse<String> get(String pathAndQuery) {
		return this.http.get(pathAndQuery);
	}

	private static void assertError(HttpResponse<String> answer, int status, String code) throws Exception {
		assertThat(answer.statusCode()).as(answer.body()).isEqualTo(status);
		if (code != null) {
			assertThat(text(xml(answer), "/ErrorResponse/Error/Code")).as(answer.body()).isEqualTo(code);
		}
	}

	/** The answer parsed without namespaces, so that XPath reads plain names. */
	private static Document xml(HttpResponse<String> answer) throws Exception {
		return DocumentBuilderFactory.newInstance()
			.newDocumentBuilder()
			.parse(new ByteArrayInputStream(answer.body().getBytes(StandardCharsets.UTF_8)));
	}

	private static NodeList nodes(Document xml, String path) throws Exception {
		return (NodeList) XPathFactory.newInstance().newXPath().evaluate(path, xml, XPathConstants.NODESET);
	}

	private static List<String> texts(Document xml, String path) throws Exception {
		NodeList nodes = nodes(xml, path);
		List<String> texts = new ArrayList<>();
		for (int i = 0; i < nodes.getLength(); i++) {
			texts.add(nodes.item(i).getTextContent());
		}
		return texts;
	}

	private static String text(Document xml, String path) throws Exception {
		List<String> texts = texts(xml, path);
		assertThat(texts).as(path).hasSize(1);
		return texts.get(0);
	}

}
