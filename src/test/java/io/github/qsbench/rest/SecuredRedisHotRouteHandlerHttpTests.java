package io.github.qsbench.rest;

import io.github.qsbench.redis.OnSecuredRedis;

/**
 * {@link HotRouteHandlerHttpTests} with the redis strategy on Redis over TLS, as a user
 * with a password and the least rules docs/redis.md recommends ({@link OnSecuredRedis}):
 * the calls sent from Jetty's selector through Lettuce's asynchronous API.
 */
@OnSecuredRedis
class SecuredRedisHotRouteHandlerHttpTests extends HotRouteHandlerHttpTests {

	@Override
	String strategy() {
		return "redis";
	}

}
