package io.github.qsbench.config;

import java.time.InstantSource;
import java.util.Map;

import io.github.qsbench.application.fifo.FifoGroups;
import io.github.qsbench.application.fifo.InMemoryFifoGroups;
import io.github.qsbench.application.queues.ExplicitQueues;
import io.github.qsbench.application.queues.InMemoryExplicitQueues;
import io.github.qsbench.core.Capacity;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.strategy.Strategy;
import io.github.qsbench.redis.RedisQS;
import io.github.qsbench.redis.RedisStore;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.boot.micrometer.metrics.autoconfigure.MeterRegistryCustomizer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisConnectionFactory;

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
	 * counts. A strategy kept in Redis opens on the {@link #redisStore}; the others never
	 * ask for it.
	 */
	@Bean
	QueueServiceCore queueService(QueueServiceProperties properties, Environment environment, InstantSource clock,
			ObjectProvider<RedisStore> redisStore) {
		StrategyProfiles.check(environment, properties);
		QueueServiceCore service = properties.strategy()
			.create(new Strategy.Context(properties.toOptions(clock), redisStore::getObject));
		logger.info("Queue strategy {} ({}): {} delivery, {} eviction, lease timeout {}, limits {}",
				properties.strategy().profile(), service.getClass().getSimpleName(),
				properties.strategy().delivery(properties.eviction()), properties.eviction(), properties.leaseTimeout(),
				service.capacity().map(Capacity::limits).orElse(null));
		return service;
	}

	/**
	 * Redis, as Spring Boot connects to it from {@code spring.data.redis.*}: standalone,
	 * or a cluster when {@code spring.data.redis.cluster.nodes} is set. Made only when a
	 * strategy asks for it.
	 */
	@Bean
	@Lazy
	RedisStore redisStore(QueueServiceProperties properties, RedisConnectionFactory connections) {
		return RedisStore.of(connections, properties.redis().namespace());
	}

	/**
	 * Where queues created explicitly and their own settings are kept: with the redis
	 * strategy in Redis, in its namespace, so that every instance on it shares them; else
	 * in this instance's memory.
	 */
	@Bean
	ExplicitQueues explicitQueues(QueueServiceCore service) {
		return (service instanceof RedisQS redis) ? redis.store().explicitQueues()
				: new InMemoryExplicitQueues(service);
	}

	/**
	 * Where FIFO queues keep their groups' order: with the redis strategy in Redis, so
	 * that the group rule holds across instances; else in this instance's memory.
	 */
	@Bean
	FifoGroups fifoGroups(QueueServiceCore service) {
		return (service instanceof RedisQS redis) ? redis.store().fifoGroups() : new InMemoryFifoGroups();
	}

	/** The strategy the profile chose, for what names it (meters, the live page). */
	@Bean
	Strategy strategy(QueueServiceProperties properties) {
		return properties.strategy();
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
