package io.github.qsbench.application;

/**
 * SQS's fair-queue attributes of a standard queue with message groups, as the fair queues
 * count them.
 *
 * @param noisyGroups {@code ApproximateNumberOfNoisyGroups}
 * @param visible {@code ApproximateNumberOfMessagesVisibleInQuietGroups}
 * @param notVisible {@code ApproximateNumberOfMessagesNotVisibleInQuietGroups}
 * @param delayed {@code ApproximateNumberOfMessagesDelayedInQuietGroups}
 * @param oldestSeconds {@code ApproximateAgeOfOldestMessageInQuietGroups}
 */
public record QuietCounts(long noisyGroups, long visible, long notVisible, long delayed, long oldestSeconds) {

	/** A queue without groups. */
	public static final QuietCounts NONE = new QuietCounts(0, 0, 0, 0, 0);

}
