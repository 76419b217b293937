package io.github.qsbench.sqs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.github.qsbench.http.SuspendedRequests;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The query protocol's model and translation without a server: the errors' codes and
 * statuses as SQS's model gives them, an action without shapes refused, and the wire
 * forms botocore's query serializer and parser produce from the same model.
 */
class QueryModelTests {

	private final QueryModel model = QueryModel.load();

	private final QueryTranslation translation = new QueryTranslation(this.model);

	/**
	 * Each error the model describes (by the JSON code, its shape's name) has the model's
	 * query code and status; an error shape without them goes by its name and 400.
	 */
	@Test
	void errors_codesAndStatusesAsTheModelGivesThem() throws Exception {
		JsonNode shapes;
		try (InputStream in = QueryModel.class.getResourceAsStream(QueryModel.RESOURCE)) {
			shapes = JsonMapper.builder().build().readTree(in).get("shapes");
		}
		List<String> described = new ArrayList<>();
		for (SqsError error : SqsError.values()) {
			String shape = error.code();
			JsonNode modelled = shapes.get(shape);
			if (modelled == null || !modelled.path("exception").asBoolean(false)) {
				continue;
			}
			described.add(shape);
			JsonNode trait = modelled.get("error");
			assertThat(error.legacyCode()).as(shape)
				.isEqualTo((trait != null) ? trait.get("code").stringValue() : shape);
			assertThat(error.status()).as(shape)
				.isEqualTo((trait != null) ? trait.get("httpStatusCode").intValue() : 400);
			assertThat(error.isSenderFault()).as(shape).isTrue();
		}
		assertThat(described).contains("QueueDoesNotExist", "OverLimit", "MessageNotInflight", "ReceiptHandleIsInvalid",
				"EmptyBatchRequest", "UnsupportedOperation", "InvalidAttributeName", "QueueNameExists");
	}

	@Test
	void anActionWithoutShapes_refusedAtStartUp() {
		SqsActions actions = new SqsActions(List.of(() -> Map.of("Ping", call -> null)));

		assertThatIllegalStateException()
			.isThrownBy(() -> new QueryProtocol(actions, new QueueUrls(new SqsProperties("000000000000", "us-east-1")),
					1024, new SimpleMeterRegistry(), new SuspendedRequests(), null))
			.withMessageContaining("Ping");
	}

	@Test
	void members_flattenedListsMapsAndEntries() {
		TreeMap<String, String> form = new TreeMap<>(Map.of("QueueUrl", "http://h/000000000000/q",
				"SendMessageBatchRequestEntry.1.Id", "a", "SendMessageBatchRequestEntry.1.MessageBody", "one",
				"SendMessageBatchRequestEntry.1.DelaySeconds", "5",
				"SendMessageBatchRequestEntry.1.MessageAttribute.1.Name", "kind",
				"SendMessageBatchRequestEntry.1.MessageAttribute.1.Value.DataType", "String",
				"SendMessageBatchRequestEntry.1.MessageAttribute.1.Value.StringValue", "order",
				"SendMessageBatchRequestEntry.2.Id", "b", "SendMessageBatchRequestEntry.2.MessageBody", "two",
				"SendMessageBatchRequestEntry.4.Id", "after a gap: not read"));

		ObjectNode members = this.translation.members(this.model.operation("SendMessageBatch"), form);

		assertThat(members.toString()).isEqualTo("{\"QueueUrl\":\"http://h/000000000000/q\",\"Entries\":["
				+ "{\"Id\":\"a\",\"MessageBody\":\"one\",\"DelaySeconds\":5,"
				+ "\"MessageAttributes\":{\"kind\":{\"StringValue\":\"order\",\"DataType\":\"String\"}}},"
				+ "{\"Id\":\"b\",\"MessageBody\":\"two\"}]}");
		assertThat(this.translation
			.members(this.model.operation("CreateQueue"),
					new TreeMap<>(Map.of("QueueName", "q", "Attribute.1.Name", "DelaySeconds", "Attribute.1.Value", "0",
							"Tag.1.Key", "team", "Tag.1.Value", "a")))
			.toString())
			.isEqualTo("{\"QueueName\":\"q\",\"Attributes\":{\"DelaySeconds\":\"0\"},\"tags\":{\"team\":\"a\"}}");
		assertThat(this.translation
			.members(this.model.operation("ReceiveMessage"),
					new TreeMap<>(Map.of("AttributeName.1", "All", "MessageAttributeName.1", "a",
							"MessageAttributeName.2", "b.*", "MaxNumberOfMessages", "ten")))
			.toString()).as("a number that does not parse is left for the action to refuse")
			.isEqualTo("{\"AttributeNames\":[\"All\"],\"MessageAttributeNames\":[\"a\",\"b.*\"],"
					+ "\"MaxNumberOfMessages\":\"ten\"}");
		assertThat(this.translation
			.members(this.model.operation("UntagQueue"), new TreeMap<>(Map.of("TagKey.1", "x", "TagKey.2", "y")))
			.toString()).isEqualTo("{\"TagKeys\":[\"x\",\"y\"]}");
	}

	@Test
	void answer_flattenedElementsUnderTheResultWrapper() {
		JsonNodeFactory json = JsonNodeFactory.instance;
		ObjectNode received = json.objectNode();
		ObjectNode message = received.putArray("Messages").addObject().put("MessageId", "7").put("Body", "a<b&c\r\n");
		message.putObject("Attributes").put("ApproximateReceiveCount", "2");
		message.putObject("MessageAttributes").putObject("kind").put("DataType", "String").put("StringValue", "x");

		String xml = text(this.translation.answer(this.model.operation("ReceiveMessage"), received, "id-1"));

		assertThat(xml).isEqualTo("<?xml version=\"1.0\" encoding=\"UTF-8\"?><ReceiveMessageResponse xmlns=\""
				+ "http://queue.amazonaws.com/doc/2012-11-05/\"><ReceiveMessageResult><Message><MessageId>7</MessageId>"
				+ "<Body>a&lt;b&amp;c&#xD;\n</Body>"
				+ "<Attribute><Name>ApproximateReceiveCount</Name><Value>2</Value></Attribute>"
				+ "<MessageAttribute><Name>kind</Name><Value><StringValue>x</StringValue><DataType>String</DataType>"
				+ "</Value></MessageAttribute></Message></ReceiveMessageResult>"
				+ "<ResponseMetadata><RequestId>id-1</RequestId></ResponseMetadata></ReceiveMessageResponse>");

		ObjectNode batch = json.objectNode();
		batch.putArray("Successful").addObject().put("Id", "a");
		batch.putArray("Failed").addObject().put("Id", "b").put("SenderFault", true).put("Code", "X");
		assertThat(text(this.translation.answer(this.model.operation("DeleteMessageBatch"), batch, "id-2")))
			.contains("<DeleteMessageBatchResult><DeleteMessageBatchResultEntry><Id>a</Id>"
					+ "</DeleteMessageBatchResultEntry><BatchResultErrorEntry><Id>b</Id><SenderFault>true</SenderFault>"
					+ "<Code>X</Code></BatchResultErrorEntry></DeleteMessageBatchResult>");
		ObjectNode tags = json.objectNode();
		tags.putObject("Tags").put("team", "a");
		assertThat(text(this.translation.answer(this.model.operation("ListQueueTags"), tags, "id-3")))
			.contains("<ListQueueTagsResult><Tag><Key>team</Key><Value>a</Value></Tag></ListQueueTagsResult>");
	}

	@Test
	void error_document() {
		assertThat(
				text(this.translation.error(SqsError.INTERNAL_ERROR, "The service failed to process <this>.", "id-4")))
			.isEqualTo("<?xml version=\"1.0\" encoding=\"UTF-8\"?><ErrorResponse xmlns=\""
					+ "http://queue.amazonaws.com/doc/2012-11-05/\"><Error><Type>Receiver</Type><Code>InternalError"
					+ "</Code><Message>The service failed to process &lt;this&gt;.</Message><Detail/></Error>"
					+ "<RequestId>id-4</RequestId></ErrorResponse>");
	}

	private static String text(byte[] xml) {
		return new String(xml, StandardCharsets.UTF_8);
	}

}
