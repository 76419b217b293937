package io.github.qsbench.sqs;

import io.github.qsbench.redis.OnLocalRedis;

/** {@link SqsHttpTests} with the redis strategy on a real redis-server. */
@OnLocalRedis
class RedisSqsHttpTests extends SqsHttpTests {

	@Override
	boolean keepsFirstReceive() {
		return false;
	}

}
