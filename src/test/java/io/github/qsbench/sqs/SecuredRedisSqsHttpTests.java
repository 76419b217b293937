package io.github.qsbench.sqs;

import io.github.qsbench.redis.OnSecuredRedis;

/**
 * {@link SqsHttpTests} with the redis strategy on Redis over TLS, as a user with a
 * password and the least rules docs/redis.md recommends ({@link OnSecuredRedis}): the SQS
 * face, with its FIFO queues' shared sequence numbers and deduplication.
 */
@OnSecuredRedis
class SecuredRedisSqsHttpTests extends SqsHttpTests {

	@Override
	boolean keepsFirstReceive() {
		return false;
	}

}
