package io.github.qsbench.rest;

import io.github.qsbench.application.Limits;
import io.github.qsbench.application.queues.DeadLetterPolicy;
import io.github.qsbench.application.queues.MessageMoveTasks;
import io.github.qsbench.application.queues.QueueTags;
import java.util.List;
import java.util.Map;

import io.github.qsbench.application.LeaseTokens;
import io.github.qsbench.application.MessageAttributes;
import io.github.qsbench.application.OutgoingMessage;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * The JSON bodies the controllers read themselves ({@link JsonRequests},
 * {@link QueueJsonRequests}), as the OpenAPI description shows them: every field they
 * accept, with its range, so that the API fuzzing sends each.
 */
final class OpenApiBodies {

	private OpenApiBodies() {
	}

	/**
	 * A {@code PUT}'s body, as the OpenAPI description shows it: every field
	 * {@link QueueJsonRequests#settings} reads.
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

	/** The body of a lease change, as the OpenAPI description shows it. */
	@Schema(name = "LeaseChange", additionalProperties = Schema.AdditionalPropertiesValue.FALSE)
	record LeaseChangeBody(@Schema(requiredMode = Schema.RequiredMode.REQUIRED, minimum = "0",
			maximum = "" + Limits.MAX_LEASE_SECONDS,
			description = "Seconds from now until the lease ends; 0 makes the message ready at once") int leaseSeconds) {
	}

	/** The body of a batch push, as the OpenAPI description shows it. */
	@Schema(name = "PushBatch", additionalProperties = Schema.AdditionalPropertiesValue.FALSE)
	record PushBatch(@ArraySchema(arraySchema = @Schema(requiredMode = Schema.RequiredMode.REQUIRED), minItems = 1,
			maxItems = Limits.MAX_BATCH,
			schema = @Schema(description = "A message body, or a message with attributes", oneOf = {
					MessageBody.class, PushMessage.class })) List<Object> messages){
	}

	/** A message body alone, as a batch entry. */
	@Schema(name = "MessageBody", type = "string", minLength = 1, description = "A message body")
	record MessageBody() {
	}

	/** A push in JSON form, and a batch entry with attributes. */
	@Schema(name = "PushMessage", additionalProperties = Schema.AdditionalPropertiesValue.FALSE)
	record PushMessage(@Schema(requiredMode = Schema.RequiredMode.REQUIRED, minLength = 1) String body,
			@Schema(description = "Up to 10 attributes by name (1 to 256 of A-Z a-z 0-9 _ - .)",
					maxProperties = MessageAttributes.MAX_ATTRIBUTES) Map<String, AttributeEntry> attributes,
			@Schema(pattern = OutgoingMessage.ID_PATTERN,
					description = "The message group (SQS's MessageGroupId): required on a FIFO queue (its "
							+ "messages are delivered in order, one at a time); on a standard queue the tenant of a "
							+ "fair queue: a tenant with at least 30 messages released and more than 10% of the "
							+ "queue's is noisy, and its further messages wait until no quiet tenant's does") String group,
			@Schema(pattern = OutgoingMessage.ID_PATTERN,
					description = "A FIFO queue's deduplication id: a push with one seen in the last 5 minutes "
							+ "answers the first push's id") String deduplicationId) {
	}

	/** One attribute of {@link PushMessage}. */
	@Schema(name = "MessageAttribute", additionalProperties = Schema.AdditionalPropertiesValue.FALSE)
	record AttributeEntry(
			@Schema(requiredMode = Schema.RequiredMode.REQUIRED, pattern = "^(String|Number|Binary)(\\..+)?$",
					description = "String, Number or Binary, optionally with a custom suffix") String type,
			@Schema(requiredMode = Schema.RequiredMode.REQUIRED, minLength = 1,
					description = "The value: text, a number, or base64 for Binary") String value) {
	}

	/** The body of a completions batch, as the OpenAPI description shows it. */
	@Schema(name = "CompletionBatch", additionalProperties = Schema.AdditionalPropertiesValue.FALSE)
	record CompletionBatch(@ArraySchema(arraySchema = @Schema(requiredMode = Schema.RequiredMode.REQUIRED),
			minItems = 1, maxItems = Limits.MAX_BATCH) List<CompletionEntry> messages) {
	}

	/** One entry of {@link CompletionBatch}. */
	@Schema(name = "CompletionEntry", additionalProperties = Schema.AdditionalPropertiesValue.FALSE)
	record CompletionEntry(
			@Schema(requiredMode = Schema.RequiredMode.REQUIRED, minimum = "1",
					description = "The message id, as returned by a push") long id,
			@Schema(description = "The lease a poll answered; completes only that delivery, like If-Match",
					nullable = true, pattern = "^" + LeaseTokens.TOKEN_REGEX + "$") String lease) {
	}

}
