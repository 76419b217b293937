package io.github.qsbench.sqs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.IntStream;

import com.amazonaws.services.sqs.model.AmazonSQSException;
import com.amazonaws.services.sqs.model.BatchEntryIdsNotDistinctException;
import com.amazonaws.services.sqs.model.ChangeMessageVisibilityBatchRequestEntry;
import com.amazonaws.services.sqs.model.CreateQueueRequest;
import com.amazonaws.services.sqs.model.DeleteMessageBatchRequestEntry;
import com.amazonaws.services.sqs.model.EmptyBatchRequestException;
import com.amazonaws.services.sqs.model.InvalidBatchEntryIdException;
import com.amazonaws.services.sqs.model.OverLimitException;
import com.amazonaws.services.sqs.model.QueueAttributeName;
import com.amazonaws.services.sqs.model.QueueNameExistsException;
import com.amazonaws.services.sqs.model.TooManyEntriesInBatchRequestException;
import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;

import org.springframework.test.context.TestPropertySource;

/**
 * The queue half of SQS's rules through the AWS SDK for Java v1 (the query protocol):
 * permissions kept as the queue's {@code Policy}, every attribute name answered,
 * {@code CreateQueue}'s idempotence and the batch rules, each with the protocol's code.
 */
@TestPropertySource(properties = "qs.lease-timeout=30s")
class SqsQueryQueueFidelityHttpTests extends SqsV1HttpTestBase {

	private static final String ARN = "arn:aws:sqs:us-east-1:000000000000:";

	@Test
	void permissions_addedAndRemoved_asThePolicyAttribute_refusedAsSqsRefuses() {
		String url = this.sqs.createQueue("v1-perm").getQueueUrl();
		this.sqs.addPermission(url, "alice", List.of("111111111111"), List.of("SendMessage"));
		this.sqs.addPermission(url, "bob", List.of("222222222222", "333333333333"), List.of("*"));

		DocumentContext policy = JsonPath.parse(policy(url));
		assertThat(policy.read("$.Id", String.class)).isEqualTo(ARN + "v1-perm/SQSDefaultPolicy");
		assertThat(policy.read("$.Statement[0]", Map.class)).containsEntry("Sid", "alice")
			.containsEntry("Principal", Map.of("AWS", "arn:aws:iam::111111111111:root"))
			.containsEntry("Action", "SQS:SendMessage")
			.containsEntry("Resource", ARN + "v1-perm");
		assertThat(policy.read("$.Statement[1].Principal.AWS", List.class)).hasSize(2);
		assertThat(policy.read("$.Statement[1].Action", String.class)).isEqualTo("SQS:*");

		assertThatExceptionOfType(AmazonSQSException.class)
			.isThrownBy(() -> this.sqs.addPermission(url, "alice", List.of("111111111111"), List.of("SendMessage")))
			.satisfies(ex -> assertThat(ex.getErrorCode()).isEqualTo("InvalidParameterValue"))
			.withMessageContaining("Reason: Already exists.");
		assertThatExceptionOfType(OverLimitException.class)
			.isThrownBy(() -> this.sqs.addPermission(url, "many", List.of("111111111111"),
					List.of("ChangeMessageVisibility", "DeleteMessage", "GetQueueAttributes", "GetQueueUrl",
							"ListDeadLetterSourceQueues", "PurgeQueue", "ReceiveMessage", "SendMessage")))
			.satisfies(ex -> assertThat(ex.getStatusCode()).isEqualTo(403));
		assertThatExceptionOfType(AmazonSQSException.class)
			.isThrownBy(() -> this.sqs.addPermission(url, "owner", List.of("111111111111"), List.of("DeleteQueue")))
			.satisfies(ex -> assertThat(ex.getErrorCode()).isEqualTo("InvalidParameterValue"));

		this.sqs.removePermission(url, "alice");
		assertThat(JsonPath.parse(policy(url)).read("$.Statement[*].Sid", List.class)).containsExactly("bob");
		assertThatExceptionOfType(AmazonSQSException.class).isThrownBy(() -> this.sqs.removePermission(url, "alice"))
			.satisfies(ex -> assertThat(ex.getErrorCode()).isEqualTo("InvalidParameterValue"))
			.withMessageContaining("can't find label on existing policy");
		this.sqs.removePermission(url, "bob");
		assertThat(policy(url)).isNull();

		this.sqs.setQueueAttributes(url, Map.of("Policy", "{\"Statement\":[]}"));
		assertThat(policy(url)).isEqualTo("{\"Statement\":[]}");
		assertThatExceptionOfType(AmazonSQSException.class)
			.isThrownBy(() -> this.sqs.setQueueAttributes(url, Map.of("Policy", "{not json")))
			.satisfies(ex -> assertThat(ex.getErrorCode()).isEqualTo("InvalidAttributeValue"));
	}

	/** Every name of the v1 SDK's enum, generated from SQS's model, answered. */
	@Test
	void getQueueAttributes_everyNameOfTheModel_answered() {
		this.sqs.createQueue(new CreateQueueRequest("v1-every-dlq.fifo").addAttributesEntry("FifoQueue", "true"));
		String url = this.sqs
			.createQueue(new CreateQueueRequest("v1-every.fifo").addAttributesEntry("FifoQueue", "true")
				.addAttributesEntry("MessageRetentionPeriod", "3600")
				.addAttributesEntry("KmsMasterKeyId", "alias/aws/sqs")
				.addAttributesEntry("RedriveAllowPolicy", "{\"redrivePermission\":\"denyAll\"}")
				.addAttributesEntry("RedrivePolicy",
						"{\"deadLetterTargetArn\":\"" + ARN + "v1-every-dlq.fifo\",\"maxReceiveCount\":3}"))
			.getQueueUrl();
		this.sqs.addPermission(url, "all", List.of("111111111111"), List.of("*"));
		Set<QueueAttributeName> names = EnumSet.allOf(QueueAttributeName.class);
		names.remove(QueueAttributeName.All);

		Map<String, String> all = this.sqs.getQueueAttributes(url, List.of("All")).getAttributes();

		List<String> missing = new ArrayList<>();
		for (QueueAttributeName name : names) {
			Map<String, String> one = this.sqs.getQueueAttributes(url, List.of(name.toString())).getAttributes();
			if (one.get(name.toString()) == null || !one.get(name.toString()).equals(all.get(name.toString()))) {
				missing.add(name.toString());
			}
		}
		assertThat(missing).as("answered alone and with All").isEmpty();
		assertThat(all).hasSize(names.size());
	}

	@Test
	void createQueue_otherAttributes_queueNameExists() {
		String url = this.sqs.createQueue(new CreateQueueRequest("v1-again").addAttributesEntry("DelaySeconds", "5"))
			.getQueueUrl();

		assertThat(this.sqs.createQueue(new CreateQueueRequest("v1-again").addAttributesEntry("DelaySeconds", "5"))
			.getQueueUrl()).isEqualTo(url);
		assertThatExceptionOfType(QueueNameExistsException.class).isThrownBy(
				() -> this.sqs.createQueue(new CreateQueueRequest("v1-again").addAttributesEntry("DelaySeconds", "6")))
			.satisfies(ex -> assertThat(ex.getErrorCode()).isEqualTo("QueueAlreadyExists"));
		assertThatExceptionOfType(AmazonSQSException.class)
			.isThrownBy(() -> this.sqs.createQueue(new CreateQueueRequest("v1-named.fifo")))
			.satisfies(ex -> assertThat(ex.getErrorCode()).isEqualTo("InvalidParameterValue"));
	}

	@Test
	void deleteAndVisibilityBatches_emptyTooManyRepeatedOrMalformedIds_refusedWhole() {
		String url = this.sqs.createQueue("v1-batch-rules").getQueueUrl();
		List<Consumer<List<String>>> batches = List.of(
				ids -> this.sqs.deleteMessageBatch(url,
						ids.stream().map(id -> new DeleteMessageBatchRequestEntry(id, "h")).toList()),
				ids -> this.sqs.changeMessageVisibilityBatch(url,
						ids.stream()
							.map(id -> new ChangeMessageVisibilityBatchRequestEntry(id, "h").withVisibilityTimeout(1))
							.toList()));
		for (Consumer<List<String>> batch : batches) {
			assertThatExceptionOfType(EmptyBatchRequestException.class).isThrownBy(() -> batch.accept(List.of()));
			assertThatExceptionOfType(TooManyEntriesInBatchRequestException.class)
				.isThrownBy(() -> batch.accept(IntStream.range(0, 11).mapToObj(i -> "e" + i).toList()));
			assertThatExceptionOfType(BatchEntryIdsNotDistinctException.class)
				.isThrownBy(() -> batch.accept(List.of("same", "same")));
			assertThatExceptionOfType(InvalidBatchEntryIdException.class)
				.isThrownBy(() -> batch.accept(List.of("x".repeat(81))));
		}
	}

	private String policy(String url) {
		return this.sqs.getQueueAttributes(url, List.of("Policy")).getAttributes().get("Policy");
	}

}
