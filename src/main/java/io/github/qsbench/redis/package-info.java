/**
 * The Redis store, out of process: the redis strategy (RedisQS), the explicit queues kept
 * in Redis, the Lua scripts beside them, and the one RedisStore they share (call helper,
 * key scheme, subscription). Spring Data Redis is used here and nowhere else in src/main.
 *
 * <p>
 * May import: core, core.strategy, application.queues, application.fifo,
 * application.fair; org.springframework.dao, org.springframework.data.redis.
 */
package io.github.qsbench.redis;
