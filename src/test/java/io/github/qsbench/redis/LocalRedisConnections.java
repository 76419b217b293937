package io.github.qsbench.redis;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Spring Data connection factories (Lettuce, as Spring Boot makes them) for the test
 * servers; whoever asks for one destroys it.
 */
public final class LocalRedisConnections {

	private LocalRedisConnections() {
	}

	public static LettuceConnectionFactory standalone(LocalRedis redis) {
		return started(new LettuceConnectionFactory(new RedisStandaloneConfiguration(redis.host(), redis.port())));
	}

	public static LettuceConnectionFactory cluster(LocalRedisCluster cluster) {
		return started(new LettuceConnectionFactory(new RedisClusterConfiguration(cluster.nodes())));
	}

	private static LettuceConnectionFactory started(LettuceConnectionFactory factory) {
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

}
