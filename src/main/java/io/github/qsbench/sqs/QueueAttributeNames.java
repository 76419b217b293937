package io.github.qsbench.sqs;

import java.util.HashSet;
import java.util.Set;

import io.github.qsbench.application.QueueNames;

/**
 * The catalogue of queue attributes, every one SQS's model names: their names, which are
 * only read, which a FIFO queue alone has, and whether one may be set on a queue.
 */
final class QueueAttributeNames {

	private QueueAttributeNames() {
	}

	static final String APPROXIMATE_NUMBER_OF_MESSAGES = "ApproximateNumberOfMessages";

	static final String APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE = "ApproximateNumberOfMessagesNotVisible";

	static final String APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED = "ApproximateNumberOfMessagesDelayed";

	static final String NOISY_GROUPS = "ApproximateNumberOfNoisyGroups";

	static final String VISIBLE_IN_QUIET_GROUPS = "ApproximateNumberOfMessagesVisibleInQuietGroups";

	static final String NOT_VISIBLE_IN_QUIET_GROUPS = "ApproximateNumberOfMessagesNotVisibleInQuietGroups";

	static final String DELAYED_IN_QUIET_GROUPS = "ApproximateNumberOfMessagesDelayedInQuietGroups";

	static final String AGE_OF_OLDEST_IN_QUIET_GROUPS = "ApproximateAgeOfOldestMessageInQuietGroups";

	/** A standard queue's fair-queue attributes (SQS's fair queues). */
	static final Set<String> FAIR = Set.of(NOISY_GROUPS, VISIBLE_IN_QUIET_GROUPS, NOT_VISIBLE_IN_QUIET_GROUPS,
			DELAYED_IN_QUIET_GROUPS, AGE_OF_OLDEST_IN_QUIET_GROUPS);

	static final String QUEUE_ARN = "QueueArn";

	static final String CREATED_TIMESTAMP = "CreatedTimestamp";

	static final String LAST_MODIFIED_TIMESTAMP = "LastModifiedTimestamp";

	static final String VISIBILITY_TIMEOUT = "VisibilityTimeout";

	static final String DELAY_SECONDS = "DelaySeconds";

	static final String MESSAGE_RETENTION_PERIOD = "MessageRetentionPeriod";

	static final String REDRIVE_POLICY = "RedrivePolicy";

	static final String MAXIMUM_MESSAGE_SIZE = "MaximumMessageSize";

	static final String FIFO_QUEUE = "FifoQueue";

	static final String CONTENT_BASED_DEDUPLICATION = "ContentBasedDeduplication";

	static final String DEDUPLICATION_SCOPE = "DeduplicationScope";

	static final String FIFO_THROUGHPUT_LIMIT = "FifoThroughputLimit";

	/** The queue's access policy, recorded: see {@link PermissionActions}. */
	static final String POLICY = "Policy";

	static final String RECEIVE_MESSAGE_WAIT_TIME_SECONDS = "ReceiveMessageWaitTimeSeconds";

	static final String REDRIVE_ALLOW_POLICY = "RedriveAllowPolicy";

	static final String KMS_MASTER_KEY_ID = "KmsMasterKeyId";

	static final String KMS_DATA_KEY_REUSE_PERIOD_SECONDS = "KmsDataKeyReusePeriodSeconds";

	static final String SQS_MANAGED_SSE_ENABLED = "SqsManagedSseEnabled";

	/** SQS's default {@code KmsDataKeyReusePeriodSeconds}, once a KMS key is set. */
	static final String DEFAULT_KMS_REUSE_SECONDS = "300";

	/** The most bytes an access policy may have, SQS's quota. */
	static final int MAX_POLICY_BYTES = 8192;

	/** Only read: never set. */
	static final Set<String> READ_ONLY = union(
			Set.of(APPROXIMATE_NUMBER_OF_MESSAGES, APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE,
					APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED, QUEUE_ARN, CREATED_TIMESTAMP, LAST_MODIFIED_TIMESTAMP),
			FAIR);

	/** A FIFO queue's alone: unknown to a standard queue, as in SQS. */
	static final Set<String> FIFO_ONLY = Set.of(CONTENT_BASED_DEDUPLICATION, DEDUPLICATION_SCOPE,
			FIFO_THROUGHPUT_LIMIT);

	/** Every attribute SQS's model names but {@code All}. */
	static final Set<String> NAMES = union(FAIR,
			Set.of(APPROXIMATE_NUMBER_OF_MESSAGES, APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE,
					APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED, QUEUE_ARN, CREATED_TIMESTAMP, LAST_MODIFIED_TIMESTAMP,
					VISIBILITY_TIMEOUT, DELAY_SECONDS, MESSAGE_RETENTION_PERIOD, REDRIVE_POLICY, MAXIMUM_MESSAGE_SIZE,
					FIFO_QUEUE, CONTENT_BASED_DEDUPLICATION, DEDUPLICATION_SCOPE, FIFO_THROUGHPUT_LIMIT, POLICY,
					RECEIVE_MESSAGE_WAIT_TIME_SECONDS, REDRIVE_ALLOW_POLICY, KMS_MASTER_KEY_ID,
					KMS_DATA_KEY_REUSE_PERIOD_SECONDS, SQS_MANAGED_SSE_ENABLED));

	private static Set<String> union(Set<String> one, Set<String> other) {
		Set<String> both = new HashSet<>(one);
		both.addAll(other);
		return Set.copyOf(both);
	}

	/**
	 * @throws SqsException {@code InvalidAttributeName} for an attribute SQS does not
	 * have, one only read, or a FIFO queue's on a standard queue
	 */
	static void checkSettable(String queue, String name) {
		if (READ_ONLY.contains(name) || !NAMES.contains(name)
				|| (FIFO_ONLY.contains(name) && !QueueNames.isFifo(queue))) {
			throw QueueHandler.invalidAttributeName(name);
		}
	}

}
