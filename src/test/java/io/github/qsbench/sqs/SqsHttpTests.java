package io.github.qsbench.sqs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import io.github.qsbench.http.HttpClientSupport;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.awaitility.Awaitility;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.sqs.model.BatchEntryIdsNotDistinctException;
import software.amazon.awssdk.services.sqs.model.BatchRequestTooLongException;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchResponse;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchResultEntry;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.EmptyBatchRequestException;
import software.amazon.awssdk.services.sqs.model.ListDeadLetterSourceQueuesResponse;
import software.amazon.awssdk.services.sqs.model.ListQueuesResponse;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.MessageNotInflightException;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeNameForSends;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeValue;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueDoesNotExistException;
import software.amazon.awssdk.services.sqs.model.ReceiptHandleIsInvalidException;
import software.amazon.awssdk.services.sqs.model.ReceiveMessageResponse;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.SendMessageResponse;
import software.amazon.awssdk.services.sqs.model.SqsException;
import software.amazon.awssdk.services.sqs.model.TooManyEntriesInBatchRequestException;

import org.junit.jupiter.api.Test;

import org.springframework.test.context.TestPropertySource;

/**
 * The SQS face driven by the AWS SDK for Java v2, configured as docs/sqs.md shows:
 * queues, send, batches, receive (the SDK checks every MD5), long polling, a visibility
 * timeout that lapses (the test moves the service's clock), a stale receipt handle,
 * deletes, and SQS's errors as the SDK's own exceptions.
 */
@TestPropertySource(properties = "qs.lease-timeout=30s")
class SqsHttpTests extends SqsV2HttpTestBase {

	@Test
	void createQueue_getUrlAndListed_pagedByName() {
		String url = create("sdk-list-b");
		create("sdk-list-a");

		assertThat(url).isEqualTo("http://localhost:" + this.port + "/000000000000/sdk-list-b");
		assertThat(this.sqs.getQueueUrl(q -> q.queueName("sdk-list-b")).queueUrl()).isEqualTo(url);
		assertThat(create("sdk-list-b")).as("idempotent").isEqualTo(url);
		assertThat(this.sqs.listQueues(q -> q.queueNamePrefix("sdk-list-")).queueUrls()).containsExactly(
				"http://localhost:" + this.port + "/000000000000/sdk-list-a",
				"http://localhost:" + this.port + "/000000000000/sdk-list-b");
		ListQueuesResponse first = this.sqs.listQueues(q -> q.queueNamePrefix("sdk-list-").maxResults(1));
		assertThat(first.queueUrls()).containsExactly("http://localhost:" + this.port + "/000000000000/sdk-list-a");
		ListQueuesResponse second = this.sqs
			.listQueues(q -> q.queueNamePrefix("sdk-list-").maxResults(1).nextToken(first.nextToken()));
		assertThat(second.queueUrls()).containsExactly(url);
		assertThat(second.nextToken()).isNull();
	}

	@Test
	void listQueues_createdQueueEmptied_stillListed() {
		String url = create("sdk-emptied-listed");
		this.sqs.sendMessage(m -> m.queueUrl(url).messageBody("gone"));
		Message received = receiveOne(url);
		this.sqs.deleteMessage(d -> d.queueUrl(url).receiptHandle(received.receiptHandle()));

		assertThat(this.sqs.listQueues(q -> q.queueNamePrefix("sdk-emptied-listed")).queueUrls()).containsExactly(url);
	}

	@Test
	void createQueue_visibilityTimeoutOfItsOwn_otherAttributesOnlyAsEveryQueueHasThem() {
		String url = this.sqs
			.createQueue(q -> q.queueName("sdk-visibility-own")
				.attributes(Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "60", QueueAttributeName.DELAY_SECONDS, "0")))
			.queueUrl();
		assertThat(
				this.sqs.getQueueAttributes(g -> g.queueUrl(url).attributeNames(QueueAttributeName.VISIBILITY_TIMEOUT))
					.attributesAsStrings())
			.containsExactly(Map.entry("VisibilityTimeout", "60"));
		this.sqs.sendMessage(m -> m.queueUrl(url).messageBody("leased for the queue's 60 s"));
		receiveOne(url);
		this.clock.advance(Duration.ofSeconds(30));
		assertThat(this.sqs.receiveMessage(r -> r.queueUrl(url)).messages()).as("past the service's 30 s").isEmpty();
		this.clock.advance(Duration.ofSeconds(30));
		assertThat(receiveOne(url).attributes()).containsEntry(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT,
				"2");

		String retained = this.sqs
			.createQueue(q -> q.queueName("sdk-retention")
				.attributes(Map.of(QueueAttributeName.MESSAGE_RETENTION_PERIOD, "120")))
			.queueUrl();
		assertThat(this.sqs
			.getQueueAttributes(g -> g.queueUrl(retained).attributeNames(QueueAttributeName.MESSAGE_RETENTION_PERIOD))
			.attributesAsStrings()).containsExactly(Map.entry("MessageRetentionPeriod", "120"));
		assertThatExceptionOfType(SqsException.class)
			.isThrownBy(() -> this.sqs.setQueueAttributes(
					s -> s.queueUrl(retained).attributes(Map.of(QueueAttributeName.MESSAGE_RETENTION_PERIOD, "59"))))
			.satisfies(ex -> assertThat(ex.awsErrorDetails().errorCode()).isEqualTo("InvalidAttributeValue"));
		assertThatExceptionOfType(SqsException.class)
			.isThrownBy(() -> this.sqs.createQueue(
					q -> q.queueName("sdk-retained").attributes(Map.of(QueueAttributeName.POLICY, "{not json"))))
			.satisfies(ex -> assertThat(ex.awsErrorDetails().errorCode()).isEqualTo("InvalidAttributeValue"));
		assertThatExceptionOfType(QueueDoesNotExistException.class)
			.isThrownBy(() -> this.sqs.getQueueUrl(q -> q.queueName("sdk-retained")));
	}

	/**
	 * A receive's own visibility timeout, then the holder's changes: extended past the
	 * queue's, then given back at once (0), after which the old handle is no longer in
	 * flight; the batch form fails per entry.
	 */
	/**
	 * Delays as the SDK sends them: the queue's own, a send's, a batch's per entry;
	 * counted as delayed, received only once due, and a receive waiting on the queue is
	 * woken then (its wake-up runs on real time: one second).
	 */
	@Test
	void delays_queueSendAndBatch_countedAndReceivedWhenDue() throws Exception {
		String url = this.sqs
			.createQueue(q -> q.queueName("sdk-delays").attributes(Map.of(QueueAttributeName.DELAY_SECONDS, "60")))
			.queueUrl();
		assertThat(this.sqs.getQueueAttributes(g -> g.queueUrl(url).attributeNames(QueueAttributeName.DELAY_SECONDS))
			.attributesAsStrings()).containsExactly(Map.entry("DelaySeconds", "60"));
		this.sqs.sendMessage(m -> m.queueUrl(url).messageBody("queue's 60 s"));
		this.sqs.sendMessage(m -> m.queueUrl(url).messageBody("now").delaySeconds(0));
		SendMessageBatchResponse batch = this.sqs.sendMessageBatch(b -> b.queueUrl(url)
			.entries(entry("ten", "10 s").toBuilder().delaySeconds(10).build(),
					entry("twenty", "20 s").toBuilder().delaySeconds(20).build()));
		assertThat(batch.successful()).hasSize(2);

		assertThat(delayedCounts(url)).containsExactly(1, 0, 3);
		assertThat(take(url)).isEqualTo("now");
		this.clock.advance(Duration.ofSeconds(10));
		assertThat(take(url)).isEqualTo("10 s");
		assertThat(delayedCounts(url)).containsExactly(0, 0, 2);

		CompletableFuture<List<Message>> waiting = CompletableFuture
			.supplyAsync(() -> this.sqs.receiveMessage(r -> r.queueUrl(url).waitTimeSeconds(20).maxNumberOfMessages(10))
				.messages());
		long start = System.nanoTime();
		awaitLongPolls("sdk-delays", 1);
		this.sqs.sendMessage(m -> m.queueUrl(url).messageBody("one second").delaySeconds(1));
		this.clock.advance(Duration.ofSeconds(1));
		List<Message> woken = waiting.get(10, TimeUnit.SECONDS);
		assertThat(woken).extracting(Message::body).containsExactly("one second");
		this.sqs.deleteMessage(d -> d.queueUrl(url).receiptHandle(woken.get(0).receiptHandle()));
		assertThat(Duration.ofNanos(System.nanoTime() - start)).as("woken when due, not at the wait's end")
			.isLessThan(Duration.ofSeconds(10));

		this.clock.advance(Duration.ofSeconds(49));
		assertThat(this.sqs.receiveMessage(r -> r.queueUrl(url).maxNumberOfMessages(10)).messages())
			.extracting(Message::body)
			.containsExactlyInAnyOrder("20 s", "queue's 60 s");
		assertThat(delayedCounts(url)).containsExactly(0, 2, 0);
	}

	@Test
	void visibilityTimeout_perReceive_andChanged_handleStaysValid() {
		String url = create("sdk-visibility");
		this.sqs.sendMessage(m -> m.queueUrl(url).messageBody("slow work"));
		Message brief = this.sqs.receiveMessage(r -> r.queueUrl(url).visibilityTimeout(5)).messages().get(0);
		this.clock.advance(Duration.ofSeconds(5));
		Message held = receiveOne(url);
		assertThat(held.attributes()).containsEntry(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT, "2");

		this.sqs
			.changeMessageVisibility(c -> c.queueUrl(url).receiptHandle(held.receiptHandle()).visibilityTimeout(120));
		this.clock.advance(Duration.ofSeconds(60));
		assertThat(this.sqs.receiveMessage(r -> r.queueUrl(url)).messages()).as("extended").isEmpty();
		assertThat(counts(url)).containsExactly(0, 1);
		this.sqs.changeMessageVisibility(c -> c.queueUrl(url).receiptHandle(held.receiptHandle()).visibilityTimeout(0));
		Message again = receiveOne(url);
		assertThat(again.attributes()).containsEntry(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT, "3");

		assertThatExceptionOfType(MessageNotInflightException.class).isThrownBy(() -> this.sqs
			.changeMessageVisibility(c -> c.queueUrl(url).receiptHandle(held.receiptHandle()).visibilityTimeout(10)));
		ChangeMessageVisibilityBatchResponse batch = this.sqs.changeMessageVisibilityBatch(c -> c.queueUrl(url)
			.entries(
					ChangeMessageVisibilityBatchRequestEntry.builder()
						.id("current")
						.receiptHandle(again.receiptHandle())
						.visibilityTimeout(300)
						.build(),
					ChangeMessageVisibilityBatchRequestEntry.builder()
						.id("stale")
						.receiptHandle(brief.receiptHandle())
						.visibilityTimeout(300)
						.build()));
		assertThat(batch.successful()).extracting(ChangeMessageVisibilityBatchResultEntry::id)
			.containsExactly("current");
		assertThat(batch.failed()).singleElement().satisfies(failure -> {
			assertThat(failure.id()).isEqualTo("stale");
			assertThat(failure.code()).isEqualTo("MessageNotInflight");
			assertThat(failure.senderFault()).isTrue();
		});
		this.clock.advance(Duration.ofSeconds(299));
		assertThat(this.sqs.receiveMessage(r -> r.queueUrl(url)).messages()).isEmpty();
		this.sqs.deleteMessage(d -> d.queueUrl(url).receiptHandle(again.receiptHandle()));
		assertThat(counts(url)).containsExactly(0, 0);
		assertThatExceptionOfType(SqsException.class)
			.isThrownBy(() -> this.sqs.changeMessageVisibility(
					c -> c.queueUrl(url).receiptHandle(again.receiptHandle()).visibilityTimeout(10)))
			.withMessageContaining("not available for visibility timeout change");
	}

	@Test
	void changeMessageVisibilityBatch_entriesActInTheirOrder_eachAnsweredOnItsOwn() {
		String url = create("sdk-visibility-batch");
		this.sqs.sendMessageBatch(b -> b.queueUrl(url).entries(entry("1", "a"), entry("2", "b"), entry("3", "c")));
		Map<String, String> handles = new HashMap<>();
		for (Message message : this.sqs.receiveMessage(r -> r.queueUrl(url).maxNumberOfMessages(3)).messages()) {
			handles.put(message.body(), message.receiptHandle());
		}
		assertThat(handles).containsOnlyKeys("a", "b", "c");

		ChangeMessageVisibilityBatchResponse batch = this.sqs.changeMessageVisibilityBatch(c -> c.queueUrl(url)
			.entries(visibility("a-now", handles.get("a"), 0), visibility("b-long", handles.get("b"), 300),
					visibility("b-shorter", handles.get("b"), 60), visibility("bogus", "not-a-handle", 10),
					visibility("c-long", handles.get("c"), 300)));

		assertThat(batch.successful()).extracting(ChangeMessageVisibilityBatchResultEntry::id)
			.containsExactly("a-now", "b-long", "b-shorter", "c-long");
		assertThat(batch.failed()).singleElement().satisfies(failure -> {
			assertThat(failure.id()).isEqualTo("bogus");
			assertThat(failure.code()).isEqualTo("ReceiptHandleIsInvalid");
		});
		assertThat(take(url)).as("visible at once").isEqualTo("a");
		this.clock.advance(Duration.ofSeconds(59));
		assertThat(this.sqs.receiveMessage(r -> r.queueUrl(url)).messages()).isEmpty();
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(take(url)).as("the later entry's 60 s, not the earlier one's 300").isEqualTo("b");
		this.clock.advance(Duration.ofSeconds(239));
		assertThat(this.sqs.receiveMessage(r -> r.queueUrl(url)).messages()).isEmpty();
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(take(url)).isEqualTo("c");
	}

	@Test
	void fifo_groupsInOrder_oneInFlightPerGroup_deduplicatedWithTheOriginalsIdAndSequence() {
		String url = this.sqs
			.createQueue(q -> q.queueName("sdk-orders.fifo")
				.attributes(Map.of(QueueAttributeName.FIFO_QUEUE, "true",
						QueueAttributeName.CONTENT_BASED_DEDUPLICATION, "true")))
			.queueUrl();
		SendMessageResponse a1 = this.sqs.sendMessage(m -> m.queueUrl(url).messageBody("a1").messageGroupId("a"));
		SendMessageResponse again = this.sqs.sendMessage(m -> m.queueUrl(url).messageBody("a1").messageGroupId("a"));
		this.sqs.sendMessageBatch(b -> b.queueUrl(url)
			.entries(e -> e.id("1").messageBody("a2").messageGroupId("a"),
					e -> e.id("2").messageBody("b1").messageGroupId("b").messageDeduplicationId("b-1")));

		assertThat(again.messageId()).as("deduplicated").isEqualTo(a1.messageId());
		assertThat(again.sequenceNumber()).isEqualTo(a1.sequenceNumber()).hasSize(20);
		List<Message> first = this.sqs
			.receiveMessage(r -> r.queueUrl(url).maxNumberOfMessages(10).messageSystemAttributeNamesWithStrings("All"))
			.messages();
		assertThat(first).extracting(Message::body).containsExactly("a1", "b1");
		assertThat(first.get(0).attributes()).containsEntry(MessageSystemAttributeName.MESSAGE_GROUP_ID, "a")
			.containsEntry(MessageSystemAttributeName.SEQUENCE_NUMBER, a1.sequenceNumber())
			.containsKey(MessageSystemAttributeName.MESSAGE_DEDUPLICATION_ID);
		assertThat(first.get(1).attributes()).containsEntry(MessageSystemAttributeName.MESSAGE_DEDUPLICATION_ID, "b-1");
		assertThat(this.sqs.receiveMessage(r -> r.queueUrl(url).maxNumberOfMessages(10)).messages())
			.as("a2 waits while a1 is in flight")
			.isEmpty();
		this.sqs.deleteMessage(d -> d.queueUrl(url).receiptHandle(first.get(0).receiptHandle()));
		assertThat(this.sqs.receiveMessage(r -> r.queueUrl(url).maxNumberOfMessages(10)).messages())
			.extracting(Message::body)
			.containsExactly("a2");
		assertThat(this.sqs.getQueueAttributes(g -> g.queueUrl(url).attributeNamesWithStrings("All"))
			.attributesAsStrings()).containsEntry("FifoQueue", "true")
			.containsEntry("ContentBasedDeduplication", "true")
			.containsEntry("DeduplicationScope", "queue")
			.containsEntry("FifoThroughputLimit", "perQueue");
		assertThatExceptionOfType(SqsException.class)
			.isThrownBy(() -> this.sqs.sendMessage(m -> m.queueUrl(url).messageBody("no group")))
			.withMessageContaining("MessageGroupId");
		assertThatExceptionOfType(SqsException.class)
			.isThrownBy(() -> this.sqs.createQueue(q -> q.queueName("not-created-as-one.fifo")));
	}

	@Test
	void receive_all_systemAttributesFromTheServiceClock() {
		String url = create("sdk-system-attributes");
		long sent = this.clock.millis();
		this.sqs.sendMessage(m -> m.queueUrl(url).messageBody("dated"));
		this.clock.advance(Duration.ofSeconds(5));

		Message first = this.sqs.receiveMessage(
				r -> r.queueUrl(url).visibilityTimeout(0).messageSystemAttributeNames(MessageSystemAttributeName.ALL))
			.messages()
			.get(0);
		this.clock.advance(Duration.ofSeconds(5));
		Message second = this.sqs.receiveMessage(r -> r.queueUrl(url).messageSystemAttributeNamesWithStrings("All"))
			.messages()
			.get(0);

		assertThat(first.attributes()).containsOnly(
				Map.entry(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT, "1"),
				Map.entry(MessageSystemAttributeName.SENT_TIMESTAMP, Long.toString(sent)),
				Map.entry(MessageSystemAttributeName.APPROXIMATE_FIRST_RECEIVE_TIMESTAMP, Long.toString(sent + 5_000)),
				Map.entry(MessageSystemAttributeName.SENDER_ID, "000000000000"));
		assertThat(second.attributes()).containsEntry(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT, "2")
			.containsEntry(MessageSystemAttributeName.SENT_TIMESTAMP, Long.toString(sent));
		if (keepsFirstReceive()) {
			assertThat(second.attributes()).as("the first receive's time, kept")
				.containsEntry(MessageSystemAttributeName.APPROXIMATE_FIRST_RECEIVE_TIMESTAMP,
						Long.toString(sent + 5_000));
		}
		else {
			assertThat(second.attributes()).as("not kept, so left out rather than invented")
				.doesNotContainKey(MessageSystemAttributeName.APPROXIMATE_FIRST_RECEIVE_TIMESTAMP);
		}
	}

	/**
	 * Whether a message keeps its first receive's time for later deliveries: in process,
	 * not on Redis (docs/sqs.md).
	 */
	boolean keepsFirstReceive() {
		return true;
	}

	@Test
	void send_receive_delete_sdkChecksMd5s() {
		String url = create("sdk-cycle");
		SendMessageResponse sent = this.sqs.sendMessage(m -> m.queueUrl(url).messageBody("hello, SQS face: åäö €"));

		ReceiveMessageResponse received = this.sqs.receiveMessage(r -> r.queueUrl(url)
			.maxNumberOfMessages(10)
			.messageSystemAttributeNames(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT));

		assertThat(received.messages()).hasSize(1);
		Message message = received.messages().get(0);
		assertThat(message.messageId()).isEqualTo(sent.messageId());
		assertThat(message.body()).isEqualTo("hello, SQS face: åäö €");
		assertThat(message.md5OfBody()).isEqualTo(sent.md5OfMessageBody());
		assertThat(message.attributes())
			.containsExactly(Map.entry(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT, "1"));
		assertThat(counts(url)).containsExactly(0, 1);
		this.sqs.deleteMessage(d -> d.queueUrl(url).receiptHandle(message.receiptHandle()));
		assertThat(counts(url)).containsExactly(0, 0);
		assertThat(this.sqs.receiveMessage(r -> r.queueUrl(url)).messages()).isEmpty();
	}

	@Test
	void messageAttributes_storedAndReturned_sdkChecksTheirMd5() {
		String url = create("sdk-attributes");
		Map<String, MessageAttributeValue> attributes = Map.of("kind",
				MessageAttributeValue.builder().dataType("String").stringValue("order ✓").build(), "count",
				MessageAttributeValue.builder().dataType("Number.int").stringValue("42").build(), "blob",
				MessageAttributeValue.builder()
					.dataType("Binary")
					.binaryValue(SdkBytes.fromByteArray(new byte[] { 0, 1, (byte) 0xFF }))
					.build());
		SendMessageResponse sent = this.sqs
			.sendMessage(m -> m.queueUrl(url).messageBody("with attributes").messageAttributes(attributes));
		this.sqs.sendMessageBatch(b -> b.queueUrl(url)
			.entries(SendMessageBatchRequestEntry.builder()
				.id("one")
				.messageBody("batched")
				.messageAttributes(Map.of("kind", attributes.get("kind")))
				.build(), entry("two", "plain")));

		List<Message> all = this.sqs
			.receiveMessage(r -> r.queueUrl(url).maxNumberOfMessages(10).messageAttributeNames("All"))
			.messages();

		assertThat(sent.md5OfMessageAttributes()).isNotNull();
		assertThat(all).extracting(Message::body).containsExactly("with attributes", "batched", "plain");
		assertThat(all.get(0).messageAttributes()).isEqualTo(attributes);
		assertThat(all.get(0).md5OfMessageAttributes()).isEqualTo(sent.md5OfMessageAttributes());
		assertThat(all.get(1).messageAttributes()).containsOnlyKeys("kind");
		assertThat(all.get(2).messageAttributes()).isEmpty();
		assertThat(all.get(2).md5OfMessageAttributes()).isNull();

		this.sqs.sendMessage(m -> m.queueUrl(url).messageBody("selected").messageAttributes(attributes));
		Message selected = this.sqs.receiveMessage(r -> r.queueUrl(url).messageAttributeNames("kind", "co.*"))
			.messages()
			.get(0);
		assertThat(selected.messageAttributes()).containsOnlyKeys("kind");
		this.sqs.sendMessage(m -> m.queueUrl(url).messageBody("unasked").messageAttributes(attributes));
		assertThat(this.sqs.receiveMessage(r -> r.queueUrl(url)).messages().get(0).messageAttributes())
			.as("attributes come only when asked for")
			.isEmpty();

		assertThatExceptionOfType(SqsException.class)
			.isThrownBy(() -> this.sqs.sendMessage(m -> m.queueUrl(url)
				.messageBody("bad")
				.messageAttributes(Map.of("AWS.reserved",
						MessageAttributeValue.builder().dataType("String").stringValue("x").build()))))
			.satisfies(ex -> assertThat(ex.awsErrorDetails().errorCode()).isEqualTo("InvalidParameterValue"));
	}

	@Test
	void traceHeader_storedAndReturnedWhenAsked_sdkGetsItsMd5_keptThroughDeadLettersAndAMoveTask() {
		String dlq = create("sdk-trace-dlq");
		String dlqArn = this.sqs.getQueueAttributes(g -> g.queueUrl(dlq).attributeNames(QueueAttributeName.QUEUE_ARN))
			.attributes()
			.get(QueueAttributeName.QUEUE_ARN);
		String url = this.sqs.createQueue(q -> q.queueName("sdk-trace")
			.attributes(Map.of(QueueAttributeName.REDRIVE_POLICY,
					"{\"deadLetterTargetArn\":\"" + dlqArn + "\",\"maxReceiveCount\":\"2\"}")))
			.queueUrl();

		SendMessageResponse sent = this.sqs
			.sendMessage(m -> m.queueUrl(url).messageBody("traced").messageSystemAttributes(trace(TRACE)));

		assertThat(sent.md5OfMessageSystemAttributes()).isEqualTo(md5OfTraceHeader(TRACE));
		assertThat(sent.md5OfMessageAttributes()).isNull();
		Message unasked = this.sqs.receiveMessage(r -> r.queueUrl(url).visibilityTimeout(0)).messages().get(0);
		assertThat(unasked.attributes()).as("only when asked for").isEmpty();
		Message asked = this.sqs
			.receiveMessage(r -> r.queueUrl(url)
				.visibilityTimeout(0)
				.messageSystemAttributeNames(MessageSystemAttributeName.AWS_TRACE_HEADER))
			.messages()
			.get(0);
		assertThat(asked.attributes()).containsExactly(Map.entry(MessageSystemAttributeName.AWS_TRACE_HEADER, TRACE));
		assertThat(this.sqs.receiveMessage(r -> r.queueUrl(url)).messages()).as("moved after two receives").isEmpty();
		Message dead = this.sqs
			.receiveMessage(r -> r.queueUrl(dlq).visibilityTimeout(0).messageSystemAttributeNamesWithStrings("All"))
			.messages()
			.get(0);
		assertThat(dead.attributes()).containsEntry(MessageSystemAttributeName.AWS_TRACE_HEADER, TRACE);

		this.sqs.startMessageMoveTask(s -> s.sourceArn(dlqArn));
		Awaitility.await().atMost(10, TimeUnit.SECONDS).until(() -> counts(url).get(0) == 1);
		Message back = this.sqs
			.receiveMessage(r -> r.queueUrl(url).attributeNamesWithStrings(MessageSystemAttributes.AWS_TRACE_HEADER))
			.messages()
			.get(0);
		assertThat(back.body()).isEqualTo("traced");
		assertThat(back.attributesAsStrings()).as("AttributeNames, the older member, names it too")
			.containsExactly(Map.entry("AWSTraceHeader", TRACE));
	}

	@Test
	void traceHeader_inBatchesAndFifoQueues_otherNamesAndTypesRefusedAsSqsRefusesThem() {
		String url = create("sdk-trace-batch");
		String fifo = this.sqs
			.createQueue(q -> q.queueName("sdk-trace.fifo")
				.attributes(Map.of(QueueAttributeName.FIFO_QUEUE, "true",
						QueueAttributeName.CONTENT_BASED_DEDUPLICATION, "true")))
			.queueUrl();

		SendMessageBatchResponse batch = this.sqs.sendMessageBatch(b -> b.queueUrl(url)
			.entries(entry("traced", "one").toBuilder().messageSystemAttributes(trace(TRACE)).build(),
					entry("plain", "two"),
					entry("other", "three").toBuilder()
						.messageSystemAttributesWithStrings(Map.of("SentTimestamp",
								MessageSystemAttributeValue.builder().dataType("String").stringValue("1").build()))
						.build()));
		this.sqs.sendMessage(
				m -> m.queueUrl(fifo).messageBody("ordered").messageGroupId("g").messageSystemAttributes(trace(TRACE)));

		assertThat(batch.successful()).extracting(e -> e.id() + " " + e.md5OfMessageSystemAttributes())
			.containsExactly("traced " + md5OfTraceHeader(TRACE), "plain null");
		assertThat(batch.failed()).extracting(e -> e.id() + " " + e.code() + " " + e.senderFault())
			.containsExactly("other InvalidParameterValue true");
		assertThat(this.sqs
			.receiveMessage(r -> r.queueUrl(url).maxNumberOfMessages(10).messageSystemAttributeNamesWithStrings("All"))
			.messages()).extracting(m -> m.body() + " " + m.attributesAsStrings().get("AWSTraceHeader"))
			.containsExactly("one " + TRACE, "two null");
		assertThat(this.sqs
			.receiveMessage(r -> r.queueUrl(fifo).messageSystemAttributeNames(MessageSystemAttributeName.ALL))
			.messages()
			.get(0)
			.attributes()).containsEntry(MessageSystemAttributeName.AWS_TRACE_HEADER, TRACE)
			.containsEntry(MessageSystemAttributeName.MESSAGE_GROUP_ID, "g");
		assertRefused(
				() -> this.sqs.sendMessage(m -> m.queueUrl(url)
					.messageBody("x")
					.messageSystemAttributes(Map.of(MessageSystemAttributeNameForSends.AWS_TRACE_HEADER,
							MessageSystemAttributeValue.builder().dataType("Number").stringValue("1").build()))),
				"InvalidParameterValue");
		assertRefused(
				() -> this.sqs.sendMessage(m -> m.queueUrl(url)
					.messageBody("x")
					.messageSystemAttributes(Map.of(MessageSystemAttributeNameForSends.AWS_TRACE_HEADER,
							MessageSystemAttributeValue.builder().dataType("String").build()))),
				"InvalidParameterValue");
		assertRefused(
				() -> this.sqs
					.sendMessage(m -> m.queueUrl(url).messageBody("x").messageSystemAttributes(trace("Root=1\u0001"))),
				"InvalidMessageContents");
		assertThat(counts(url)).as("none of the refused sent").containsExactly(0, 2);
	}

	@Test
	void characters_outsideSqsSet_refusedInBodiesAndStringAttributes_allowedBoundariesDeliveredUnchanged() {
		String url = create("sdk-characters");

		for (String refused : REFUSED_CHARACTERS) {
			String text = "a" + refused + "b";
			assertRefused(() -> this.sqs.sendMessage(m -> m.queueUrl(url).messageBody(text)), "InvalidMessageContents");
			for (String type : new String[] { "String", "String.custom" }) {
				assertRefused(
						() -> this.sqs.sendMessage(m -> m.queueUrl(url)
							.messageBody("fine")
							.messageAttributes(Map.of("k",
									MessageAttributeValue.builder().dataType(type).stringValue(text).build()))),
						"InvalidMessageContents");
			}
		}
		SendMessageBatchResponse batch = this.sqs.sendMessageBatch(b -> b.queueUrl(url)
			.entries(entry("body", "a\u0000b"), entry("fine", "fine"), entry("attribute", "fine").toBuilder()
				.messageAttributes(
						Map.of("k", MessageAttributeValue.builder().dataType("String").stringValue("\uFFFF").build()))
				.build()));
		assertThat(batch.successful()).extracting(e -> e.id()).containsExactly("fine");
		assertThat(batch.failed()).extracting(e -> e.id() + " " + e.code() + " " + e.senderFault())
			.containsExactly("body InvalidMessageContents true", "attribute InvalidMessageContents true");
		take(url);
		assertThat(counts(url)).as("nothing refused was sent").containsExactly(0, 0);

		String allowed = String.join("", ALLOWED_CHARACTERS);
		MessageAttributeValue binary = MessageAttributeValue.builder()
			.dataType("Binary")
			.binaryValue(SdkBytes.fromByteArray(new byte[] { 0, 0x1F, (byte) 0xFE, (byte) 0xFF }))
			.build();
		for (String text : ALLOWED_CHARACTERS) {
			this.sqs.sendMessage(
					m -> m.queueUrl(url)
						.messageBody("a" + text + "b")
						.messageAttributes(Map.of("k",
								MessageAttributeValue.builder().dataType("String").stringValue(text).build(), "bytes",
								binary)));
		}
		this.sqs.sendMessage(m -> m.queueUrl(url).messageBody(allowed));
		List<Message> received = new ArrayList<>();
		for (int i = 0; i < 10 && received.size() < ALLOWED_CHARACTERS.size() + 1; i++) {
			received.addAll(
					this.sqs.receiveMessage(r -> r.queueUrl(url).maxNumberOfMessages(10).messageAttributeNames("All"))
						.messages());
		}
		assertThat(received).extracting(Message::body)
			.containsExactlyElementsOf(
					Stream.concat(ALLOWED_CHARACTERS.stream().map(text -> "a" + text + "b"), Stream.of(allowed))
						.toList());
		for (int i = 0; i < ALLOWED_CHARACTERS.size(); i++) {
			assertThat(received.get(i).messageAttributes().get("k").stringValue()).isEqualTo(ALLOWED_CHARACTERS.get(i));
			assertThat(received.get(i).messageAttributes().get("bytes")).as("binary values carry any byte")
				.isEqualTo(binary);
		}
	}

	@Test
	void sendBatch_receiveAll_deleteBatchWithOneInvalid() {
		String url = create("sdk-batch");
		SendMessageBatchResponse sent = this.sqs.sendMessageBatch(b -> b.queueUrl(url)
			.entries(IntStream.range(0, 3).mapToObj(i -> entry("e" + i, "body " + i)).toList()));
		assertThat(sent.successful()).extracting(e -> e.id()).containsExactly("e0", "e1", "e2");
		assertThat(sent.failed()).isEmpty();

		List<Message> messages = this.sqs.receiveMessage(r -> r.queueUrl(url).maxNumberOfMessages(10)).messages();

		assertThat(messages).extracting(Message::body).containsExactly("body 0", "body 1", "body 2");
		DeleteMessageBatchResponse deleted = this.sqs.deleteMessageBatch(b -> b.queueUrl(url)
			.entries(d -> d.id("a").receiptHandle(messages.get(0).receiptHandle()),
					d -> d.id("b").receiptHandle(messages.get(1).receiptHandle()),
					d -> d.id("c").receiptHandle("not-a-handle")));
		assertThat(deleted.successful()).extracting(e -> e.id()).containsExactly("a", "b");
		assertThat(deleted.failed()).singleElement().satisfies(failed -> {
			assertThat(failed.id()).isEqualTo("c");
			assertThat(failed.code()).isEqualTo("ReceiptHandleIsInvalid");
			assertThat(failed.senderFault()).isTrue();
		});
		assertThat(counts(url)).containsExactly(0, 1);
	}

	@Test
	void deleteBatch_eachEntryAnsweredAsDeleteMessageWould() {
		String url = create("sdk-delete-batch");
		this.sqs.sendMessageBatch(b -> b.queueUrl(url).entries(entry("e0", "zero"), entry("e1", "one")));
		Message stale = this.sqs.receiveMessage(r -> r.queueUrl(url).visibilityTimeout(0)).messages().get(0);
		List<Message> current = this.sqs.receiveMessage(r -> r.queueUrl(url).maxNumberOfMessages(10)).messages();
		assertThat(current).extracting(Message::body).containsExactly("zero", "one");
		this.sqs.deleteMessage(d -> d.queueUrl(url).receiptHandle(current.get(1).receiptHandle()));

		DeleteMessageBatchResponse deleted = this.sqs.deleteMessageBatch(b -> b.queueUrl(url)
			.entries(d -> d.id("stale").receiptHandle(stale.receiptHandle()),
					d -> d.id("current").receiptHandle(current.get(0).receiptHandle()),
					d -> d.id("again").receiptHandle(current.get(1).receiptHandle()),
					d -> d.id("junk").receiptHandle("1.x")));

		assertThat(deleted.successful()).extracting(e -> e.id()).containsExactly("current", "again");
		assertThat(deleted.failed()).extracting(failed -> failed.id() + " " + failed.code())
			.containsExactlyInAnyOrder("stale ReceiptHandleIsInvalid", "junk ReceiptHandleIsInvalid");
		assertThat(counts(url)).containsExactly(0, 0);
	}

	@Test
	void sendBatch_invalidEntryFailsAlone() {
		String url = create("sdk-batch-partial");

		SendMessageBatchResponse sent = this.sqs.sendMessageBatch(b -> b.queueUrl(url)
			.entries(entry("ok", "fine"),
					entry("fifo", "deduplicated").toBuilder().messageDeduplicationId("d").build()));

		assertThat(sent.successful()).extracting(e -> e.id()).containsExactly("ok");
		assertThat(sent.failed()).singleElement().satisfies(failed -> {
			assertThat(failed.id()).isEqualTo("fifo");
			assertThat(failed.code()).isEqualTo("InvalidParameterValue");
		});
		assertThat(counts(url)).containsExactly(1, 0);
	}

	@Test
	void receive_waitTimeSeconds_wokenBySend() throws Exception {
		String url = create("sdk-long-poll");
		long start = System.nanoTime();
		CompletableFuture<ReceiveMessageResponse> waiting = CompletableFuture
			.supplyAsync(() -> this.sqs.receiveMessage(r -> r.queueUrl(url).waitTimeSeconds(15)));
		awaitLongPolls("sdk-long-poll", 1);

		this.sqs.sendMessage(m -> m.queueUrl(url).messageBody("wake up"));

		ReceiveMessageResponse received = waiting.get(10, TimeUnit.SECONDS);
		assertThat(received.messages()).extracting(Message::body).containsExactly("wake up");
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
	}

	@Test
	void receive_waitEndsEmpty() {
		String url = create("sdk-long-poll-empty");

		assertThat(this.sqs.receiveMessage(r -> r.queueUrl(url).waitTimeSeconds(1)).messages()).isEmpty();
	}

	@Test
	void visibilityLapse_redelivered_staleHandleCannotDelete() {
		String url = create("sdk-lapse");
		this.sqs.sendMessage(m -> m.queueUrl(url).messageBody("lapsing"));
		Message first = receiveOne(url);
		assertThat(this.sqs.receiveMessage(r -> r.queueUrl(url)).messages()).as("invisible while leased").isEmpty();

		this.clock.advance(Duration.ofSeconds(30));
		Message second = receiveOne(url);

		assertThat(second.messageId()).isEqualTo(first.messageId());
		assertThat(second.attributes()).containsEntry(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT, "2");
		assertThat(second.receiptHandle()).isNotEqualTo(first.receiptHandle());
		assertThatExceptionOfType(ReceiptHandleIsInvalidException.class)
			.isThrownBy(() -> this.sqs.deleteMessage(d -> d.queueUrl(url).receiptHandle(first.receiptHandle())))
			.withMessageContaining("received again");
		assertThat(counts(url)).containsExactly(0, 1);
		this.sqs.deleteMessage(d -> d.queueUrl(url).receiptHandle(second.receiptHandle()));
		this.sqs.deleteMessage(d -> d.queueUrl(url).receiptHandle(second.receiptHandle()));
		assertThat(counts(url)).containsExactly(0, 0);
	}

	@Test
	void redrivePolicy_deadLetterAfterMaxReceiveCount_listedSourcesAndRemoval() {
		String dlq = create("sdk-dlq");
		String dlqArn = this.sqs.getQueueAttributes(g -> g.queueUrl(dlq).attributeNames(QueueAttributeName.QUEUE_ARN))
			.attributes()
			.get(QueueAttributeName.QUEUE_ARN);
		String policy = "{\"deadLetterTargetArn\":\"" + dlqArn + "\",\"maxReceiveCount\":\"2\"}";
		String url = this.sqs
			.createQueue(
					q -> q.queueName("sdk-dlq-source").attributes(Map.of(QueueAttributeName.REDRIVE_POLICY, policy)))
			.queueUrl();
		this.sqs.sendMessage(m -> m.queueUrl(url)
			.messageBody("poison")
			.messageAttributes(
					Map.of("kind", MessageAttributeValue.builder().dataType("String").stringValue("bad").build())));

		receiveOne(url);
		this.clock.advance(Duration.ofSeconds(30));
		receiveOne(url);
		this.clock.advance(Duration.ofSeconds(30));

		assertThat(this.sqs.receiveMessage(r -> r.queueUrl(url)).messages()).as("moved, not received a third time")
			.isEmpty();
		Message dead = this.sqs.receiveMessage(r -> r.queueUrl(dlq).messageAttributeNames("All")).messages().get(0);
		assertThat(dead.body()).isEqualTo("poison");
		assertThat(dead.messageAttributes()).containsOnlyKeys("kind");
		assertThat(this.sqs.listDeadLetterSourceQueues(l -> l.queueUrl(dlq)).queueUrls()).containsExactly(url);
		assertThat(this.sqs.getQueueAttributes(g -> g.queueUrl(url).attributeNames(QueueAttributeName.REDRIVE_POLICY))
			.attributes()
			.get(QueueAttributeName.REDRIVE_POLICY)).contains(dlqArn).contains("\"maxReceiveCount\":2");

		this.sqs.setQueueAttributes(s -> s.queueUrl(url).attributes(Map.of(QueueAttributeName.REDRIVE_POLICY, "")));
		assertThat(this.sqs.listDeadLetterSourceQueues(l -> l.queueUrl(dlq)).queueUrls()).isEmpty();
		assertThatExceptionOfType(SqsException.class)
			.isThrownBy(() -> this.sqs.setQueueAttributes(s -> s.queueUrl(url)
				.attributes(Map.of(QueueAttributeName.REDRIVE_POLICY,
						"{\"deadLetterTargetArn\":\"arn:aws:sqs:us-east-1:000000000000:sdk-no-such-dlq\","
								+ "\"maxReceiveCount\":1}"))))
			.satisfies(ex -> assertThat(ex.awsErrorDetails().errorCode()).isEqualTo("InvalidAttributeValue"));
	}

	/** Found by the conformance suite: MaxResults and NextToken were ignored. */
	@Test
	void listDeadLetterSourceQueues_pagedByName_maxResultsFrom1To1000() {
		String dlq = create("sdk-dlq-pages");
		String dlqArn = this.sqs.getQueueAttributes(g -> g.queueUrl(dlq).attributeNames(QueueAttributeName.QUEUE_ARN))
			.attributes()
			.get(QueueAttributeName.QUEUE_ARN);
		Map<QueueAttributeName, String> redrive = Map.of(QueueAttributeName.REDRIVE_POLICY,
				"{\"deadLetterTargetArn\":\"" + dlqArn + "\",\"maxReceiveCount\":\"2\"}");
		String a = this.sqs.createQueue(q -> q.queueName("sdk-dlq-pages-a").attributes(redrive)).queueUrl();
		String b = this.sqs.createQueue(q -> q.queueName("sdk-dlq-pages-b").attributes(redrive)).queueUrl();

		ListDeadLetterSourceQueuesResponse first = this.sqs
			.listDeadLetterSourceQueues(l -> l.queueUrl(dlq).maxResults(1));
		ListDeadLetterSourceQueuesResponse second = this.sqs
			.listDeadLetterSourceQueues(l -> l.queueUrl(dlq).maxResults(1).nextToken(first.nextToken()));

		assertThat(first.queueUrls()).containsExactly(a);
		assertThat(second.queueUrls()).containsExactly(b);
		assertThat(second.nextToken()).isNull();
		assertThat(this.sqs.listDeadLetterSourceQueues(l -> l.queueUrl(dlq).maxResults(1000)).queueUrls())
			.containsExactly(a, b);
		for (int outside : new int[] { 0, 1001 }) {
			assertThatExceptionOfType(SqsException.class)
				.isThrownBy(() -> this.sqs.listDeadLetterSourceQueues(l -> l.queueUrl(dlq).maxResults(outside)))
				.satisfies(ex -> assertThat(ex.awsErrorDetails().errorCode()).isEqualTo("InvalidParameterValue"));
		}
	}

	/** Found by the conformance suite: a SetQueueAttributes without them succeeded. */
	@Test
	void setQueueAttributes_withoutAttributes_missingParameter() {
		String url = create("sdk-set-nothing");

		assertThatExceptionOfType(SqsException.class)
			.isThrownBy(() -> this.sqs.setQueueAttributes(s -> s.queueUrl(url)))
			.satisfies(ex -> assertThat(ex.awsErrorDetails().errorCode()).isEqualTo("MissingParameter"));
	}

	@Test
	void getQueueAttributes_countsAndSettings() {
		String url = create("sdk-attrs");
		this.sqs.sendMessage(m -> m.queueUrl(url).messageBody("one"));
		this.sqs.sendMessage(m -> m.queueUrl(url).messageBody("two"));
		receiveOne(url);

		Map<String, String> attributes = this.sqs
			.getQueueAttributes(g -> g.queueUrl(url).attributeNames(QueueAttributeName.ALL))
			.attributesAsStrings();

		assertThat(attributes).containsEntry("ApproximateNumberOfMessages", "1")
			.containsEntry("ApproximateNumberOfMessagesNotVisible", "1")
			.containsEntry("ApproximateNumberOfMessagesDelayed", "0")
			.containsEntry("VisibilityTimeout", "30")
			.containsEntry("QueueArn", "arn:aws:sqs:us-east-1:000000000000:sdk-attrs")
			.containsEntry("CreatedTimestamp", Long.toString(this.clock.millis() / 1000))
			.doesNotContainKeys("MessageRetentionPeriod", "Policy");
		assertThat(this.sqs.listDeadLetterSourceQueues(l -> l.queueUrl(url)).queueUrls()).isEmpty();
	}

	/**
	 * Tags as the SDK sends them: with CreateQueue, added and overwritten by TagQueue,
	 * removed by UntagQueue, listed by ListQueueTags; keys SQS refuses and a 51st tag are
	 * refused without changing anything; a deleted queue's tags go with it.
	 */
	@Test
	void tags_createdTaggedUntaggedListed_refusedAsSqsRefuses_goneWithTheQueue() {
		String url = this.sqs.createQueue(q -> q.queueName("sdk-tags").tags(Map.of("team", "blue", "Team", "Red")))
			.queueUrl();
		assertThat(tags(url)).as("keys are case-sensitive").isEqualTo(Map.of("team", "blue", "Team", "Red"));

		this.sqs.tagQueue(t -> t.queueUrl(url).tags(Map.of("team", "green", "cost-centre", "", "path", "a/b:c=d+e@f")));
		assertThat(tags(url))
			.isEqualTo(Map.of("team", "green", "Team", "Red", "cost-centre", "", "path", "a/b:c=d+e@f"));
		this.sqs.untagQueue(u -> u.queueUrl(url).tagKeys("Team", "not-there"));
		assertThat(tags(url)).isEqualTo(Map.of("team", "green", "cost-centre", "", "path", "a/b:c=d+e@f"));

		for (Map<String, String> refused : List.of(Map.of("aws:owner", "x"), Map.of("AWS:owner", "x"), Map.of("", "x"),
				Map.of("k".repeat(129), "x"), Map.of("k", "v".repeat(257)), Map.of("semi;colon", "x"),
				Map.of("k", "new\nline"))) {
			assertThatExceptionOfType(SqsException.class)
				.isThrownBy(() -> this.sqs.tagQueue(t -> t.queueUrl(url).tags(refused)))
				.satisfies(ex -> assertThat(ex.awsErrorDetails().errorCode()).isEqualTo("InvalidParameterValue"));
		}
		Map<String, String> upTo50 = new HashMap<>();
		IntStream.range(0, 47).forEach(i -> upTo50.put("k" + i, "v"));
		this.sqs.tagQueue(t -> t.queueUrl(url).tags(upTo50));
		assertThat(tags(url)).hasSize(50);
		assertThatExceptionOfType(SqsException.class)
			.isThrownBy(() -> this.sqs.tagQueue(t -> t.queueUrl(url).tags(Map.of("one-more", "x", "team", "red"))))
			.satisfies(ex -> assertThat(ex.awsErrorDetails().errorCode()).isEqualTo("InvalidParameterValue"))
			.withMessageContaining("50");
		assertThat(tags(url)).as("nothing changed").hasSize(50).containsEntry("team", "green");
		assertThatExceptionOfType(SqsException.class)
			.isThrownBy(() -> this.sqs.createQueue(q -> q.queueName("sdk-tags-refused").tags(Map.of("aws:x", "y"))))
			.satisfies(ex -> assertThat(ex.awsErrorDetails().errorCode()).isEqualTo("InvalidParameterValue"));
		assertThatExceptionOfType(QueueDoesNotExistException.class)
			.isThrownBy(() -> this.sqs.getQueueUrl(q -> q.queueName("sdk-tags-refused")));

		this.sqs.deleteQueue(d -> d.queueUrl(url));
		assertThatExceptionOfType(QueueDoesNotExistException.class).isThrownBy(() -> tags(url));
		assertThat(tags(create("sdk-tags"))).as("a new queue of the same name has none").isEmpty();
	}

	/**
	 * SQS's 1 MiB: a message of exactly 1,048,576 bytes is sent and received whole (the
	 * SDK checks its MD5), one byte more is refused; a queue's own MaximumMessageSize
	 * (1,024 to 1,048,576) holds for bodies and attributes together; and a batch of ten
	 * messages of 1 MiB is read and refused as SQS refuses it, over the batch's total.
	 */
	@Test
	void maximumMessageSize_1MiBByDefault_aQueuesOwnHonoured() {
		String url = create("sdk-size");
		assertThat(maximumMessageSize(url)).isEqualTo("1048576");
		String mebibyte = "m".repeat(1_048_576);
		this.sqs.sendMessage(m -> m.queueUrl(url).messageBody(mebibyte));
		assertThat(take(url)).isEqualTo(mebibyte);
		assertThatExceptionOfType(SqsException.class)
			.isThrownBy(() -> this.sqs.sendMessage(m -> m.queueUrl(url).messageBody(mebibyte + "m")))
			.satisfies(ex -> assertThat(ex.awsErrorDetails().errorCode()).isEqualTo("InvalidParameterValue"))
			.withMessageContaining("1048577");
		assertThatExceptionOfType(BatchRequestTooLongException.class).isThrownBy(() -> this.sqs.sendMessageBatch(
				b -> b.queueUrl(url).entries(IntStream.range(0, 10).mapToObj(i -> entry("e" + i, mebibyte)).toList())));

		this.sqs.setQueueAttributes(
				s -> s.queueUrl(url).attributes(Map.of(QueueAttributeName.MAXIMUM_MESSAGE_SIZE, "2048")));
		assertThat(maximumMessageSize(url)).isEqualTo("2048");
		this.sqs.sendMessage(m -> m.queueUrl(url).messageBody("k".repeat(2048)));
		assertThatExceptionOfType(SqsException.class)
			.isThrownBy(() -> this.sqs.sendMessage(m -> m.queueUrl(url).messageBody("k".repeat(2049))))
			.satisfies(ex -> assertThat(ex.awsErrorDetails().errorCode()).isEqualTo("InvalidParameterValue"));
		MessageAttributeValue tenBytes = MessageAttributeValue.builder()
			.dataType("String")
			.stringValue("0123456789")
			.build();
		assertThatExceptionOfType(SqsException.class).as("body and attributes add up: 2,040 + 4 + 6 + 10 bytes")
			.isThrownBy(() -> this.sqs.sendMessage(
					m -> m.queueUrl(url).messageBody("k".repeat(2040)).messageAttributes(Map.of("attr", tenBytes))))
			.satisfies(ex -> assertThat(ex.awsErrorDetails().errorCode()).isEqualTo("InvalidParameterValue"));
		SendMessageBatchResponse batch = this.sqs.sendMessageBatch(
				b -> b.queueUrl(url).entries(entry("fits", "k".repeat(2048)), entry("over", "k".repeat(2049))));
		assertThat(batch.successful()).extracting(e -> e.id()).containsExactly("fits");
		assertThat(batch.failed()).extracting(e -> e.id()).containsExactly("over");
		assertThat(counts(url)).containsExactly(2, 0);

		for (String refused : List.of("1023", "1048577", "lots")) {
			assertThatExceptionOfType(SqsException.class)
				.isThrownBy(() -> this.sqs.setQueueAttributes(
						s -> s.queueUrl(url).attributes(Map.of(QueueAttributeName.MAXIMUM_MESSAGE_SIZE, refused))))
				.satisfies(ex -> assertThat(ex.awsErrorDetails().errorCode()).isEqualTo("InvalidAttributeValue"));
		}
		String smallest = this.sqs
			.createQueue(q -> q.queueName("sdk-size-smallest")
				.attributes(Map.of(QueueAttributeName.MAXIMUM_MESSAGE_SIZE, "1024")))
			.queueUrl();
		assertThat(maximumMessageSize(smallest)).isEqualTo("1024");
		assertThat(maximumMessageSize(url)).as("unchanged by what was refused").isEqualTo("2048");
	}

	@Test
	void restAndSqs_twoViewsOfTheSameQueues() {
		HttpClientSupport http = new HttpClientSupport(this.port);
		assertThat(http.post("/queues/sdk-rest/messages", "from REST").statusCode()).isEqualTo(201);

		String url = this.sqs.getQueueUrl(q -> q.queueName("sdk-rest")).queueUrl();
		Message message = receiveOne(url);

		assertThat(message.body()).isEqualTo("from REST");
		assertThat(http
			.deleteIfMatch("/queues/sdk-rest/messages/" + message.messageId(), "\"" + message.receiptHandle() + "\"")
			.statusCode()).as("the receipt handle is the REST lease").isEqualTo(204);
	}

	@Test
	void errors_asTheSdksExceptions() {
		String url = create("sdk-errors");
		String unknown = "http://localhost:" + this.port + "/000000000000/sdk-no-such-queue";

		assertThatExceptionOfType(QueueDoesNotExistException.class)
			.isThrownBy(() -> this.sqs.sendMessage(m -> m.queueUrl(unknown).messageBody("x")));
		assertThatExceptionOfType(QueueDoesNotExistException.class)
			.isThrownBy(() -> this.sqs.getQueueUrl(q -> q.queueName("sdk-no-such-queue")));
		assertThatExceptionOfType(EmptyBatchRequestException.class)
			.isThrownBy(() -> this.sqs.sendMessageBatch(b -> b.queueUrl(url).entries(List.of())));
		assertThatExceptionOfType(TooManyEntriesInBatchRequestException.class)
			.isThrownBy(() -> this.sqs.sendMessageBatch(
					b -> b.queueUrl(url).entries(IntStream.range(0, 11).mapToObj(i -> entry("e" + i, "x")).toList())));
		assertThatExceptionOfType(BatchEntryIdsNotDistinctException.class).isThrownBy(
				() -> this.sqs.sendMessageBatch(b -> b.queueUrl(url).entries(entry("same", "1"), entry("same", "2"))));
		assertThatExceptionOfType(ReceiptHandleIsInvalidException.class)
			.isThrownBy(() -> this.sqs.deleteMessage(d -> d.queueUrl(url).receiptHandle("garbage")));
		assertThat(counts(url)).as("nothing was sent").containsExactly(0, 0);
	}

	@Test
	void purgeQueue_thenDeleteQueue_heldMessagesGoAndTheUrlWithThem() {
		String url = create("sdk-purge");
		for (int i = 0; i < 3; i++) {
			String body = "m" + i;
			this.sqs.sendMessage(m -> m.queueUrl(url).messageBody(body));
		}
		Message held = receiveOne(url);

		this.sqs.purgeQueue(p -> p.queueUrl(url));

		assertThat(counts(url)).as("ready and in flight purged").containsExactly(0, 0);
		this.sqs.deleteMessage(d -> d.queueUrl(url).receiptHandle(held.receiptHandle()));
		assertThat(counts(url)).as("deleting a purged message changes nothing, as in SQS").containsExactly(0, 0);
		assertThat(this.sqs.listQueues(l -> l.queueNamePrefix("sdk-purge")).queueUrls())
			.as("a created queue stays when purged")
			.containsExactly(url);

		this.sqs.sendMessage(m -> m.queueUrl(url).messageBody("last"));
		this.sqs.deleteQueue(d -> d.queueUrl(url));

		assertThat(this.sqs.listQueues(l -> l.queueNamePrefix("sdk-purge")).queueUrls()).isEmpty();
		assertThatExceptionOfType(QueueDoesNotExistException.class)
			.isThrownBy(() -> this.sqs.getQueueUrl(q -> q.queueName("sdk-purge")));
		assertThatExceptionOfType(QueueDoesNotExistException.class)
			.isThrownBy(() -> this.sqs.deleteQueue(d -> d.queueUrl(url)));
		assertThatExceptionOfType(QueueDoesNotExistException.class)
			.isThrownBy(() -> this.sqs.purgeQueue(p -> p.queueUrl(url)));
	}

	@Test
	void invalidParameterValue_genericSqsException() {
		String url = create("sdk-invalid");

		assertThatExceptionOfType(SqsException.class)
			.isThrownBy(() -> this.sqs.receiveMessage(r -> r.queueUrl(url).maxNumberOfMessages(11)))
			.satisfies(ex -> assertThat(ex.awsErrorDetails().errorCode()).isEqualTo("InvalidParameterValue"));
	}

	/** A trace header as X-Ray's SDKs write it. */
	static final String TRACE = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1";

	/**
	 * Characters SQS refuses in a body or a String attribute: controls but tab, newline
	 * and carriage return, and U+FFFE and U+FFFF.
	 */
	static final List<String> REFUSED_CHARACTERS = List.of("\u0000", "\u0001", "\u0008", "\u000B", "\u001F", "\uFFFE",
			"\uFFFF");

	/** The bounds of SQS's allowed ranges: each is carried as it is. */
	static final List<String> ALLOWED_CHARACTERS = List.of("\t", "\n", "\r", " ", "\uD7FF", "\uE000", "\uFFFD",
			new String(Character.toChars(0x10000)), new String(Character.toChars(0x10FFFF)));

	/**
	 * {@code MD5OfMessageSystemAttributes} of a trace header, computed here as SQS's
	 * documentation says of {@code MD5OfMessageAttributes}: name, type (each a 4-byte
	 * length and UTF-8), transport byte 1 (text), value (a 4-byte length and UTF-8).
	 */
	static String md5OfTraceHeader(String trace) {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		for (String part : new String[] { "AWSTraceHeader", "String" }) {
			byte[] utf8 = part.getBytes(StandardCharsets.UTF_8);
			bytes.writeBytes(ByteBuffer.allocate(4).putInt(utf8.length).array());
			bytes.writeBytes(utf8);
		}
		bytes.write(1);
		byte[] value = trace.getBytes(StandardCharsets.UTF_8);
		bytes.writeBytes(ByteBuffer.allocate(4).putInt(value.length).array());
		bytes.writeBytes(value);
		try {
			return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(bytes.toByteArray()));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static Map<MessageSystemAttributeNameForSends, MessageSystemAttributeValue> trace(String value) {
		return Map.of(MessageSystemAttributeNameForSends.AWS_TRACE_HEADER,
				MessageSystemAttributeValue.builder().dataType("String").stringValue(value).build());
	}

	private static void assertRefused(ThrowingCallable send, String code) {
		assertThatExceptionOfType(SqsException.class).isThrownBy(send).satisfies(ex -> {
			assertThat(ex.awsErrorDetails().errorCode()).isEqualTo(code);
			assertThat(ex.statusCode()).isEqualTo(400);
		});
	}

	private Map<String, String> tags(String url) {
		return this.sqs.listQueueTags(l -> l.queueUrl(url)).tags();
	}

	private String maximumMessageSize(String url) {
		return this.sqs.getQueueAttributes(g -> g.queueUrl(url).attributeNames(QueueAttributeName.MAXIMUM_MESSAGE_SIZE))
			.attributesAsStrings()
			.get("MaximumMessageSize");
	}

	private String create(String name) {
		return this.sqs.createQueue(q -> q.queueName(name)).queueUrl();
	}

	private Message receiveOne(String url) {
		List<Message> messages = this.sqs.receiveMessage(
				r -> r.queueUrl(url).messageSystemAttributeNames(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT))
			.messages();
		assertThat(messages).hasSize(1);
		return messages.get(0);
	}

	/** Receives one message and deletes it, as a consumer does. */
	private String take(String url) {
		Message message = receiveOne(url);
		this.sqs.deleteMessage(d -> d.queueUrl(url).receiptHandle(message.receiptHandle()));
		return message.body();
	}

	/** Ready, in-flight and delayed counts, as GetQueueAttributes answers them. */
	private List<Integer> delayedCounts(String url) {
		Map<String, String> attributes = this.sqs
			.getQueueAttributes(g -> g.queueUrl(url).attributeNames(QueueAttributeName.ALL))
			.attributesAsStrings();
		return List.of(Integer.parseInt(attributes.get("ApproximateNumberOfMessages")),
				Integer.parseInt(attributes.get("ApproximateNumberOfMessagesNotVisible")),
				Integer.parseInt(attributes.get("ApproximateNumberOfMessagesDelayed")));
	}

	/** Ready and in-flight counts, as GetQueueAttributes answers them. */
	private List<Integer> counts(String url) {
		Map<String, String> attributes = this.sqs
			.getQueueAttributes(g -> g.queueUrl(url)
				.attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
						QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE))
			.attributesAsStrings();
		return List.of(Integer.parseInt(attributes.get("ApproximateNumberOfMessages")),
				Integer.parseInt(attributes.get("ApproximateNumberOfMessagesNotVisible")));
	}

	private static ChangeMessageVisibilityBatchRequestEntry visibility(String id, String handle, int seconds) {
		return ChangeMessageVisibilityBatchRequestEntry.builder()
			.id(id)
			.receiptHandle(handle)
			.visibilityTimeout(seconds)
			.build();
	}

	private static SendMessageBatchRequestEntry entry(String id, String body) {
		return SendMessageBatchRequestEntry.builder().id(id).messageBody(body).build();
	}

}
