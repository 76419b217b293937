package io.github.qsbench.application.queues;

import io.github.qsbench.application.InvalidRequestException;

/**
 * Where a queue's messages go once delivered too often: a message delivered
 * {@code maxDeliveries} times whose last lease lapsed moves to {@code queue}, its
 * dead-letter queue, instead of being delivered again (SQS's redrive policy, its
 * {@code maxReceiveCount}).
 */
public record DeadLetterPolicy(String queue, int maxDeliveries) {

	/** SQS's range of {@code maxReceiveCount}. */
	public static final int MAX_DELIVERIES = 1000;

	public DeadLetterPolicy {
		if (maxDeliveries < 1 || maxDeliveries > MAX_DELIVERIES) {
			throw InvalidRequestException.outOfRange("maxDeliveries", 1, MAX_DELIVERIES);
		}
	}

}
