package io.github.qsbench.rest;

import io.github.qsbench.redis.OnLocalRedis;

/**
 * {@link RedriveTaskHttpTests} with the redis strategy on a real redis-server: the tasks
 * move messages kept in Redis, with the same pace, cancel and refusals.
 */
@OnLocalRedis
class RedisRedriveTaskHttpTests extends RedriveTaskHttpTests {

}
