package io.github.qsbench.sqs;

import io.github.qsbench.redis.OnLocalRedis;

/**
 * {@link SqsQueueFidelityHttpTests} with the redis strategy on a real redis-server: the
 * policy, recorded attributes and times kept in Redis.
 */
@OnLocalRedis
class RedisSqsQueueFidelityHttpTests extends SqsQueueFidelityHttpTests {

}
