package io.github.qsbench.rest;

import io.github.qsbench.redis.OnSecuredRedis;

/**
 * {@link QueueApiHttpTests} with the redis strategy on Redis over TLS, as a user with a
 * password and the least rules docs/redis.md recommends ({@link OnSecuredRedis}): every
 * endpoint and status, the listing's and the gauges' scripts, the health check.
 */
@OnSecuredRedis
class SecuredRedisQueueApiHttpTests extends QueueApiHttpTests {

}
