package io.github.qsbench.rest;

import io.github.qsbench.redis.OnSecuredRedis;

/**
 * {@link LongPollHttpTests} with the redis strategy on Redis over TLS, as a user with a
 * password and the least rules docs/redis.md recommends ({@link OnSecuredRedis}): a push
 * through the service wakes a long poll through the namespace's channel, subscribed to
 * over TLS.
 */
@OnSecuredRedis
class SecuredRedisLongPollHttpTests extends LongPollHttpTests {

}
