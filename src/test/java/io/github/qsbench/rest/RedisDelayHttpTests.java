package io.github.qsbench.rest;

import io.github.qsbench.redis.OnLocalRedis;

/** {@link DelayHttpTests} with the redis strategy on a real redis-server. */
@OnLocalRedis
class RedisDelayHttpTests extends DelayHttpTests {

}
