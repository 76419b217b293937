package io.github.qsbench.sqs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.IntStream;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import software.amazon.awssdk.services.sqs.model.BatchEntryIdsNotDistinctException;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.EmptyBatchRequestException;
import software.amazon.awssdk.services.sqs.model.InvalidAttributeNameException;
import software.amazon.awssdk.services.sqs.model.InvalidBatchEntryIdException;
import software.amazon.awssdk.services.sqs.model.OverLimitException;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueNameExistsException;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SqsException;
import software.amazon.awssdk.services.sqs.model.TooManyEntriesInBatchRequestException;
import org.junit.jupiter.api.Test;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

import org.springframework.test.context.TestPropertySource;

/**
 * The queue half of SQS's rules through the AWS SDK for Java v2 (JSON protocol):
 * permissions kept as the queue's {@code Policy}, every attribute of SQS's model
 * answered, attribute ranges and types, {@code CreateQueue}'s idempotence, queue names,
 * and the batch rules of every batch action, each with SQS's error code.
 */
@TestPropertySource(properties = "qs.lease-timeout=30s")
class SqsQueueFidelityHttpTests extends SqsV2HttpTestBase {

	private static final String ARN = "arn:aws:sqs:us-east-1:000000000000:";

	@Test
	void permissions_addedAndRemoved_asThePolicyAttribute() {
		String url = create("sdk-perm");
		this.sqs
			.addPermission(p -> p.queueUrl(url).label("alice").awsAccountIds("111111111111").actions("SendMessage"));
		this.sqs.addPermission(p -> p.queueUrl(url)
			.label("bob")
			.awsAccountIds("222222222222", "333333333333")
			.actions("ReceiveMessage", "DeleteMessage"));

		DocumentContext policy = JsonPath.parse(attribute(url, QueueAttributeName.POLICY));
		assertThat(policy.read("$.Version", String.class)).isEqualTo("2012-10-17");
		assertThat(policy.read("$.Id", String.class)).isEqualTo(ARN + "sdk-perm/SQSDefaultPolicy");
		assertThat(policy.read("$.Statement[0]", Map.class)).containsEntry("Sid", "alice")
			.containsEntry("Effect", "Allow")
			.containsEntry("Principal", Map.of("AWS", "arn:aws:iam::111111111111:root"))
			.containsEntry("Action", "SQS:SendMessage")
			.containsEntry("Resource", ARN + "sdk-perm");
		assertThat(policy.read("$.Statement[1].Principal.AWS", List.class))
			.containsExactly("arn:aws:iam::222222222222:root", "arn:aws:iam::333333333333:root");
		assertThat(policy.read("$.Statement[1].Action", List.class)).containsExactly("SQS:ReceiveMessage",
				"SQS:DeleteMessage");

		this.sqs.removePermission(p -> p.queueUrl(url).label("alice"));
		assertThat(JsonPath.parse(attribute(url, QueueAttributeName.POLICY)).read("$.Statement[*].Sid", List.class))
			.containsExactly("bob");
		this.sqs.removePermission(p -> p.queueUrl(url).label("bob"));
		assertThat(attribute(url, QueueAttributeName.POLICY)).as("gone with its last statement").isNull();
	}

	@Test
	void permissions_refusedAsSqsRefuses() {
		String url = create("sdk-perm-refused");
		this.sqs.addPermission(p -> p.queueUrl(url).label("taken").awsAccountIds("111111111111").actions("*"));

		assertCode(
				() -> this.sqs.addPermission(
						p -> p.queueUrl(url).label("taken").awsAccountIds("111111111111").actions("SendMessage")),
				"InvalidParameterValue", "Value taken for parameter Label is invalid. Reason: Already exists.");
		assertCode(
				() -> this.sqs.addPermission(
						p -> p.queueUrl(url).label("owner").awsAccountIds("111111111111").actions("RemovePermission")),
				"InvalidParameterValue", "Value SQS:RemovePermission for parameter ActionName is invalid. "
						+ "Reason: Only the queue owner is allowed to invoke this action.");
		assertCode(
				() -> this.sqs
					.addPermission(p -> p.queueUrl(url).label("none").awsAccountIds("111111111111").actions(List.of())),
				"MissingParameter", "The request must contain the parameter Actions.");
		assertCode(
				() -> this.sqs
					.addPermission(p -> p.queueUrl(url).label("nobody").awsAccountIds(List.of()).actions("*")),
				"InvalidParameterValue", "Value [] for parameter PrincipalId is invalid. Reason: Unable to verify.");
		assertCode(
				() -> this.sqs.addPermission(
						p -> p.queueUrl(url).label("not a label").awsAccountIds("111111111111").actions("SendMessage")),
				"InvalidParameterValue", null);
		assertCode(() -> this.sqs.addPermission(
				p -> p.queueUrl(url).label("x".repeat(81)).awsAccountIds("111111111111").actions("SendMessage")),
				"InvalidParameterValue", null);
		assertThatExceptionOfType(OverLimitException.class)
			.isThrownBy(() -> this.sqs.addPermission(p -> p.queueUrl(url)
				.label("eight")
				.awsAccountIds("111111111111")
				.actions("ChangeMessageVisibility", "DeleteMessage", "GetQueueAttributes", "GetQueueUrl",
						"ListDeadLetterSourceQueues", "PurgeQueue", "ReceiveMessage", "SendMessage")))
			.satisfies(ex -> assertThat(ex.statusCode()).isEqualTo(403))
			.withMessageContaining("8 Actions were found, maximum allowed is 7.");
		assertCode(() -> this.sqs.removePermission(p -> p.queueUrl(url).label("never")), "InvalidParameterValue",
				"Value never for parameter Label is invalid. Reason: can't find label on existing policy.");
		for (int i = 1; i < 20; i++) {
			String label = "s" + i;
			this.sqs.addPermission(p -> p.queueUrl(url).label(label).awsAccountIds("111111111111").actions("*"));
		}
		assertThatExceptionOfType(OverLimitException.class).isThrownBy(() -> this.sqs
			.addPermission(p -> p.queueUrl(url).label("s20").awsAccountIds("111111111111").actions("*")));

		assertThat(
				JsonPath.parse(attribute(url, QueueAttributeName.POLICY)).read("$.Statement.length()", Integer.class))
			.as("nothing refused was added")
			.isEqualTo(20);
	}

	@Test
	void policy_setAsADocument_extendedByAddPermission_removedWhenEmpty() {
		String url = create("sdk-policy");
		String document = "{\"Version\":\"2012-10-17\",\"Statement\":{\"Sid\":\"mine\",\"Effect\":\"Deny\","
				+ "\"Principal\":\"*\",\"Action\":\"sqs:*\",\"Resource\":\"" + ARN + "sdk-policy\"}}";
		set(url, QueueAttributeName.POLICY, document);
		assertThat(attribute(url, QueueAttributeName.POLICY)).as("kept as given").isEqualTo(document);

		this.sqs.addPermission(p -> p.queueUrl(url).label("more").awsAccountIds("111111111111").actions("*"));
		assertThat(JsonPath.parse(attribute(url, QueueAttributeName.POLICY)).read("$.Statement[*].Sid", List.class))
			.containsExactly("mine", "more");

		for (String refused : List.of("{not json", "[1]", "{\"Statement\":\"" + "x".repeat(8192) + "\"}")) {
			assertCode(() -> set(url, QueueAttributeName.POLICY, refused), "InvalidAttributeValue", null);
		}
		set(url, QueueAttributeName.POLICY, "");
		assertThat(attribute(url, QueueAttributeName.POLICY)).isNull();
	}

	/**
	 * Every attribute name SQS's model lists (the SDK's enum is generated from it) is
	 * answered for a queue that has them all; {@code All} answers the same.
	 */
	@Test
	void getQueueAttributes_everyNameOfTheModel_answered() {
		String dlq = create("sdk-every-dlq.fifo", Map.of(QueueAttributeName.FIFO_QUEUE, "true"));
		String url = create("sdk-every.fifo",
				Map.of(QueueAttributeName.FIFO_QUEUE, "true", QueueAttributeName.MESSAGE_RETENTION_PERIOD, "3600",
						QueueAttributeName.REDRIVE_POLICY,
						"{\"deadLetterTargetArn\":\"" + ARN + "sdk-every-dlq.fifo\",\"maxReceiveCount\":3}",
						QueueAttributeName.KMS_MASTER_KEY_ID, "alias/aws/sqs"));
		set(dlq, QueueAttributeName.REDRIVE_ALLOW_POLICY, "{\"redrivePermission\":\"allowAll\"}");
		set(url, QueueAttributeName.REDRIVE_ALLOW_POLICY,
				"{\"redrivePermission\":\"byQueue\",\"sourceQueueArns\":[\"" + ARN + "sdk-a\"]}");
		this.sqs.addPermission(p -> p.queueUrl(url).label("all").awsAccountIds("111111111111").actions("*"));
		Set<QueueAttributeName> names = EnumSet.allOf(QueueAttributeName.class);
		names.removeAll(Set.of(QueueAttributeName.ALL, QueueAttributeName.UNKNOWN_TO_SDK_VERSION));
		assertThat(names).as("the model's 21 names").hasSize(21);

		Map<String, String> all = this.sqs
			.getQueueAttributes(g -> g.queueUrl(url).attributeNames(QueueAttributeName.ALL))
			.attributesAsStrings();

		for (QueueAttributeName name : names) {
			assertThat(attribute(url, name)).as(name.toString()).isNotNull().isEqualTo(all.get(name.toString()));
		}
		assertThat(all).hasSize(21)
			.containsEntry("ReceiveMessageWaitTimeSeconds", "0")
			.containsEntry("KmsMasterKeyId", "alias/aws/sqs")
			.containsEntry("KmsDataKeyReusePeriodSeconds", "300")
			.containsEntry("SqsManagedSseEnabled", "false")
			.containsEntry("FifoQueue", "true")
			.containsEntry("DeduplicationScope", "queue")
			.containsEntry("FifoThroughputLimit", "perQueue")
			.containsEntry("CreatedTimestamp", Long.toString(this.clock.millis() / 1000));
		assertThat(this.sqs
			.getQueueAttributes(g -> g.queueUrl(create("sdk-every-standard")).attributeNames(QueueAttributeName.ALL))
			.attributesAsStrings())
			.as("a standard queue without what was never set")
			.containsOnlyKeys("ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible",
					"ApproximateNumberOfMessagesDelayed", "QueueArn", "CreatedTimestamp", "LastModifiedTimestamp",
					"VisibilityTimeout", "DelaySeconds", "MaximumMessageSize", "ReceiveMessageWaitTimeSeconds",
					"SqsManagedSseEnabled")
			.containsEntry("SqsManagedSseEnabled", "true");
		assertThatExceptionOfType(InvalidAttributeNameException.class)
			.isThrownBy(() -> this.sqs.getQueueAttributes(g -> g.queueUrl(url).attributeNamesWithStrings("Colour")));
	}

	@Test
	void encryption_oneAtATime_nothingEncrypted() {
		String url = create("sdk-sse");
		assertThat(attribute(url, QueueAttributeName.SQS_MANAGED_SSE_ENABLED)).as("SQS's default").isEqualTo("true");

		set(url, QueueAttributeName.KMS_MASTER_KEY_ID, "alias/aws/sqs");
		assertThat(attribute(url, QueueAttributeName.SQS_MANAGED_SSE_ENABLED)).isEqualTo("false");
		assertThat(attribute(url, QueueAttributeName.KMS_DATA_KEY_REUSE_PERIOD_SECONDS)).isEqualTo("300");

		set(url, QueueAttributeName.SQS_MANAGED_SSE_ENABLED, "true");
		assertThat(attribute(url, QueueAttributeName.KMS_MASTER_KEY_ID)).as("the key goes").isNull();
		assertThat(attribute(url, QueueAttributeName.KMS_DATA_KEY_REUSE_PERIOD_SECONDS)).isNull();

		assertCode(
				() -> this.sqs.setQueueAttributes(
						s -> s.queueUrl(url)
							.attributes(Map.of(QueueAttributeName.KMS_MASTER_KEY_ID, "alias/aws/sqs",
									QueueAttributeName.SQS_MANAGED_SSE_ENABLED, "true"))),
				"InvalidAttributeValue", null);
		this.sqs.sendMessage(m -> m.queueUrl(url).messageBody("plain"));
		assertThat(this.sqs.receiveMessage(r -> r.queueUrl(url)).messages().get(0).body()).isEqualTo("plain");
	}

	@Test
	void timestamps_createdOnce_modifiedBySettingsNotByTags() {
		long created = this.clock.millis() / 1000;
		String url = create("sdk-times");
		this.clock.advance(Duration.ofSeconds(100));
		this.sqs.tagQueue(t -> t.queueUrl(url).tags(Map.of("k", "v")));
		assertThat(attribute(url, QueueAttributeName.LAST_MODIFIED_TIMESTAMP)).isEqualTo(Long.toString(created));

		set(url, QueueAttributeName.DELAY_SECONDS, "1");

		assertThat(attribute(url, QueueAttributeName.CREATED_TIMESTAMP)).isEqualTo(Long.toString(created));
		assertThat(attribute(url, QueueAttributeName.LAST_MODIFIED_TIMESTAMP)).isEqualTo(Long.toString(created + 100));
	}

	@Test
	void receiveMessageWaitTimeSeconds_theQueuesDefaultWait() {
		String url = create("sdk-default-wait", Map.of(QueueAttributeName.RECEIVE_MESSAGE_WAIT_TIME_SECONDS, "1"));
		long start = System.nanoTime();

		assertThat(this.sqs.receiveMessage(r -> r.queueUrl(url)).messages()).isEmpty();

		assertThat(Duration.ofNanos(System.nanoTime() - start)).as("waited the queue's second")
			.isGreaterThanOrEqualTo(Duration.ofMillis(900));
		assertThat(attribute(url, QueueAttributeName.RECEIVE_MESSAGE_WAIT_TIME_SECONDS)).isEqualTo("1");
	}

	/** SQS's ranges and types, boundaries accepted, a step past them refused. */
	@Test
	void attributes_rangesAndTypes_refusedWithSqsCodes() {
		String url = create("sdk-ranges");
		String fifo = create("sdk-ranges.fifo", Map.of(QueueAttributeName.FIFO_QUEUE, "true"));
		Map<QueueAttributeName, List<String>> accepted = Map.of(QueueAttributeName.VISIBILITY_TIMEOUT,
				List.of("0", "43200"), QueueAttributeName.DELAY_SECONDS, List.of("0", "900"),
				QueueAttributeName.MESSAGE_RETENTION_PERIOD, List.of("60", "1209600"),
				QueueAttributeName.MAXIMUM_MESSAGE_SIZE, List.of("1024", "1048576"),
				QueueAttributeName.RECEIVE_MESSAGE_WAIT_TIME_SECONDS, List.of("0", "20"),
				QueueAttributeName.KMS_DATA_KEY_REUSE_PERIOD_SECONDS, List.of("60", "86400"),
				QueueAttributeName.SQS_MANAGED_SSE_ENABLED, List.of("true", "false"));
		accepted.forEach((name, values) -> values.forEach(value -> {
			set(url, name, value);
			assertThat(attribute(url, name)).as(name.toString()).isEqualTo(value);
		}));
		Map<QueueAttributeName, List<String>> refused = Map.of(QueueAttributeName.VISIBILITY_TIMEOUT,
				List.of("-1", "43201", "ten"), QueueAttributeName.DELAY_SECONDS, List.of("-1", "901"),
				QueueAttributeName.MESSAGE_RETENTION_PERIOD, List.of("59", "1209601"),
				QueueAttributeName.MAXIMUM_MESSAGE_SIZE, List.of("1023", "1048577"),
				QueueAttributeName.RECEIVE_MESSAGE_WAIT_TIME_SECONDS, List.of("-1", "21"),
				QueueAttributeName.KMS_DATA_KEY_REUSE_PERIOD_SECONDS, List.of("59", "86401"),
				QueueAttributeName.SQS_MANAGED_SSE_ENABLED, List.of("yes"), QueueAttributeName.REDRIVE_POLICY,
				List.of("{}", "not json"), QueueAttributeName.REDRIVE_ALLOW_POLICY,
				List.of("{\"redrivePermission\":\"byQueue\"}", "{\"redrivePermission\":\"some\"}",
						"{\"redrivePermission\":\"allowAll\",\"sourceQueueArns\":[\"" + ARN + "a\"]}"));
		refused.forEach((name, values) -> values
			.forEach(value -> assertCode(() -> set(url, name, value), "InvalidAttributeValue", null)));
		for (Map.Entry<QueueAttributeName, String> fifoOnly : Map
			.of(QueueAttributeName.CONTENT_BASED_DEDUPLICATION, "maybe", QueueAttributeName.DEDUPLICATION_SCOPE,
					"everything", QueueAttributeName.FIFO_THROUGHPUT_LIMIT, "unlimited")
			.entrySet()) {
			assertCode(() -> set(fifo, fifoOnly.getKey(), fifoOnly.getValue()), "InvalidAttributeValue", null);
			assertThatExceptionOfType(InvalidAttributeNameException.class).as("a FIFO queue's, on a standard queue")
				.isThrownBy(() -> set(url, fifoOnly.getKey(), "true"));
		}
		for (QueueAttributeName readOnly : List.of(QueueAttributeName.QUEUE_ARN,
				QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES, QueueAttributeName.CREATED_TIMESTAMP,
				QueueAttributeName.LAST_MODIFIED_TIMESTAMP)) {
			assertThatExceptionOfType(InvalidAttributeNameException.class).isThrownBy(() -> set(url, readOnly, "1"));
		}
		assertThat(attribute(url, QueueAttributeName.VISIBILITY_TIMEOUT)).as("nothing refused was set")
			.isEqualTo("43200");
	}

	@Test
	void createQueue_sameAttributesIdempotent_otherValuesQueueNameExists() {
		String dlq = create("sdk-again-dlq");
		Map<QueueAttributeName, String> attributes = Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "60",
				QueueAttributeName.REDRIVE_POLICY,
				"{\"deadLetterTargetArn\":\"" + ARN + "sdk-again-dlq\",\"maxReceiveCount\":\"3\"}");
		String url = create("sdk-again", attributes);

		assertThat(create("sdk-again", attributes)).isEqualTo(url);
		assertThat(create("sdk-again")).as("no attributes: none differs").isEqualTo(url);
		assertThat(create("sdk-again",
				Map.of(QueueAttributeName.DELAY_SECONDS, "0", QueueAttributeName.REDRIVE_POLICY,
						"{\"maxReceiveCount\":3,\"deadLetterTargetArn\":\"" + ARN + "sdk-again-dlq\"}")))
			.as("the values the queue has, however written")
			.isEqualTo(url);
		assertThatExceptionOfType(QueueNameExistsException.class)
			.isThrownBy(() -> create("sdk-again", Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "61")))
			.satisfies(ex -> assertThat(ex.awsErrorDetails().errorCode()).as("the legacy code, as the SDK reads it")
				.isEqualTo("QueueAlreadyExists"));
		assertThatExceptionOfType(QueueNameExistsException.class)
			.isThrownBy(() -> create("sdk-again", Map.of(QueueAttributeName.POLICY, "{}")));

		assertThat(attribute(url, QueueAttributeName.VISIBILITY_TIMEOUT)).isEqualTo("60");
		assertThat(attribute(url, QueueAttributeName.POLICY)).isNull();
		assertThat(dlq).isNotNull();
	}

	@Test
	void queueNames_standardAndFifo_asSqsNamesThem() {
		assertThat(create("s".repeat(80))).endsWith("/" + "s".repeat(80));
		assertThat(create("f".repeat(75) + ".fifo", Map.of(QueueAttributeName.FIFO_QUEUE, "true"))).endsWith(".fifo");
		assertThat(create("sdk-said-standard", Map.of(QueueAttributeName.FIFO_QUEUE, "false"))).isNotNull();

		for (String name : List.of("s".repeat(81), "with space", "dot.ted", "f".repeat(76) + ".fifo", ".fifo")) {
			assertCode(() -> create(name, Map.of(QueueAttributeName.FIFO_QUEUE, "true")), "InvalidParameterValue",
					null);
		}
		assertCode(() -> create("sdk-name-fifo.fifo"), "InvalidParameterValue", null);
		assertCode(() -> create("sdk-name-fifo.fifo", Map.of(QueueAttributeName.FIFO_QUEUE, "false")),
				"InvalidParameterValue", null);
		assertCode(() -> create("sdk-name-not-fifo", Map.of(QueueAttributeName.FIFO_QUEUE, "true")),
				"InvalidParameterValue", "The name of a FIFO queue can only include alphanumeric characters, "
						+ "hyphens, or underscores, must end with .fifo suffix and be 1 to 80 in length.");
		assertCode(() -> create("sdk-name-not-bool", Map.of(QueueAttributeName.FIFO_QUEUE, "yes")),
				"InvalidAttributeValue", null);
		assertThat(this.sqs.listQueues(l -> l.queueNamePrefix("sdk-name-")).queueUrls()).as("nothing refused created")
			.isEmpty();
	}

	/** The same rules on every batch action, checked before any entry is acted on. */
	@Test
	void batches_emptyTooManyRepeatedOrMalformedIds_refusedWhole() {
		String url = create("sdk-batch-rules");
		List<Consumer<List<String>>> batches = List.of(
				ids -> this.sqs.sendMessageBatch(b -> b.queueUrl(url)
					.entries(ids.stream()
						.map(id -> SendMessageBatchRequestEntry.builder().id(id).messageBody("x").build())
						.toList())),
				ids -> this.sqs.deleteMessageBatch(b -> b.queueUrl(url)
					.entries(ids.stream()
						.map(id -> DeleteMessageBatchRequestEntry.builder().id(id).receiptHandle("h").build())
						.toList())),
				ids -> this.sqs.changeMessageVisibilityBatch(b -> b.queueUrl(url)
					.entries(ids.stream()
						.map(id -> ChangeMessageVisibilityBatchRequestEntry.builder()
							.id(id)
							.receiptHandle("h")
							.visibilityTimeout(1)
							.build())
						.toList())));
		for (Consumer<List<String>> batch : batches) {
			assertThatExceptionOfType(EmptyBatchRequestException.class).isThrownBy(() -> batch.accept(List.of()));
			assertThatExceptionOfType(TooManyEntriesInBatchRequestException.class)
				.isThrownBy(() -> batch.accept(IntStream.range(0, 11).mapToObj(i -> "e" + i).toList()));
			assertThatExceptionOfType(BatchEntryIdsNotDistinctException.class)
				.isThrownBy(() -> batch.accept(List.of("same", "other", "same")))
				.withMessageContaining("Id same repeated.");
			for (String id : List.of("with space", "x".repeat(81), "dot.ted")) {
				assertThatExceptionOfType(InvalidBatchEntryIdException.class)
					.isThrownBy(() -> batch.accept(List.of(id)));
			}
			batch.accept(List.of("x".repeat(80)));
		}
		assertThat(attribute(url, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES)).isEqualTo("1");
	}

	private void assertCode(ThrowingCallable call, String code, String message) {
		assertThatExceptionOfType(SqsException.class).isThrownBy(call).satisfies(ex -> {
			assertThat(ex.awsErrorDetails().errorCode()).isEqualTo(code);
			assertThat(ex.statusCode()).isEqualTo(400);
			if (message != null) {
				assertThat(ex.awsErrorDetails().errorMessage()).isEqualTo(message);
			}
		});
	}

	private String attribute(String url, QueueAttributeName name) {
		return this.sqs.getQueueAttributes(g -> g.queueUrl(url).attributeNames(name))
			.attributesAsStrings()
			.get(name.toString());
	}

	private void set(String url, QueueAttributeName name, String value) {
		this.sqs.setQueueAttributes(s -> s.queueUrl(url).attributes(Map.of(name, value)));
	}

	private String create(String name) {
		return this.sqs.createQueue(q -> q.queueName(name)).queueUrl();
	}

	private String create(String name, Map<QueueAttributeName, String> attributes) {
		return this.sqs.createQueue(q -> q.queueName(name).attributes(attributes)).queueUrl();
	}

}
