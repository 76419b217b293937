package io.github.qsbench.core;

import java.time.Duration;
import java.time.InstantSource;
import java.util.Objects;

/**
 * What every strategy is built with, besides its building blocks.
 *
 * @param leaseTimeout how long a polled message stays invisible before it is delivered
 * again
 * @param eviction when completed messages leave their queue
 * @param clock the only source of time, so tests can move it
 * @param idLookup whether messages can be completed by id
 * ({@link QueueServiceCore#complete(String, long)}); the HTTP service needs it, the
 * thesis's benchmark did not have it
 * @param limits caps on what the service holds; {@link Capacity.Limits#UNLIMITED} (the
 * thesis's setting) costs nothing, any other needs id lookup
 */
public record QueueOptions(Duration leaseTimeout, Eviction eviction, InstantSource clock, boolean idLookup,
		Capacity.Limits limits) {

	public QueueOptions {
		Objects.requireNonNull(leaseTimeout, "leaseTimeout");
		Objects.requireNonNull(eviction, "eviction");
		Objects.requireNonNull(clock, "clock");
		if (leaseTimeout.isNegative() || leaseTimeout.isZero()) {
			throw new IllegalArgumentException("leaseTimeout must be positive, was " + leaseTimeout);
		}
		Objects.requireNonNull(limits, "limits");
		if (!idLookup && !limits.equals(Capacity.Limits.UNLIMITED)) {
			throw new IllegalArgumentException("limits need id lookup: completion by id is what releases them");
		}
	}

	/**
	 * What every operation that finds a message by id checks first.
	 * @param idLookup whether the service was built with id lookup
	 * @throws IllegalStateException if it was not (the thesis's setting)
	 */
	public static void requireIdLookup(boolean idLookup) {
		if (!idLookup) {
			throw new IllegalStateException("built without id lookup (the thesis's setting)");
		}
	}

	/** Without limits. */
	public QueueOptions(Duration leaseTimeout, Eviction eviction, InstantSource clock, boolean idLookup) {
		this(leaseTimeout, eviction, clock, idLookup, Capacity.Limits.UNLIMITED);
	}

}
