package io.github.qsbench.core;

/**
 * One delivery of a message to one consumer: the message and the number of this delivery
 * (1 for the first), read while the strategy's guard still held the queue, so it is
 * exactly this consumer's delivery. A completion that names it
 * ({@link QueueServiceCore#complete(String, long, int)}) succeeds only while no later
 * delivery exists.
 */
public record Lease(Message message, int delivery) {
}
