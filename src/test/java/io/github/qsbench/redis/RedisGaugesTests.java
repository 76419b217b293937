package io.github.qsbench.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The gauges' refresher rests a second after a quick reading, and nine times as long as a
 * slow one took, so that however many queues a reading covers it reads at most a tenth of
 * the time.
 */
class RedisGaugesTests {

	@Test
	void rest_aSecondAfterAQuickReading_nineTimesASlowOne() {
		assertThat(RedisGauges.restMillis(0)).isEqualTo(1_000);
		assertThat(RedisGauges.restMillis(111)).isEqualTo(1_000);
		assertThat(RedisGauges.restMillis(112)).isEqualTo(1_008);
		assertThat(RedisGauges.restMillis(2_000)).isEqualTo(18_000);
	}

}
