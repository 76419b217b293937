package io.github.qsbench.http;

import io.github.qsbench.redis.OnLocalRedis;

/**
 * {@link KeepAliveHttpTests} on the redis strategy, where the hot routes' answers are
 * written from Lettuce's event loop, which then reads the connection's next request
 * itself ({@link ResumeInline#answering}): pipelined requests, hot and not, still get
 * every answer, in order.
 */
@OnLocalRedis
class RedisKeepAliveHttpTests extends KeepAliveHttpTests {

}
