package io.github.qsbench.rest;

import io.github.qsbench.redis.OnSecuredRedis;

/**
 * {@link BatchHttpTests} with the redis strategy on Redis over TLS, as a user with a
 * password and the least rules docs/redis.md recommends ({@link OnSecuredRedis}): the
 * batch scripts.
 */
@OnSecuredRedis
class SecuredRedisBatchHttpTests extends BatchHttpTests {

}
