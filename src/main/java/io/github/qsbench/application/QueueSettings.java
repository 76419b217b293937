package io.github.qsbench.application;

import java.util.SortedMap;

/**
 * A queue's settings as both faces show them: its lease (its own, or the service's
 * {@code qs.lease-timeout}); its delay (its own, or none); its retention ({@code null}:
 * messages stay until completed); its dead-letter policy, {@code null} for none; the
 * largest message it takes (its own, or the service's {@code qs.max-message-size}); its
 * tags, by key (none: empty).
 */
public record QueueSettings(long leaseSeconds, int delaySeconds, Integer retentionSeconds, DeadLetterPolicy deadLetters,
		int maxMessageBytes, SortedMap<String, String> tags) {

	/**
	 * A change of settings, as a {@code PUT} or {@code SetQueueAttributes} asks for it:
	 * {@code null} leaves a setting as it is.
	 *
	 * @param deadLetters the new policy; {@link #REMOVE} removes it
	 * @param tags the tags to set and remove
	 */
	public record Change(Long leaseSeconds, Integer delaySeconds, Integer retentionSeconds,
			DeadLetterPolicy deadLetters, Integer maxMessageBytes, QueueTags.Change tags) {

		/** A change of {@code deadLetters} that removes the policy. */
		public static final DeadLetterPolicy REMOVE = new DeadLetterPolicy("", 1);

		/** A change that leaves the largest message and the tags as they are. */
		public Change(Long leaseSeconds, Integer delaySeconds, Integer retentionSeconds, DeadLetterPolicy deadLetters) {
			this(leaseSeconds, delaySeconds, retentionSeconds, deadLetters, null, null);
		}

		/** A change of the tags alone. */
		public static Change of(QueueTags.Change tags) {
			return new Change(null, null, null, null, null, tags);
		}

	}

}
