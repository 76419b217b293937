package io.github.qsbench.core;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/** A clock that moves only when a test says so. */
public final class MutableClock implements InstantSource {

	private volatile Instant now;

	public MutableClock() {
		this(Instant.parse("2017-06-01T00:00:00Z"));
	}

	/**
	 * A clock that starts at {@code start}: now, where a client signs with the real time.
	 */
	public MutableClock(Instant start) {
		this.now = start;
	}

	@Override
	public Instant instant() {
		return this.now;
	}

	public void advance(Duration duration) {
		this.now = this.now.plus(duration);
	}

}
