/**
 * The Redis store, out of process: the redis strategy (RedisQS), the explicit queues, the
 * FIFO groups with their state (sequences, deduplication, receive attempts), the message
 * move tasks and the gauges' snapshot kept in Redis, the Lua scripts beside them, and the
 * one RedisStore they share (call helper, key scheme, subscription), which hands them all
 * out as one {@code Stores}. Spring Data Redis is used here and nowhere else in src/main;
 * Lettuce's asynchronous commands too, beneath it, for the calls no thread waits for
 * ({@code RedisStore#callAsync}), which Spring Data's connection does not offer.
 *
 * <p>
 * May import: core, core.strategy, application, application.queues, application.fifo,
 * application.fair, application.stores; org.springframework.dao,
 * org.springframework.data.redis, io.lettuce.core, org.slf4j.
 */
package io.github.qsbench.redis;
