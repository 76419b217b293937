package io.github.qsbench.core;

/**
 * The answer of a completion by id
 * ({@link QueueServiceCore#complete(String, long, int)}).
 */
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
	STALE_LEASE;

	/**
	 * The one decision table of a completion, shared by every message class: whether a
	 * message in that state may be completed for that delivery ({@link #COMPLETED}: the
	 * message then completes itself by its own means), or why not. Each message reads its
	 * state once and passes it here, so the answer is about one consistent state.
	 * @param completed whether it is completed already
	 * @param deliveries how often it was delivered
	 * @param delivery the delivery the caller holds, or
	 * {@link QueueServiceCore#ANY_DELIVERY}
	 */
	public static Completion decide(boolean completed, int deliveries, int delivery) {
		if (completed) {
			return NOT_FOUND;
		}
		if (deliveries == 0) {
			return NOT_DELIVERED;
		}
		if (delivery != QueueServiceCore.ANY_DELIVERY && delivery != deliveries) {
			return STALE_LEASE;
		}
		return COMPLETED;
	}

}
