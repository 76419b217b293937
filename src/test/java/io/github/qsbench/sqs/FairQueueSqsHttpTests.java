package io.github.qsbench.sqs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.github.qsbench.application.fair.FairGroups;
import io.github.qsbench.http.HttpTestBase;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A fair queue through the AWS SDK for Java v2: a standard queue, one tenant's backlog
 * sent with one {@code MessageGroupId}, then {@value #TENANTS} quiet tenants'
 * {@value #QUIET_EACH} each; one consumer receiving batches of {@value #BATCH} gets every
 * quiet message among the first {@link FairGroups#NOISY_MIN} + {@value #TENANTS} x
 * {@value #QUIET_EACH} + {@value #BATCH} (the bound of {@code FairQueueTests} for one
 * consumer), and {@code GetQueueAttributes} answers SQS's five fair-queue counts. The SDK
 * names the attributes as strings: its enum predates them.
 */
class FairQueueSqsHttpTests extends HttpTestBase {

	static final int BACKLOG = 300;

	static final int TENANTS = 4;

	static final int QUIET_EACH = 5;

	static final int BATCH = 10;

	static final List<String> FAIR_ATTRIBUTES = List.of("ApproximateNumberOfNoisyGroups",
			"ApproximateNumberOfMessagesVisibleInQuietGroups", "ApproximateNumberOfMessagesNotVisibleInQuietGroups",
			"ApproximateNumberOfMessagesDelayedInQuietGroups", "ApproximateAgeOfOldestMessageInQuietGroups");

	SqsClient sqs;

	@BeforeEach
	void client() {
		this.sqs = SqsClients.v2(this.port);
	}

	@AfterEach
	void close() {
		this.sqs.close();
	}

	@Test
	void backlogOfOneGroup_quietGroupsReceivedEarly_fiveFairAttributes() {
		String url = this.sqs.createQueue(request -> request.queueName("sdk-fair")).queueUrl();
		for (int from = 0; from < BACKLOG; from += BATCH) {
			List<SendMessageBatchRequestEntry> entries = new ArrayList<>();
			for (int i = 0; i < BATCH; i++) {
				int n = from + i;
				entries.add(SendMessageBatchRequestEntry.builder()
					.id("m" + i)
					.messageBody("noisy-" + n)
					.messageGroupId("noisy")
					.build());
			}
			assertThat(this.sqs.sendMessageBatch(request -> request.queueUrl(url).entries(entries)).failed()).isEmpty();
		}
		Set<String> quiet = new HashSet<>();
		for (int tenant = 1; tenant <= TENANTS; tenant++) {
			for (int i = 0; i < QUIET_EACH; i++) {
				String group = "tenant-" + tenant;
				String body = group + "-" + i;
				quiet.add(this.sqs.sendMessage(request -> request.queueUrl(url).messageBody(body).messageGroupId(group))
					.messageId());
			}
		}

		Map<String, String> counts = fairAttributes(url);
		assertThat(counts).containsOnlyKeys(FAIR_ATTRIBUTES);
		assertThat(counts).containsEntry("ApproximateNumberOfNoisyGroups", "1")
			.containsEntry("ApproximateNumberOfMessagesVisibleInQuietGroups", "" + TENANTS * QUIET_EACH)
			.containsEntry("ApproximateNumberOfMessagesNotVisibleInQuietGroups", "0")
			.containsEntry("ApproximateNumberOfMessagesDelayedInQuietGroups", "0");
		assertThat(Long.parseLong(counts.get("ApproximateAgeOfOldestMessageInQuietGroups"))).isNotNegative();
		assertThat(this.sqs.getQueueAttributes(request -> request.queueUrl(url).attributeNamesWithStrings("All"))
			.attributesAsStrings()).as("All, on a queue with groups")
			.containsKeys(FAIR_ATTRIBUTES.toArray(String[]::new));

		int total = BACKLOG + TENANTS * QUIET_EACH;
		Map<String, Integer> placeOf = new HashMap<>();
		for (int receives = 0; placeOf.size() < total; receives++) {
			assertThat(receives).as("receives").isLessThan(2 * total / BATCH);
			List<Message> messages = this.sqs
				.receiveMessage(request -> request.queueUrl(url).maxNumberOfMessages(BATCH))
				.messages();
			List<DeleteMessageBatchRequestEntry> done = new ArrayList<>();
			for (Message message : messages) {
				assertThat(placeOf.putIfAbsent(message.messageId(), placeOf.size() + 1)).as("delivered twice").isNull();
				done.add(DeleteMessageBatchRequestEntry.builder()
					.id("d" + done.size())
					.receiptHandle(message.receiptHandle())
					.build());
			}
			if (!done.isEmpty()) {
				assertThat(this.sqs.deleteMessageBatch(request -> request.queueUrl(url).entries(done)).failed())
					.isEmpty();
			}
		}

		int last = quiet.stream().mapToInt(placeOf::get).max().orElseThrow();
		assertThat(last).as("the last quiet message's place in delivery order")
			.isLessThanOrEqualTo(FairGroups.NOISY_MIN + TENANTS * QUIET_EACH + BATCH);
		assertThat(fairAttributes(url)).as("everything deleted: nobody noisy, nothing waits")
			.containsEntry("ApproximateNumberOfNoisyGroups", "0")
			.containsEntry("ApproximateNumberOfMessagesVisibleInQuietGroups", "0");
	}

	private Map<String, String> fairAttributes(String url) {
		return this.sqs.getQueueAttributes(request -> request.queueUrl(url).attributeNamesWithStrings(FAIR_ATTRIBUTES))
			.attributesAsStrings();
	}

}
