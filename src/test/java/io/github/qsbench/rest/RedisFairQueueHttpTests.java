package io.github.qsbench.rest;

import io.github.qsbench.redis.OnLocalRedis;

/**
 * {@link FairQueueHttpTests} with the redis strategy on a real redis-server, where a fair
 * queue's grouped pushes, polls and completions are sent to Redis from the REST fast path
 * without a thread waiting, once the instance knows the queue has groups.
 */
@OnLocalRedis
class RedisFairQueueHttpTests extends FairQueueHttpTests {

}
