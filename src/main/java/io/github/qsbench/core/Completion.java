package io.github.qsbench.core;

/** The answer of a completion by id ({@link AbstractQS#complete(String, long, int)}). */
public enum Completion {

	COMPLETED,

	/**
	 * No message with that id is held in that queue (never was, or it was completed
	 * already).
	 */
	NOT_FOUND,

	/** The message exists but was never delivered, so no consumer can be done with it. */
	NOT_DELIVERED,

	/**
	 * The lease named is not the message's current delivery: it was delivered again
	 * since, so only its new holder may complete it.
	 */
	STALE_LEASE

}
