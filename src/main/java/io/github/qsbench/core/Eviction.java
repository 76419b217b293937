package io.github.qsbench.core;

/** When completed messages leave their queue (thesis section 5.2.3.2). */
public enum Eviction {

	/** Completing only marks the message; the next poll that walks past it removes it. */
	LAZY,

	/**
	 * Completing removes the message from its queue at once (and the queue if it became
	 * empty). Polls then walk a queue with read access only, so a strategy whose messages
	 * are not thread-safe and whose reads run concurrently ({@code ReadWriteLockedQS})
	 * delivers at least once, as the thesis notes.
	 */
	EAGER

}
