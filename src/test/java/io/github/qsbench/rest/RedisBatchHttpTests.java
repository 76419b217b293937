package io.github.qsbench.rest;

import io.github.qsbench.redis.OnLocalRedis;

/** {@link BatchHttpTests} with the redis strategy on a real redis-server. */
@OnLocalRedis
class RedisBatchHttpTests extends BatchHttpTests {

}
