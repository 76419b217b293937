package io.github.qsbench.config;

import java.time.Instant;
import java.time.InstantSource;
import java.util.function.LongSupplier;

/**
 * Epoch time that never steps: the wall clock read once, when the service starts, and
 * advanced from then on by {@link System#nanoTime()}. Leases and delays are durations, so
 * they must not lapse early when the wall clock is stepped forward (an NTP step, or the
 * clock set after a virtual machine was paused: the fault check once saw leases of 2 s
 * redelivered after 0.26 s, every early one in two bursts of one run). Both clocks are
 * slewed alike by NTP; they differ only by the steps since the service started, which the
 * timestamps it shows (SQS's {@code SentTimestamp}) then lag or lead by.
 *
 * <p>
 * For a store in this process only: instances that share a Redis time leases by their
 * wall clocks, the time they agree on.
 */
final class MonotonicClock implements InstantSource {

	private static final long NANOS_PER_SECOND = 1_000_000_000L;

	private static final long NANOS_PER_MILLI = 1_000_000L;

	private final long startEpochNanos;

	private final long startNanoTime;

	private final LongSupplier nanoTime;

	MonotonicClock(Instant start, LongSupplier nanoTime) {
		this.startEpochNanos = Math.addExact(Math.multiplyExact(start.getEpochSecond(), NANOS_PER_SECOND),
				start.getNano());
		this.nanoTime = nanoTime;
		this.startNanoTime = nanoTime.getAsLong();
	}

	/** Anchored at the wall clock's time now. */
	static MonotonicClock startingNow() {
		return new MonotonicClock(Instant.now(), System::nanoTime);
	}

	private long epochNanos() {
		return this.startEpochNanos + (this.nanoTime.getAsLong() - this.startNanoTime);
	}

	@Override
	public long millis() {
		return Math.floorDiv(epochNanos(), NANOS_PER_MILLI);
	}

	@Override
	public Instant instant() {
		return Instant.ofEpochSecond(0, epochNanos());
	}

}
