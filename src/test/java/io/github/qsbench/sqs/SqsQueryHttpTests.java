package io.github.qsbench.sqs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import com.amazonaws.services.sqs.model.AmazonSQSException;
import com.amazonaws.services.sqs.model.BatchEntryIdsNotDistinctException;
import com.amazonaws.services.sqs.model.ChangeMessageVisibilityBatchRequestEntry;
import com.amazonaws.services.sqs.model.ChangeMessageVisibilityBatchResult;
import com.amazonaws.services.sqs.model.CreateQueueRequest;
import com.amazonaws.services.sqs.model.DeleteMessageBatchRequestEntry;
import com.amazonaws.services.sqs.model.DeleteMessageBatchResult;
import com.amazonaws.services.sqs.model.EmptyBatchRequestException;
import com.amazonaws.services.sqs.model.GetQueueAttributesRequest;
import com.amazonaws.services.sqs.model.ListQueuesRequest;
import com.amazonaws.services.sqs.model.ListQueuesResult;
import com.amazonaws.services.sqs.model.Message;
import com.amazonaws.services.sqs.model.MessageAttributeValue;
import com.amazonaws.services.sqs.model.MessageNotInflightException;
import com.amazonaws.services.sqs.model.QueueDoesNotExistException;
import com.amazonaws.services.sqs.model.ReceiptHandleIsInvalidException;
import com.amazonaws.services.sqs.model.ReceiveMessageRequest;
import com.amazonaws.services.sqs.model.SendMessageBatchRequestEntry;
import com.amazonaws.services.sqs.model.SendMessageBatchResult;
import com.amazonaws.services.sqs.model.SendMessageRequest;
import com.amazonaws.services.sqs.model.SendMessageResult;
import com.amazonaws.services.sqs.model.SetQueueAttributesRequest;
import com.amazonaws.services.sqs.model.TooManyEntriesInBatchRequestException;
import org.junit.jupiter.api.Test;

import org.springframework.test.context.TestPropertySource;

/**
 * The query protocol driven by the AWS SDK for Java v1 (1.12.583, the last whose SQS
 * client speaks it), configured as docs/sqs.md shows: queues and their attributes, send,
 * receive (the SDK checks the MD5 of every body and of the message attributes), batches,
 * long polling, visibility, dead letters, purge and deletion, and SQS's errors as the
 * SDK's own exceptions, read from the query protocol's codes. The service's clock is
 * moved instead of sleeping.
 */
@TestPropertySource(properties = { "qs.lease-timeout=30s", "qs.max-message-size=256KB" })
class SqsQueryHttpTests extends SqsV1HttpTestBase {

	@Test
	void queues_createListGetUrlAndAttributes() {
		String url = this.sqs
			.createQueue(new CreateQueueRequest("v1-list-b").addAttributesEntry("VisibilityTimeout", "60")
				.addAttributesEntry("DelaySeconds", "0"))
			.getQueueUrl();
		this.sqs.createQueue("v1-list-a");

		assertThat(url).isEqualTo("http://localhost:" + this.port + "/000000000000/v1-list-b");
		assertThat(this.sqs.getQueueUrl("v1-list-b").getQueueUrl()).isEqualTo(url);
		assertThat(this.sqs.createQueue("v1-list-b").getQueueUrl()).as("idempotent").isEqualTo(url);
		assertThat(this.sqs.listQueues("v1-list-").getQueueUrls()).containsExactly(
				"http://localhost:" + this.port + "/000000000000/v1-list-a",
				"http://localhost:" + this.port + "/000000000000/v1-list-b");
		ListQueuesResult first = this.sqs.listQueues(new ListQueuesRequest("v1-list-").withMaxResults(1));
		assertThat(first.getQueueUrls()).containsExactly("http://localhost:" + this.port + "/000000000000/v1-list-a");
		ListQueuesResult second = this.sqs
			.listQueues(new ListQueuesRequest("v1-list-").withMaxResults(1).withNextToken(first.getNextToken()));
		assertThat(second.getQueueUrls()).containsExactly(url);
		assertThat(second.getNextToken()).isNull();

		assertThat(this.sqs.getQueueAttributes(url, List.of("VisibilityTimeout")).getAttributes())
			.containsExactly(Map.entry("VisibilityTimeout", "60"));
		this.sqs.setQueueAttributes(url, Map.of("VisibilityTimeout", "45", "MessageRetentionPeriod", "120"));
		Map<String, String> all = this.sqs.getQueueAttributes(url, List.of("All")).getAttributes();
		assertThat(all).containsEntry("VisibilityTimeout", "45")
			.containsEntry("MessageRetentionPeriod", "120")
			.containsEntry("QueueArn", "arn:aws:sqs:us-east-1:000000000000:v1-list-b")
			.containsEntry("ApproximateNumberOfMessages", "0")
			.containsKeys("ApproximateNumberOfMessagesNotVisible", "DelaySeconds", "MaximumMessageSize");
		assertThatExceptionOfType(AmazonSQSException.class)
			.isThrownBy(() -> this.sqs.setQueueAttributes(url, Map.of("MessageRetentionPeriod", "59")))
			.satisfies(ex -> assertThat(ex.getErrorCode()).isEqualTo("InvalidAttributeValue"));
	}

	@Test
	void send_receive_delete_sdkChecksMd5sOfBodiesAndAttributes() {
		String url = this.sqs.createQueue("v1-cycle").getQueueUrl();
		Map<String, MessageAttributeValue> attributes = Map.of("kind",
				new MessageAttributeValue().withDataType("String").withStringValue("order ✓"), "count",
				new MessageAttributeValue().withDataType("Number.int").withStringValue("42"), "blob",
				new MessageAttributeValue().withDataType("Binary")
					.withBinaryValue(ByteBuffer.wrap(new byte[] { 0, 1, (byte) 0xFF })));
		String body = "hello, query protocol: åäö € <&> \r\n\ttabbed";
		SendMessageResult sent = this.sqs
			.sendMessage(new SendMessageRequest(url, body).withMessageAttributes(attributes));

		List<Message> received = this.sqs
			.receiveMessage(new ReceiveMessageRequest(url).withMaxNumberOfMessages(10)
				.withAttributeNames("All")
				.withMessageAttributeNames("All"))
			.getMessages();

		assertThat(sent.getMD5OfMessageAttributes()).isNotNull();
		assertThat(received).hasSize(1);
		Message message = received.get(0);
		assertThat(message.getMessageId()).isEqualTo(sent.getMessageId());
		assertThat(message.getBody()).isEqualTo(body);
		assertThat(message.getMD5OfBody()).isEqualTo(sent.getMD5OfMessageBody());
		assertThat(message.getMessageAttributes()).isEqualTo(attributes);
		assertThat(message.getMD5OfMessageAttributes()).isEqualTo(sent.getMD5OfMessageAttributes());
		assertThat(message.getAttributes()).containsEntry("ApproximateReceiveCount", "1");
		assertThat(counts(url)).containsExactly(0, 1);
		this.sqs.deleteMessage(url, message.getReceiptHandle());
		this.sqs.deleteMessage(url, message.getReceiptHandle());
		assertThat(counts(url)).as("deleted; a retried delete does not fail").containsExactly(0, 0);
		assertThat(this.sqs.receiveMessage(url).getMessages()).isEmpty();
	}

	/**
	 * The largest body (256 KiB here), each of its bytes three in the form (a two-byte
	 * character is {@code %C3%A9}): read by the face, not by the container's form parsing
	 * and its own cap.
	 */
	@Test
	void largestBody_sentAndReceived() {
		String url = this.sqs.createQueue("v1-large").getQueueUrl();
		String body = "é".repeat(128 * 1024);

		this.sqs.sendMessage(url, body);

		assertThat(receiveOne(url).getBody()).isEqualTo(body);
		assertThatExceptionOfType(AmazonSQSException.class).isThrownBy(() -> this.sqs.sendMessage(url, body + "x"))
			.satisfies(ex -> assertThat(ex.getErrorCode()).isEqualTo("InvalidParameterValue"));
	}

	@Test
	void batches_sendReceiveDelete_eachEntryAnsweredOnItsOwn() {
		String url = this.sqs.createQueue("v1-batch").getQueueUrl();
		SendMessageBatchResult sent = this.sqs.sendMessageBatch(url,
				List.of(new SendMessageBatchRequestEntry("e0", "body 0").withMessageAttributes(
						Map.of("kind", new MessageAttributeValue().withDataType("String").withStringValue("first"))),
						new SendMessageBatchRequestEntry("e1", "body 1"),
						new SendMessageBatchRequestEntry("e2", "body 2").withDelaySeconds(901)));
		assertThat(sent.getSuccessful()).extracting(e -> e.getId()).containsExactly("e0", "e1");
		assertThat(sent.getSuccessful().get(0).getMD5OfMessageAttributes()).isNotNull();
		assertThat(sent.getFailed()).singleElement().satisfies(failed -> {
			assertThat(failed.getId()).isEqualTo("e2");
			assertThat(failed.getSenderFault()).isTrue();
			assertThat(failed.getCode()).isEqualTo("InvalidParameterValue");
		});

		List<Message> received = this.sqs
			.receiveMessage(new ReceiveMessageRequest(url).withMaxNumberOfMessages(10).withMessageAttributeNames("All"))
			.getMessages();
		assertThat(received).extracting(Message::getBody).containsExactly("body 0", "body 1");
		assertThat(received.get(0).getMessageAttributes()).containsOnlyKeys("kind");

		DeleteMessageBatchResult deleted = this.sqs.deleteMessageBatch(url,
				List.of(new DeleteMessageBatchRequestEntry("d0", received.get(0).getReceiptHandle()),
						new DeleteMessageBatchRequestEntry("d1", received.get(1).getReceiptHandle()),
						new DeleteMessageBatchRequestEntry("bad", "not-a-handle")));
		assertThat(deleted.getSuccessful()).extracting(e -> e.getId()).containsExactly("d0", "d1");
		assertThat(deleted.getFailed()).singleElement().satisfies(failed -> {
			assertThat(failed.getId()).isEqualTo("bad");
			assertThat(failed.getCode()).isEqualTo("ReceiptHandleIsInvalid");
		});
		assertThat(counts(url)).containsExactly(0, 0);

		assertThatExceptionOfType(EmptyBatchRequestException.class)
			.isThrownBy(() -> this.sqs.sendMessageBatch(url, List.of()));
		assertThatExceptionOfType(TooManyEntriesInBatchRequestException.class)
			.isThrownBy(() -> this.sqs.sendMessageBatch(url,
					IntStream.range(0, 11).mapToObj(i -> new SendMessageBatchRequestEntry("e" + i, "x")).toList()));
		assertThatExceptionOfType(BatchEntryIdsNotDistinctException.class).isThrownBy(() -> this.sqs.sendMessageBatch(
				url,
				List.of(new SendMessageBatchRequestEntry("same", "x"), new SendMessageBatchRequestEntry("same", "y"))));
	}

	@Test
	void visibility_changedSingleAndBatch_lapseRedelivers_staleHandleRefused() {
		String url = this.sqs.createQueue("v1-visibility").getQueueUrl();
		this.sqs.sendMessage(url, "slow work");
		Message first = receiveOne(url);
		this.clock.advance(Duration.ofSeconds(30));
		Message held = receiveOne(url);
		assertThat(held.getAttributes()).containsEntry("ApproximateReceiveCount", "2");
		assertThatExceptionOfType(ReceiptHandleIsInvalidException.class)
			.isThrownBy(() -> this.sqs.deleteMessage(url, first.getReceiptHandle()))
			.withMessageContaining("received again");

		this.sqs.changeMessageVisibility(url, held.getReceiptHandle(), 120);
		this.clock.advance(Duration.ofSeconds(60));
		assertThat(this.sqs.receiveMessage(url).getMessages()).as("extended").isEmpty();
		this.sqs.changeMessageVisibility(url, held.getReceiptHandle(), 0);
		Message again = receiveOne(url);
		assertThatExceptionOfType(MessageNotInflightException.class)
			.isThrownBy(() -> this.sqs.changeMessageVisibility(url, held.getReceiptHandle(), 10));

		ChangeMessageVisibilityBatchResult batch = this.sqs.changeMessageVisibilityBatch(url,
				List.of(new ChangeMessageVisibilityBatchRequestEntry("current", again.getReceiptHandle())
					.withVisibilityTimeout(300),
						new ChangeMessageVisibilityBatchRequestEntry("stale", first.getReceiptHandle())
							.withVisibilityTimeout(300)));
		assertThat(batch.getSuccessful()).extracting(e -> e.getId()).containsExactly("current");
		assertThat(batch.getFailed()).singleElement().satisfies(failed -> {
			assertThat(failed.getId()).isEqualTo("stale");
			assertThat(failed.getCode()).isEqualTo("MessageNotInflight");
		});
		this.clock.advance(Duration.ofSeconds(299));
		assertThat(this.sqs.receiveMessage(url).getMessages()).isEmpty();
		this.sqs.deleteMessage(url, again.getReceiptHandle());
		assertThat(counts(url)).containsExactly(0, 0);
	}

	@Test
	void receive_waitTimeSeconds_wokenBySend() throws Exception {
		String url = this.sqs.createQueue("v1-long-poll").getQueueUrl();
		long start = System.nanoTime();
		CompletableFuture<List<Message>> waiting = CompletableFuture.supplyAsync(
				() -> this.sqs.receiveMessage(new ReceiveMessageRequest(url).withWaitTimeSeconds(15)).getMessages());
		awaitLongPolls("v1-long-poll", 1);

		this.sqs.sendMessage(url, "wake up");

		assertThat(waiting.get(10, TimeUnit.SECONDS)).extracting(Message::getBody).containsExactly("wake up");
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
		assertThat(this.sqs.receiveMessage(new ReceiveMessageRequest(url).withWaitTimeSeconds(1)).getMessages())
			.as("a wait that ends with nothing")
			.isEmpty();
	}

	@Test
	void redrivePolicy_deadLetterAfterMaxReceiveCount_listedSources() {
		String dlq = this.sqs.createQueue("v1-dlq").getQueueUrl();
		String dlqArn = this.sqs.getQueueAttributes(dlq, List.of("QueueArn")).getAttributes().get("QueueArn");
		String url = this.sqs.createQueue(new CreateQueueRequest("v1-dlq-source").addAttributesEntry("RedrivePolicy",
				"{\"deadLetterTargetArn\":\"" + dlqArn + "\",\"maxReceiveCount\":\"2\"}"))
			.getQueueUrl();
		this.sqs.sendMessage(url, "poison");

		receiveOne(url);
		this.clock.advance(Duration.ofSeconds(30));
		receiveOne(url);
		this.clock.advance(Duration.ofSeconds(30));

		assertThat(this.sqs.receiveMessage(url).getMessages()).as("moved, not received a third time").isEmpty();
		assertThat(receiveOne(dlq).getBody()).isEqualTo("poison");
		assertThat(this.sqs
			.listDeadLetterSourceQueues(
					new com.amazonaws.services.sqs.model.ListDeadLetterSourceQueuesRequest().withQueueUrl(dlq))
			.getQueueUrls()).containsExactly(url);
		assertThat(this.sqs.getQueueAttributes(url, List.of("RedrivePolicy")).getAttributes().get("RedrivePolicy"))
			.contains(dlqArn)
			.contains("\"maxReceiveCount\":2");
	}

	@Test
	void purgeThenDeleteQueue_thenItsUrlDoesNotExist() {
		String url = this.sqs.createQueue("v1-purge").getQueueUrl();
		this.sqs.sendMessage(url, "held");
		this.sqs.sendMessage(url, "ready");
		Message held = receiveOne(url);

		this.sqs.purgeQueue(new com.amazonaws.services.sqs.model.PurgeQueueRequest(url));

		assertThat(counts(url)).containsExactly(0, 0);
		this.sqs.deleteMessage(url, held.getReceiptHandle());
		this.sqs.deleteQueue(url);
		assertThatExceptionOfType(QueueDoesNotExistException.class).isThrownBy(() -> this.sqs.getQueueUrl("v1-purge"))
			.satisfies(ex -> {
				assertThat(ex.getErrorCode()).isEqualTo("AWS.SimpleQueueService.NonExistentQueue");
				assertThat(ex.getStatusCode()).isEqualTo(400);
				assertThat(ex.getErrorType()).isEqualTo(AmazonSQSException.ErrorType.Client);
				assertThat(ex.getRequestId()).isNotBlank();
			});
		assertThatExceptionOfType(QueueDoesNotExistException.class).isThrownBy(() -> this.sqs.sendMessage(url, "x"));
		assertThatExceptionOfType(QueueDoesNotExistException.class)
			.isThrownBy(() -> this.sqs.getQueueAttributes(new GetQueueAttributesRequest(url)));
	}

	@Test
	void invalidInput_sqsErrorCodes() {
		String url = this.sqs.createQueue("v1-invalid").getQueueUrl();

		assertThatExceptionOfType(AmazonSQSException.class)
			.isThrownBy(() -> this.sqs.receiveMessage(new ReceiveMessageRequest(url).withMaxNumberOfMessages(11)))
			.satisfies(ex -> assertThat(ex.getErrorCode()).isEqualTo("InvalidParameterValue"));
		assertThatExceptionOfType(AmazonSQSException.class)
			.isThrownBy(() -> this.sqs.getQueueAttributes(url, List.of("Colour")))
			.satisfies(ex -> assertThat(ex.getErrorCode()).isEqualTo("InvalidAttributeName"));
		assertThatExceptionOfType(AmazonSQSException.class).isThrownBy(() -> this.sqs.createQueue("bad.name"))
			.satisfies(ex -> assertThat(ex.getErrorCode()).isEqualTo("InvalidParameterValue"));
		assertThatExceptionOfType(AmazonSQSException.class)
			.isThrownBy(() -> this.sqs.getQueueUrl("v1-invalid-" + "x".repeat(80)))
			.satisfies(ex -> assertThat(ex.getErrorCode()).isEqualTo("AWS.SimpleQueueService.NonExistentQueue"));
	}

	/**
	 * Found by the conformance suite: a SetQueueAttributes without {@code Attribute.N}
	 * succeeded, and ListDeadLetterSourceQueues ignored {@code MaxResults}.
	 */
	@Test
	void requiredAndRanges_ofSetQueueAttributesAndListDeadLetterSourceQueues() {
		String url = this.sqs.createQueue("v1-required").getQueueUrl();

		assertThatExceptionOfType(AmazonSQSException.class)
			.isThrownBy(() -> this.sqs.setQueueAttributes(new SetQueueAttributesRequest().withQueueUrl(url)))
			.satisfies(ex -> assertThat(ex.getErrorCode()).isEqualTo("MissingParameter"));
		assertThatExceptionOfType(AmazonSQSException.class)
			.isThrownBy(() -> this.sqs.listDeadLetterSourceQueues(
					new com.amazonaws.services.sqs.model.ListDeadLetterSourceQueuesRequest().withQueueUrl(url)
						.withMaxResults(1001)))
			.satisfies(ex -> assertThat(ex.getErrorCode()).isEqualTo("InvalidParameterValue"));
	}

	private Message receiveOne(String url) {
		List<Message> messages = this.sqs
			.receiveMessage(new ReceiveMessageRequest(url).withAttributeNames("ApproximateReceiveCount"))
			.getMessages();
		assertThat(messages).hasSize(1);
		return messages.get(0);
	}

	/** Ready and in-flight counts, as GetQueueAttributes answers them. */
	private List<Integer> counts(String url) {
		Map<String, String> attributes = this.sqs
			.getQueueAttributes(url, List.of("ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"))
			.getAttributes();
		return List.of(Integer.parseInt(attributes.get("ApproximateNumberOfMessages")),
				Integer.parseInt(attributes.get("ApproximateNumberOfMessagesNotVisible")));
	}

}
