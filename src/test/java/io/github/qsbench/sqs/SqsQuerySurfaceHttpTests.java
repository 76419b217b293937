package io.github.qsbench.sqs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.amazonaws.AmazonServiceException.ErrorType;
import com.amazonaws.services.sqs.model.AmazonSQSException;
import com.amazonaws.services.sqs.model.CreateQueueRequest;
import com.amazonaws.services.sqs.model.ListMessageMoveTasksRequest;
import com.amazonaws.services.sqs.model.ListMessageMoveTasksResultEntry;
import com.amazonaws.services.sqs.model.Message;
import com.amazonaws.services.sqs.model.MessageAttributeValue;
import com.amazonaws.services.sqs.model.MessageSystemAttributeValue;
import com.amazonaws.services.sqs.model.ReceiveMessageRequest;
import com.amazonaws.services.sqs.model.SendMessageBatchRequest;
import com.amazonaws.services.sqs.model.SendMessageBatchRequestEntry;
import com.amazonaws.services.sqs.model.SendMessageBatchResult;
import com.amazonaws.services.sqs.model.SendMessageRequest;
import com.amazonaws.services.sqs.model.SendMessageResult;
import com.amazonaws.services.sqs.model.StartMessageMoveTaskRequest;
import org.awaitility.Awaitility;

import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

/**
 * What the SQS surface gained beyond standard queues, through the AWS SDK for Java v1
 * (the query protocol): FIFO queues, tags, a message move task, SQS's 1 MiB message at
 * the service's default size, a trace header, and SQS's characters.
 */
@TestPropertySource(properties = "qs.lease-timeout=30s")
class SqsQuerySurfaceHttpTests extends SqsV1HttpTestBase {

	@Test
	void fifo_groupInOrder_oneInFlight_duplicatesAnsweredAsTheOriginal() {
		String url = this.sqs
			.createQueue(new CreateQueueRequest("v1-orders.fifo").addAttributesEntry("FifoQueue", "true")
				.addAttributesEntry("ContentBasedDeduplication", "true"))
			.getQueueUrl();
		SendMessageResult first = this.sqs.sendMessage(new SendMessageRequest(url, "a1").withMessageGroupId("a"));
		SendMessageResult again = this.sqs.sendMessage(new SendMessageRequest(url, "a1").withMessageGroupId("a"));
		this.sqs.sendMessage(new SendMessageRequest(url, "a2").withMessageGroupId("a"));
		this.sqs.sendMessage(new SendMessageRequest(url, "b1").withMessageGroupId("b"));

		assertThat(again.getMessageId()).isEqualTo(first.getMessageId());
		assertThat(again.getSequenceNumber()).isEqualTo(first.getSequenceNumber()).hasSize(20);
		List<Message> received = this.sqs
			.receiveMessage(new ReceiveMessageRequest(url).withMaxNumberOfMessages(10).withAttributeNames("All"))
			.getMessages();
		assertThat(received).extracting(Message::getBody).containsExactly("a1", "b1");
		assertThat(received.get(0).getAttributes()).containsEntry("MessageGroupId", "a")
			.containsEntry("SequenceNumber", first.getSequenceNumber());
		assertThat(this.sqs.receiveMessage(new ReceiveMessageRequest(url).withMaxNumberOfMessages(10)).getMessages())
			.isEmpty();
		this.sqs.deleteMessage(url, received.get(0).getReceiptHandle());
		assertThat(this.sqs.receiveMessage(url).getMessages()).extracting(Message::getBody).containsExactly("a2");
		assertThat(this.sqs.getQueueAttributes(url, List.of("FifoQueue")).getAttributes()).containsEntry("FifoQueue",
				"true");
		assertThatExceptionOfType(AmazonSQSException.class).isThrownBy(() -> this.sqs.sendMessage(url, "no group"))
			.satisfies(ex -> assertThat(ex.getErrorCode()).isEqualTo("MissingParameter"));
	}

	@Test
	void tags_onCreateAndAfter() {
		String url = this.sqs.createQueue(new CreateQueueRequest("v1-tagged").addTagsEntry("team", "payments"))
			.getQueueUrl();
		this.sqs.tagQueue(url, Map.of("cost-centre", "42"));
		this.sqs.untagQueue(url, List.of("team"));

		assertThat(this.sqs.listQueueTags(url).getTags()).containsExactly(Map.entry("cost-centre", "42"));
	}

	@Test
	void moveTask_deadLettersBackToTheirSource() {
		String dlq = this.sqs.createQueue("v1-move-dlq").getQueueUrl();
		String arn = this.sqs.getQueueAttributes(dlq, List.of("QueueArn")).getAttributes().get("QueueArn");
		String source = this.sqs
			.createQueue(new CreateQueueRequest("v1-move-source").addAttributesEntry("RedrivePolicy",
					"{\"deadLetterTargetArn\":\"" + arn + "\",\"maxReceiveCount\":\"1\"}"))
			.getQueueUrl();
		this.sqs.sendMessage(source, "poison");
		this.sqs.receiveMessage(new ReceiveMessageRequest(source).withVisibilityTimeout(0));
		assertThat(this.sqs.receiveMessage(source).getMessages()).as("moved to the dead-letter queue").isEmpty();

		assertThat(this.sqs.startMessageMoveTask(new StartMessageMoveTaskRequest().withSourceArn(arn)).getTaskHandle())
			.isNotEmpty();

		Awaitility.await().atMost(10, TimeUnit.SECONDS).untilAsserted(() -> {
			ListMessageMoveTasksResultEntry task = this.sqs
				.listMessageMoveTasks(new ListMessageMoveTasksRequest().withSourceArn(arn))
				.getResults()
				.get(0);
			assertThat(task.getStatus()).isEqualTo("COMPLETED");
			assertThat(task.getApproximateNumberOfMessagesMoved()).isEqualTo(1);
		});
		assertThat(this.sqs.receiveMessage(source).getMessages()).extracting(Message::getBody)
			.containsExactly("poison");
	}

	@Test
	void traceHeader_storedAndReturnedWhenAsked_withItsMd5() {
		String url = this.sqs.createQueue("v1-traced").getQueueUrl();
		MessageSystemAttributeValue trace = new MessageSystemAttributeValue().withDataType("String")
			.withStringValue(SqsHttpTests.TRACE);

		SendMessageResult sent = this.sqs.sendMessage(
				new SendMessageRequest(url, "traced").addMessageSystemAttributesEntry("AWSTraceHeader", trace));
		SendMessageBatchResult batch = this.sqs.sendMessageBatch(new SendMessageBatchRequest(url).withEntries(
				new SendMessageBatchRequestEntry("one", "batched").addMessageSystemAttributesEntry("AWSTraceHeader",
						trace),
				new SendMessageBatchRequestEntry("two", "other name").addMessageSystemAttributesEntry("Colour",
						trace)));

		assertThat(sent.getMD5OfMessageSystemAttributes()).isEqualTo(SqsHttpTests.md5OfTraceHeader(SqsHttpTests.TRACE));
		assertThat(batch.getSuccessful()).extracting(e -> e.getId() + " " + e.getMD5OfMessageSystemAttributes())
			.containsExactly("one " + SqsHttpTests.md5OfTraceHeader(SqsHttpTests.TRACE));
		assertThat(batch.getFailed()).extracting(e -> e.getId() + " " + e.getCode())
			.containsExactly("two InvalidParameterValue");
		assertThat(this.sqs.receiveMessage(new ReceiveMessageRequest(url).withVisibilityTimeout(0)).getMessages())
			.singleElement()
			.satisfies(message -> assertThat(message.getAttributes()).isEmpty());
		assertThat(this.sqs
			.receiveMessage(
					new ReceiveMessageRequest(url).withMaxNumberOfMessages(10).withAttributeNames("AWSTraceHeader"))
			.getMessages()).extracting(message -> message.getBody() + " " + message.getAttributes())
			.containsExactly("traced {AWSTraceHeader=" + SqsHttpTests.TRACE + "}",
					"batched {AWSTraceHeader=" + SqsHttpTests.TRACE + "}");
	}

	@Test
	void characters_outsideSqsSet_refusedInBodiesAndStringAttributes_allowedBoundariesCarriedInXml() {
		String url = this.sqs.createQueue("v1-characters").getQueueUrl();

		for (String refused : SqsHttpTests.REFUSED_CHARACTERS) {
			String text = "a" + refused + "b";
			assertThatExceptionOfType(AmazonSQSException.class).isThrownBy(() -> this.sqs.sendMessage(url, text))
				.satisfies(ex -> assertThat(ex.getErrorCode()).isEqualTo("InvalidMessageContents"));
			assertThatExceptionOfType(AmazonSQSException.class)
				.isThrownBy(
						() -> this.sqs.sendMessage(new SendMessageRequest(url, "fine").addMessageAttributesEntry("k",
								new MessageAttributeValue().withDataType("String").withStringValue(text))))
				.satisfies(ex -> {
					assertThat(ex.getErrorCode()).isEqualTo("InvalidMessageContents");
					assertThat(ex.getStatusCode()).isEqualTo(400);
					assertThat(ex.getErrorType()).isEqualTo(ErrorType.Client);
				});
		}
		for (String allowed : SqsHttpTests.ALLOWED_CHARACTERS) {
			this.sqs.sendMessage(new SendMessageRequest(url, "a" + allowed + "b").addMessageAttributesEntry("k",
					new MessageAttributeValue().withDataType("String").withStringValue(allowed)));
			List<Message> received = this.sqs
				.receiveMessage(new ReceiveMessageRequest(url).withMessageAttributeNames("All"))
				.getMessages();
			assertThat(received).singleElement().satisfies(message -> {
				assertThat(message.getBody()).isEqualTo("a" + allowed + "b");
				assertThat(message.getMessageAttributes().get("k").getStringValue()).isEqualTo(allowed);
			});
			this.sqs.deleteMessage(url, received.get(0).getReceiptHandle());
		}
	}

	@Test
	void messageOfOneMebibyte_carried_oneByteMore_refused() {
		String url = this.sqs.createQueue("v1-large").getQueueUrl();
		String largest = "x".repeat(1_048_576);

		this.sqs.sendMessage(url, largest);

		assertThat(this.sqs.receiveMessage(url).getMessages()).extracting(Message::getBody).containsExactly(largest);
		assertThatExceptionOfType(AmazonSQSException.class).isThrownBy(() -> this.sqs.sendMessage(url, largest + "x"))
			.satisfies(ex -> assertThat(ex.getErrorCode()).isEqualTo("InvalidParameterValue"));
	}

}
