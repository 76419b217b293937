package io.github.qsbench.application;

/**
 * Queue names, as SQS has them: 1 to 80 of {@code A-Z a-z 0-9 _ -}, a FIFO queue's ending
 * {@value #FIFO_SUFFIX} (which no other queue's does).
 */
public final class QueueNames {

	/** What {@link #isQueueName} accepts, for API descriptions. */
	public static final String QUEUE_NAME_REGEX = "(?:[A-Za-z0-9_-]{1,80}|[A-Za-z0-9_-]{1,75}\\.fifo)";

	/** The suffix of every FIFO queue's name, and of no other queue's. */
	public static final String FIFO_SUFFIX = ".fifo";

	private static final int MAX_QUEUE_NAME = 80;

	private QueueNames() {
	}

	/** Whether {@code name} matches {@link #QUEUE_NAME_REGEX}: a loop, not a matcher. */
	public static boolean isQueueName(String name) {
		int length = isFifo(name) ? name.length() - FIFO_SUFFIX.length() : name.length();
		if (length == 0 || name.length() > MAX_QUEUE_NAME) {
			return false;
		}
		for (int i = 0; i < length; i++) {
			char c = name.charAt(i);
			if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-')) {
				return false;
			}
		}
		return true;
	}

	/** Whether {@code queue} names a FIFO queue. */
	public static boolean isFifo(String queue) {
		return queue.endsWith(FIFO_SUFFIX);
	}

}
