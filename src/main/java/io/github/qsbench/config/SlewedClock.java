package io.github.qsbench.config;

import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * The service's time: the wall clock's, without its steps. It runs at the pace of
 * {@link System#nanoTime()} and, where the wall clock has moved away from it, is slewed
 * toward it by at most {@value #MAX_SLEW_PER_MILLI} ns a millisecond (0.5%), as NTP
 * slews, looking once a second; only a gap over {@link #STEP_ABOVE_NANOS} (a clock set
 * after a long pause, where that much time did pass) is taken at once.
 *
 * <p>
 * Why: leases and delays are durations, and must not lapse early when the wall clock is
 * stepped forward (an NTP step, or the clock set after this virtual machine was paused:
 * CI's fault check once saw leases of 2 s delivered again after 0.26 s, while no client
 * waited more than 335 ms for an answer). Here a lease is cut by 0.5% at most, and the
 * timestamps the service shows (SQS's {@code SentTimestamp}, a signature's age) come back
 * to the wall clock's, 1.75 s in under six minutes. Instances on one Redis each slew
 * alike, so they agree as their wall clocks do, once they have caught up.
 */
final class SlewedClock implements InstantSource {

	/** How often the wall clock is read, at most. */
	static final long SYNC_NANOS = TimeUnit.SECONDS.toNanos(1);

	/** The fastest catching up: 0.5% of the time that passes. */
	static final long MAX_SLEW_PER_MILLI = 5_000;

	/** A gap over this is a clock set, not a drift: taken at once. */
	static final long STEP_ABOVE_NANOS = TimeUnit.SECONDS.toNanos(30);

	private static final long NANOS_PER_MILLI = 1_000_000;

	private static final long NANOS_PER_SECOND = 1_000_000_000;

	private final LongSupplier nanoTime;

	private final LongSupplier wallEpochNanos;

	private final AtomicReference<Stretch> stretch;

	/**
	 * @param nanoTime a monotonic clock's reading, in nanoseconds
	 * @param wallEpochNanos the wall clock's, in nanoseconds since the epoch
	 */
	SlewedClock(LongSupplier nanoTime, LongSupplier wallEpochNanos) {
		this.nanoTime = nanoTime;
		this.wallEpochNanos = wallEpochNanos;
		this.stretch = new AtomicReference<>(new Stretch(nanoTime.getAsLong(), wallEpochNanos.getAsLong(), 0));
	}

	/** On this machine's clocks. */
	static SlewedClock system() {
		return new SlewedClock(System::nanoTime, () -> {
			Instant now = Instant.now();
			return now.getEpochSecond() * NANOS_PER_SECOND + now.getNano();
		});
	}

	@Override
	public long millis() {
		return Math.floorDiv(epochNanos(), NANOS_PER_MILLI);
	}

	@Override
	public Instant instant() {
		return Instant.ofEpochSecond(0, epochNanos());
	}

	private long epochNanos() {
		long nanos = this.nanoTime.getAsLong();
		Stretch current = this.stretch.get();
		long time = current.epochNanos(nanos);
		if (nanos - current.startNanoTime >= SYNC_NANOS) {
			long gap = this.wallEpochNanos.getAsLong() - time;
			this.stretch.compareAndSet(current, (Math.abs(gap) > STEP_ABOVE_NANOS) ? new Stretch(nanos, time + gap, 0)
					: new Stretch(nanos, time, gap));
		}
		return time;
	}

	/**
	 * From {@code startNanoTime} on, the time is {@code startEpochNanos} plus the
	 * monotonic clock's progress, plus as much of {@code gap} (the wall clock's lead, or
	 * lag if negative) as the slew has caught up since. Continuous where one stretch
	 * follows another.
	 */
	private record Stretch(long startNanoTime, long startEpochNanos, long gap) {

		long epochNanos(long nanoTime) {
			long elapsed = nanoTime - this.startNanoTime;
			long caughtUp = Math.min(Math.abs(this.gap), Math.max(0, elapsed / NANOS_PER_MILLI) * MAX_SLEW_PER_MILLI);
			return this.startEpochNanos + elapsed + Long.signum(this.gap) * caughtUp;
		}

	}

}
