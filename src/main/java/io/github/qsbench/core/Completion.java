package io.github.qsbench.core;

/** The answer of {@link AbstractQS#complete(String, long)}. */
public enum Completion {

	COMPLETED,

	/**
	 * No message with that id is held in that queue (never was, or it was completed
	 * already).
	 */
	NOT_FOUND,

	/** The message exists but was never delivered, so no consumer can be done with it. */
	NOT_DELIVERED

}
