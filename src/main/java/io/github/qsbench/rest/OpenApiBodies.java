package io.github.qsbench.rest;

import io.github.qsbench.application.DeadLetterPolicy;
import io.github.qsbench.application.Limits;
import io.github.qsbench.application.MessageMoveTasks;
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
			@Schema(minimum = "1", maximum = "" + DeadLetterPolicy.MAX_DELIVERIES) Integer maxDeliveries,
			@Schema(nullable = true, pattern = QueueController.QUEUE_PATTERN) String deadLetterQueue) {
	}

	/** A redrive's body, as the OpenAPI description shows it. */
	@Schema(name = "Redrive", additionalProperties = Schema.AdditionalPropertiesValue.FALSE)
	record RedriveBody(@Schema(pattern = QueueController.QUEUE_PATTERN) String to, @Schema(minimum = "1") Integer max,
			@Schema(minimum = "1", maximum = "" + MessageMoveTasks.MAX_PER_SECOND,
					description = "A move task's pace (with Prefer: respond-async only)") Integer maxPerSecond) {
	}

}
