package io.github.qsbench.config;

import java.time.InstantSource;
import java.util.Map;

import io.github.qsbench.application.StoreGauges;
import io.github.qsbench.application.fifo.FifoGroups;
import io.github.qsbench.application.queues.ExplicitQueues;
import io.github.qsbench.application.stores.Stores;
import io.github.qsbench.core.Capacity;
import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.strategy.Strategy;
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

	/** The wall clock's time without its steps ({@link SlewedClock}). */
	@Bean
	InstantSource clock() {
		return SlewedClock.system();
	}

	/**
	 * The one place the store is chosen: for a strategy kept outside the process
	 * ({@link Strategy.Framework#EXTERNAL}) everything is kept in the {@link #redisStore}
	 * (the core, explicit queues, FIFO and fair groups, FIFO sequences and deduplication,
	 * move tasks), so that instances on it share it; else everything is in this process.
	 * The beans below hand its parts out (each closed as its own bean).
	 */
	@Bean(destroyMethod = "")
	Stores stores(QueueServiceProperties properties, Environment environment, InstantSource clock,
			ObjectProvider<RedisStore> redisStore) {
		StrategyProfiles.check(environment, properties);
		Strategy strategy = properties.strategy();
		QueueOptions options = properties.toOptions(clock);
		return (strategy.framework() == Strategy.Framework.EXTERNAL) ? redisStore.getObject().stores(options)
				: Stores.inProcess(strategy.create(options));
	}

	/**
	 * The strategy itself: the application layer is its one caller, through
	 * {@link ApplicationConfiguration#applicationCore}; the gauges read its lock-free
	 * counts.
	 */
	@Bean
	QueueServiceCore queueService(QueueServiceProperties properties, Stores stores) {
		QueueServiceCore service = stores.core();
		logger.info("Queue strategy {} ({}): {} delivery, {} eviction, lease timeout {}, limits {}",
				properties.strategy().profile(), service.getClass().getSimpleName(),
				properties.strategy().delivery(properties.eviction()), properties.eviction(), properties.leaseTimeout(),
				service.capacity().map(Capacity::limits).orElse(null));
		return service;
	}

	/**
	 * Redis, as Spring Boot connects to it from {@code spring.data.redis.*}: standalone,
	 * or a cluster when {@code spring.data.redis.cluster.nodes} is set. Made only when
	 * {@link #stores} asks for it.
	 */
	@Bean
	@Lazy
	RedisStore redisStore(QueueServiceProperties properties, RedisConnectionFactory connections) {
		QueueServiceProperties.Redis redis = properties.redis();
		RedisStore store = RedisStore.of(connections, redis.namespace(), redis.groupCommit());
		if (redis.replicasToAcknowledge() > 0) {
			store.replicatedBy(redis.replicasToAcknowledge(), redis.replicationTimeout(),
					redis.acknowledgedWrites() == QueueServiceProperties.AcknowledgedWrites.PUSHES);
		}
		return store;
	}

	/** Where queues created explicitly and their own settings are kept. */
	@Bean
	ExplicitQueues explicitQueues(Stores stores) {
		return stores.explicitQueues();
	}

	/**
	 * Where FIFO queues keep their groups' order, sequences and deduplication ids, and
	 * standard queues their fair groups.
	 */
	@Bean
	FifoGroups fifoGroups(Stores stores) {
		return stores.fifoGroups();
	}

	/**
	 * What the gauges read ({@code QueueMetrics}): the core's counts, or the Redis
	 * store's snapshot, whose refresher this bean's close ends.
	 */
	@Bean
	StoreGauges storeGauges(Stores stores) {
		return stores.gauges();
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
