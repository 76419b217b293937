package io.github.qsbench.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.qsbench.core.strategy.Strategy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * When the meter can measure a strategy: always on platform threads; on virtual threads
 * only from JDK 25 (jdk.MethodTrace) and only where the strategy's own waits are not on
 * monitors.
 */
class ContentionVisibilityTests {

	@ParameterizedTest
	@EnumSource(Strategy.class)
	void platformThreads_everyStrategyVisible(Strategy strategy) {
		assertThat(ContentionVisibility.blindSpot(strategy, false, false)).isNull();
		assertThat(ContentionVisibility.blindSpot(strategy, false, true)).isNull();
	}

	@ParameterizedTest
	@EnumSource(Strategy.class)
	void virtualThreadsBeforeJdk25_noStrategyVisible(Strategy strategy) {
		assertThat(ContentionVisibility.blindSpot(strategy, true, false)).contains("jdk.ThreadPark").contains("JDK 25");
	}

	@ParameterizedTest
	@EnumSource(Strategy.class)
	void virtualThreadsOnJdk25_monitorStrategiesBlind(Strategy strategy) {
		String blindSpot = ContentionVisibility.blindSpot(strategy, true, true);
		if (strategy.waits() == Strategy.Waits.MONITORS) {
			assertThat(blindSpot).contains(strategy.profile()).contains("monitor").contains("JEP 491");
		}
		else {
			assertThat(blindSpot).isNull();
		}
	}

}
