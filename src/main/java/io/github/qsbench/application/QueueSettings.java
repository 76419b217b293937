package io.github.qsbench.application;

import java.util.SortedMap;

/**
 * A queue's settings as both faces show them: its lease (its own, or the service's
 * {@code qs.lease-timeout}); its delay (its own, or none); its retention ({@code null}:
 * messages stay until completed); its dead-letter policy, {@code null} for none; the
 * largest message it takes (its own, or the service's {@code qs.max-message-size}); its
 * tags, by key (none: empty); a FIFO queue's settings, {@code null} for a standard queue.
 */
public record QueueSettings(long leaseSeconds, int delaySeconds, Integer retentionSeconds, DeadLetterPolicy deadLetters,
		int maxMessageBytes, SortedMap<String, String> tags, FifoSettings fifo) {

	/**
	 * A change of settings, as a {@code PUT} or {@code SetQueueAttributes} asks for it:
	 * {@code null} leaves a setting as it is.
	 *
	 * @param deadLetters the new policy; {@link #REMOVE} removes it
	 * @param tags the tags to set and remove
	 * @param fifo for a queue whose name ends {@value FifoSettings#SUFFIX}, the FIFO
	 * settings to change (needed to create it: a FIFO queue is created as one); must be
	 * {@code null} for any other
	 */
	public record Change(Long leaseSeconds, Integer delaySeconds, Integer retentionSeconds,
			DeadLetterPolicy deadLetters, Integer maxMessageBytes, QueueTags.Change tags, FifoSettings fifo) {

		/** A change of {@code deadLetters} that removes the policy. */
		public static final DeadLetterPolicy REMOVE = new DeadLetterPolicy("", 1);

		/**
		 * A change that leaves the largest message, the tags and the FIFO settings as
		 * they are.
		 */
		public Change(Long leaseSeconds, Integer delaySeconds, Integer retentionSeconds, DeadLetterPolicy deadLetters) {
			this(leaseSeconds, delaySeconds, retentionSeconds, deadLetters, null, null, null);
		}

		/** A change of the tags alone. */
		public static Change of(QueueTags.Change tags) {
			return new Change(null, null, null, null, null, tags, null);
		}

	}

}
