package io.github.qsbench.rest;

import io.github.qsbench.redis.OnLocalRedis;

/**
 * {@link QueueApiHttpTests} with the redis strategy on a real redis-server: every
 * endpoint and status, and the strategy's name in info and metrics.
 */
@OnLocalRedis
class RedisQueueApiHttpTests extends QueueApiHttpTests {

}
