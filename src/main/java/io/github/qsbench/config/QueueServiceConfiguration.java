package io.github.qsbench.config;

import java.time.InstantSource;
import java.util.Map;

import io.github.qsbench.application.ExplicitQueues;
import io.github.qsbench.application.InMemoryExplicitQueues;
import io.github.qsbench.application.RedisExplicitQueues;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.Capacity;
import io.github.qsbench.core.redis.RedisQS;
import io.github.qsbench.core.strategy.Strategy;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.boot.micrometer.metrics.autoconfigure.MeterRegistryCustomizer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * Builds the strategy that the active profile chose, and makes it visible in logs, info
 * and metrics.
 */
@Configuration(proxyBeanMethods = false)
class QueueServiceConfiguration {

	private static final Logger logger = LoggerFactory.getLogger(QueueServiceConfiguration.class);

	@Bean
	InstantSource clock() {
		return InstantSource.system();
	}

	/**
	 * The strategy itself: the application layer is its one caller, through
	 * {@link ApplicationConfiguration#applicationCore}; the gauges read its lock-free
	 * counts.
	 */
	@Bean
	QueueServiceCore queueService(QueueServiceProperties properties, Environment environment, InstantSource clock,
			ObjectProvider<RedisConnectionFactory> redisConnections) {
		StrategyProfiles.check(environment, properties);
		QueueServiceCore service = (properties.strategy() == Strategy.REDIS)
				? redis(properties, redisConnections.getObject(), clock)
				: properties.strategy().create(properties.toOptions(clock));
		logger.info("Queue strategy {} ({}): {} delivery, {} eviction, lease timeout {}, limits {}",
				properties.strategy().profile(), service.getClass().getSimpleName(),
				properties.strategy().delivery(properties.eviction()), properties.eviction(), properties.leaseTimeout(),
				service.capacity().map(Capacity::limits).orElse(null));
		return service;
	}

	/**
	 * The redis strategy on the connection Spring Boot made from
	 * {@code spring.data.redis.*}: standalone, or a cluster when
	 * {@code spring.data.redis.cluster.nodes} is set.
	 */
	private static RedisQS redis(QueueServiceProperties properties, RedisConnectionFactory connections,
			InstantSource clock) {
		return new RedisQS(properties.toOptions(clock), connections, isCluster(connections),
				properties.redis().namespace());
	}

	private static boolean isCluster(RedisConnectionFactory connections) {
		return connections instanceof LettuceConnectionFactory lettuce && lettuce.isClusterAware();
	}

	/**
	 * Where queues created explicitly and their own settings are kept: with the redis
	 * strategy in Redis, in its namespace, so that every instance on it shares them; else
	 * in this instance's memory.
	 */
	@Bean
	ExplicitQueues explicitQueues(QueueServiceCore service, ObjectProvider<RedisConnectionFactory> redisConnections) {
		if (service instanceof RedisQS redis) {
			RedisConnectionFactory connections = redisConnections.getObject();
			return new RedisExplicitQueues(connections, isCluster(connections), redis.namespace());
		}
		return new InMemoryExplicitQueues(service);
	}

	@Bean
	InfoContributor strategyInfo(QueueServiceProperties properties, QueueServiceCore service) {
		Map<String, Object> strategy = Map.of("name", properties.strategy().profile(), "implementation",
				service.getClass().getSimpleName(), "delivery", properties.strategy().delivery(properties.eviction()),
				"eviction", properties.eviction(), "leaseTimeout", properties.leaseTimeout().toString());
		return builder -> builder.withDetail("strategy", strategy);
	}

	/**
	 * Every meter carries the strategy, so one dashboard can compare runs of different
	 * strategies.
	 */
	@Bean
	MeterRegistryCustomizer<MeterRegistry> strategyTag(QueueServiceProperties properties) {
		return registry -> registry.config().commonTags("strategy", properties.strategy().profile());
	}

}
