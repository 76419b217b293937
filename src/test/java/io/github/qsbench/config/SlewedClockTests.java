package io.github.qsbench.config;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The clock on a monotonic clock and a wall clock that the test moves: the wall clock
 * runs with the monotonic one, except where a test steps it.
 */
class SlewedClockTests {

	private static final Instant START = Instant.parse("2026-12-03T14:00:00.123456789Z");

	private long nanoTime = -5_000_000_000L;

	private long wallEpochNanos = START.getEpochSecond() * 1_000_000_000L + START.getNano();

	private final SlewedClock clock = new SlewedClock(() -> this.nanoTime, () -> this.wallEpochNanos);

	@Test
	void withAWallClockThatDoesNotStep_isTheWallClock() {
		assertThat(this.clock.instant()).isEqualTo(START);
		for (int second = 0; second < 5; second++) {
			pass(Duration.ofMillis(999_999_999L / 1_000_000));
			assertThat(this.clock.instant()).isEqualTo(wall());
			assertThat(this.clock.millis()).isEqualTo(wall().toEpochMilli());
		}
	}

	@Test
	void aStepForward_doesNotCutALease_andIsCaughtUpAtHalfAPercent() {
		pass(Duration.ofSeconds(1));
		long leaseEnd = this.clock.millis() + 2_000;
		this.wallEpochNanos += Duration.ofMillis(1_750).toNanos(); // the wall clock is
																	// set

		long leased = this.nanoTime;
		while (this.clock.millis() < leaseEnd) {
			pass(Duration.ofMillis(1));
		}
		assertThat(Duration.ofNanos(this.nanoTime - leased)).as("the lease's length by the monotonic clock")
			.isBetween(Duration.ofMillis(1_990), Duration.ofMillis(2_000));

		pass(Duration.ofSeconds(350)); // 1.75 s at 5 ms a second
		pass(Duration.ofSeconds(1));
		assertThat(this.clock.instant()).isEqualTo(wall());
	}

	@Test
	void aStepBack_neverTurnsTheClockBack_andIsCaughtUp() {
		this.wallEpochNanos -= Duration.ofSeconds(1).toNanos();
		long before = this.clock.millis();
		for (int millis = 0; millis < 250_000; millis++) {
			pass(Duration.ofMillis(1));
			long now = this.clock.millis();
			assertThat(now).isGreaterThanOrEqualTo(before);
			before = now;
		}
		assertThat(this.clock.instant()).isEqualTo(wall());
	}

	@Test
	void aGapOverThirtySeconds_isTakenAtOnce() {
		this.wallEpochNanos += Duration.ofMinutes(5).toNanos(); // the machine slept

		pass(Duration.ofSeconds(1));
		this.clock.millis(); // sees the gap
		assertThat(this.clock.instant()).isEqualTo(wall());
	}

	@Test
	void afterALongIdle_catchesUpNoMoreThanTheGap() {
		this.wallEpochNanos += Duration.ofMillis(100).toNanos();
		pass(Duration.ofSeconds(1));
		this.clock.millis(); // sees the gap

		pass(Duration.ofDays(3)); // nobody asked the time meanwhile
		assertThat(this.clock.instant()).isEqualTo(wall());
	}

	/** Time passes, on both clocks. */
	private void pass(Duration duration) {
		this.nanoTime += duration.toNanos();
		this.wallEpochNanos += duration.toNanos();
	}

	private Instant wall() {
		return Instant.ofEpochSecond(0, this.wallEpochNanos);
	}

}
