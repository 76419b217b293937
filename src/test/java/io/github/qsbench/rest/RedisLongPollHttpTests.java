package io.github.qsbench.rest;

import io.github.qsbench.redis.OnLocalRedis;

/** {@link LongPollHttpTests} with the redis strategy on a real redis-server. */
@OnLocalRedis
class RedisLongPollHttpTests extends LongPollHttpTests {

}
