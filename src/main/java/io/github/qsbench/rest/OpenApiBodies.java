package io.github.qsbench.rest;

import io.github.qsbench.application.Limits;
import io.github.qsbench.application.queues.DeadLetterPolicy;
import io.github.qsbench.application.queues.MessageMoveTasks;
import io.github.qsbench.application.queues.QueueTags;
import java.util.Map;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * The JSON bodies the controller reads itself ({@link JsonRequests}), as its OpenAPI
 * description shows them: every field they accept, with its range, so that the API
 * fuzzing sends each.
 */
final class OpenApiBodies {

	private OpenApiBodies() {
	}

	/**
	 * A {@code PUT}'s body, as the OpenAPI description shows it: every field
	 * {@link JsonRequests#settings} reads.
	 */
	@Schema(name = "QueueSettings", additionalProperties = Schema.AdditionalPropertiesValue.FALSE)
	record SettingsBody(@Schema(minimum = "0", maximum = "" + Limits.MAX_LEASE_SECONDS) Integer leaseSeconds,
			@Schema(minimum = "0", maximum = "" + Limits.MAX_DELAY_SECONDS) Integer delaySeconds,
			@Schema(minimum = "" + Limits.MIN_RETENTION_SECONDS, maximum = "" + Limits.MAX_RETENTION_SECONDS,
					description = "Seconds a message is kept, delivered or not, before it is dropped "
							+ "(none: until completed)") Integer retentionSeconds,
			@Schema(minimum = "" + Limits.MIN_MESSAGE_BYTES, maximum = "" + Limits.MAX_MESSAGE_BYTES,
					description = "The largest message the queue takes, body and attributes, in bytes "
							+ "(at most qs.max-message-size; none: qs.max-message-size)") Integer maxMessageBytes,
			@Schema(minimum = "1", maximum = "" + DeadLetterPolicy.MAX_DELIVERIES) Integer maxDeliveries,
			@Schema(nullable = true, pattern = QueueController.QUEUE_PATTERN) String deadLetterQueue,
			@Schema(description = "Tags merged into the queue's: a key mapped to a value sets it (1 to "
					+ QueueTags.MAX_KEY + " and 0 to " + QueueTags.MAX_VALUE
					+ " Unicode letters, digits, spaces or _ . : / = + - @; keys case-sensitive, not starting "
					+ "with aws:), to null removes it; at most " + QueueTags.MAX_TAGS + " tags a queue",
					maxProperties = QueueTags.MAX_TAGS) Map<String, TagValue> tags,
			@Schema(description = "A FIFO queue (its name ends .fifo): true to create one") Boolean fifo,
			@Schema(description = "A FIFO queue's: deduplicate messages without a deduplicationId "
					+ "by their body's SHA-256") Boolean contentBasedDeduplication,
			@Schema(allowableValues = {
					"queue", "messageGroup" },
					description = "A FIFO queue's: where a deduplication id is unique") String deduplicationScope,
			@Schema(allowableValues = { "perQueue", "perMessageGroupId" },
					description = "A FIFO queue's (perMessageGroupId needs the messageGroup scope)") String throughputLimit){
	}

	/** A tag's value in a {@code PUT}, or null to remove the tag. */
	@Schema(name = "TagValue", type = "string", nullable = true, maxLength = QueueTags.MAX_VALUE)
	record TagValue() {
	}

	/** A redrive's body, as the OpenAPI description shows it. */
	@Schema(name = "Redrive", additionalProperties = Schema.AdditionalPropertiesValue.FALSE)
	record RedriveBody(@Schema(pattern = QueueController.QUEUE_PATTERN) String to, @Schema(minimum = "1") Integer max,
			@Schema(minimum = "1", maximum = "" + MessageMoveTasks.MAX_PER_SECOND,
					description = "A move task's pace: asks for a task (unless max asks for a move at once)") Integer maxPerSecond) {
	}

}
