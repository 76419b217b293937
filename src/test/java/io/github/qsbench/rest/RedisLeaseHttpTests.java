package io.github.qsbench.rest;

import io.github.qsbench.redis.OnLocalRedis;

/** {@link LeaseHttpTests} with the redis strategy on a real redis-server. */
@OnLocalRedis
class RedisLeaseHttpTests extends LeaseHttpTests {

}
