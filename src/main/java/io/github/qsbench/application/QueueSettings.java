package io.github.qsbench.application;

/**
 * A queue's settings as both faces show them: its lease (its own, or the service's
 * {@code qs.lease-timeout}); its delay (its own, or none); its retention ({@code null}:
 * messages stay until completed); its dead-letter policy, {@code null} for none.
 */
public record QueueSettings(long leaseSeconds, int delaySeconds, Integer retentionSeconds,
		DeadLetterPolicy deadLetters) {

	/**
	 * A change of settings, as a {@code PUT} or {@code SetQueueAttributes} asks for it:
	 * {@code null} leaves a setting as it is.
	 *
	 * @param deadLetters the new policy; {@link #REMOVE} removes it
	 */
	public record Change(Long leaseSeconds, Integer delaySeconds, Integer retentionSeconds,
			DeadLetterPolicy deadLetters) {

		/** A change of {@code deadLetters} that removes the policy. */
		public static final DeadLetterPolicy REMOVE = new DeadLetterPolicy("", 1);

	}

}
