package io.github.qsbench.rest;

import io.github.qsbench.redis.OnSecuredRedis;

/**
 * {@link RedriveTaskHttpTests} with the redis strategy on Redis over TLS, as a user with
 * a password and the least rules docs/redis.md recommends ({@link OnSecuredRedis}): the
 * move tasks' records, claims and cancels.
 */
@OnSecuredRedis
class SecuredRedisRedriveTaskHttpTests extends RedriveTaskHttpTests {

}
