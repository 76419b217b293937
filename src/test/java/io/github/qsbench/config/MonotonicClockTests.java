package io.github.qsbench.config;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class MonotonicClockTests {

	private static final Instant START = Instant.parse("2026-12-03T14:00:00.123456789Z");

	private final AtomicLong nanoTime = new AtomicLong(-5_000_000_000L);

	private final MonotonicClock clock = new MonotonicClock(START, this.nanoTime::get);

	@Test
	void startsAtTheWallClocksReading() {
		assertThat(this.clock.instant()).isEqualTo(START);
		assertThat(this.clock.millis()).isEqualTo(START.toEpochMilli());
	}

	@Test
	void advancesByTheMonotonicClockOnly() {
		this.nanoTime.addAndGet(1_999_999_999L);

		assertThat(this.clock.instant()).isEqualTo(START.plusNanos(1_999_999_999L));
		assertThat(this.clock.millis()).isEqualTo(START.toEpochMilli() + 2_000);
	}

	@Test
	void aStartBeforeTheEpochRoundsMillisDown() {
		MonotonicClock early = new MonotonicClock(Instant.ofEpochSecond(0, -1), this.nanoTime::get);

		assertThat(early.millis()).isEqualTo(-1);
	}

}
