package io.github.qsbench.application.queues;

import java.util.Set;

import io.github.qsbench.application.InvalidRequestException;

/**
 * A FIFO queue's own settings, as SQS has them. In a {@link QueueSettings.Change} a
 * {@code null} field leaves the setting as it is; read back ({@link QueueSettings}) every
 * field is set.
 *
 * @param contentBasedDeduplication whether a message without a deduplication id is
 * deduplicated by its body's SHA-256
 * @param deduplicationScope {@value #QUEUE} (a deduplication id is unique in the queue)
 * or {@value #MESSAGE_GROUP} (in its group)
 * @param throughputLimit {@code perQueue} or {@code perMessageGroupId}: SQS's quota,
 * which a local queue keeps only as a setting ({@code perMessageGroupId} needs the
 * {@value #MESSAGE_GROUP} scope, as in SQS)
 */
public record FifoSettings(Boolean contentBasedDeduplication, String deduplicationScope, String throughputLimit) {

	public static final String QUEUE = "queue";

	public static final String MESSAGE_GROUP = "messageGroup";

	private static final String PER_QUEUE = "perQueue";

	private static final String PER_MESSAGE_GROUP_ID = "perMessageGroupId";

	/** A new FIFO queue's settings. */
	public static final FifoSettings DEFAULTS = new FifoSettings(false, QUEUE, PER_QUEUE);

	/**
	 * These settings with {@code change} applied.
	 * @throws InvalidRequestException for a scope or limit SQS does not know, or the
	 * {@code perMessageGroupId} limit without the {@value #MESSAGE_GROUP} scope
	 */
	public FifoSettings with(FifoSettings change) {
		FifoSettings changed = new FifoSettings(
				(change.contentBasedDeduplication != null) ? change.contentBasedDeduplication
						: this.contentBasedDeduplication,
				(change.deduplicationScope != null) ? change.deduplicationScope : this.deduplicationScope,
				(change.throughputLimit != null) ? change.throughputLimit : this.throughputLimit);
		oneOf("deduplicationScope", changed.deduplicationScope, QUEUE, MESSAGE_GROUP);
		oneOf("throughputLimit", changed.throughputLimit, PER_QUEUE, PER_MESSAGE_GROUP_ID);
		if (changed.throughputLimit.equals(PER_MESSAGE_GROUP_ID) && !changed.deduplicationScope.equals(MESSAGE_GROUP)) {
			throw new InvalidRequestException("Invalid FIFO settings",
					"The throughput limit perMessageGroupId needs the deduplication scope messageGroup.");
		}
		return changed;
	}

	private static void oneOf(String name, String value, String... allowed) {
		if (!Set.of(allowed).contains(value)) {
			throw new InvalidRequestException("Invalid FIFO settings",
					name + " is one of " + String.join(", ", allowed) + "; it was '" + value + "'.");
		}
	}

	/** Whether deduplication ids are unique per group rather than per queue. */
	public boolean perGroup() {
		return MESSAGE_GROUP.equals(this.deduplicationScope);
	}

}
