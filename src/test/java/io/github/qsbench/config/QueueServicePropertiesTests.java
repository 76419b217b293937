package io.github.qsbench.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;

import io.github.qsbench.core.Capacity;
import io.github.qsbench.core.Eviction;
import io.github.qsbench.core.strategy.Strategy;

import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.util.unit.DataSize;

class QueueServicePropertiesTests {

	@Test
	void defaults() {
		QueueServiceProperties properties = bind(Map.of());

		assertThat(properties.strategy()).isEqualTo(Strategy.CONCURRENT_ATOMIC);
		assertThat(properties.leaseTimeout()).isEqualTo(Duration.ofSeconds(30));
		assertThat(properties.eviction()).isEqualTo(Eviction.LAZY);
		assertThat(properties.maxMessageSize()).isEqualTo(DataSize.ofBytes(1_048_576));
		assertThat(properties.otherProfiles()).isEmpty();
	}

	@Test
	void limits_defaultsSizedFromHeap_overridable() {
		long heap = 4L * 1024 * 1024 * 1024;

		assertThat(bind(Map.of()).limits().resolve(heap)).isEqualTo(new Capacity.Limits(10_000, 1_000_000, heap / 2));
		assertThat(
				bind(Map.of("qs.limits.max-total-bytes", "64MB", "qs.limits.max-queues", "5")).limits().resolve(heap))
			.isEqualTo(new Capacity.Limits(5, 1_000_000, 64L * 1024 * 1024));
	}

	@Test
	void profileNames_bindToStrategies() {
		for (Strategy strategy : Strategy.values()) {
			assertThat(bind(Map.of("qs.strategy", strategy.profile())).strategy()).isEqualTo(strategy);
		}
	}

	@Test
	void nonPositiveLease_refused() {
		assertThatThrownBy(() -> bind(Map.of("qs.lease-timeout", "0s")))
			.hasRootCauseMessage("qs.lease-timeout must be positive, was PT0S");
	}

	@Test
	void replicasToAcknowledge_offByDefault_negativeOrNoTimeoutRefused() {
		assertThat(bind(Map.of()).redis().replicasToAcknowledge()).isZero();
		assertThat(bind(Map.of()).redis().replicationTimeout()).isEqualTo(Duration.ofSeconds(1));
		assertThat(bind(Map.of("qs.redis.replicas-to-acknowledge", "2")).redis().replicasToAcknowledge()).isEqualTo(2);
		assertThatThrownBy(() -> bind(Map.of("qs.redis.replicas-to-acknowledge", "-1")))
			.hasRootCauseMessage("qs.redis.replicas-to-acknowledge must be 0 or more and "
					+ "qs.redis.replication-timeout positive, not -1 and PT1S");
		assertThatThrownBy(() -> bind(Map.of("qs.redis.replication-timeout", "0s")))
			.hasRootCauseMessage("qs.redis.replicas-to-acknowledge must be 0 or more and "
					+ "qs.redis.replication-timeout positive, not 0 and PT0S");
	}

	@Test
	void acknowledgedWrites_allByDefault_pushesBound() {
		assertThat(bind(Map.of()).redis().acknowledgedWrites())
			.isEqualTo(QueueServiceProperties.AcknowledgedWrites.ALL);
		assertThat(bind(Map.of("qs.redis.acknowledged-writes", "pushes")).redis().acknowledgedWrites())
			.isEqualTo(QueueServiceProperties.AcknowledgedWrites.PUSHES);
	}

	private static QueueServiceProperties bind(Map<String, String> properties) {
		return new Binder(new MapConfigurationPropertySource(properties)).bindOrCreate("qs",
				QueueServiceProperties.class);
	}

}
