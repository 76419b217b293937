package io.github.qsbench.core;

import java.time.Duration;
import java.time.InstantSource;
import java.util.Objects;

/**
 * What every strategy is built with, besides its building blocks.
 *
 * @param leaseTimeout how long a polled message stays invisible before it is delivered again
 * @param eviction when completed messages leave their queue
 * @param clock the only source of time, so tests can move it
 * @param idLookup whether messages can be completed by id ({@link AbstractQS#complete(String, long)});
 * the HTTP service needs it, the thesis's benchmark did not have it
 * @param limits caps on what the service holds; {@link Capacity.Limits#UNLIMITED} (the thesis's
 * setting) costs nothing, any other needs id lookup
 */
public record QueueOptions(Duration leaseTimeout, Eviction eviction, InstantSource clock, boolean idLookup,
		Capacity.Limits limits) {

	public static final Duration DEFAULT_LEASE_TIMEOUT = Duration.ofSeconds(30);

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

	/** Without limits. */
	public QueueOptions(Duration leaseTimeout, Eviction eviction, InstantSource clock, boolean idLookup) {
		this(leaseTimeout, eviction, clock, idLookup, Capacity.Limits.UNLIMITED);
	}

	/** 30 s lease, lazy eviction, system clock, id lookup on, no limits. */
	public static QueueOptions defaults() {
		return new QueueOptions(DEFAULT_LEASE_TIMEOUT, Eviction.LAZY, InstantSource.system(), true);
	}

	public QueueOptions withLeaseTimeout(Duration leaseTimeout) {
		return new QueueOptions(leaseTimeout, this.eviction, this.clock, this.idLookup, this.limits);
	}

	public QueueOptions withEviction(Eviction eviction) {
		return new QueueOptions(this.leaseTimeout, eviction, this.clock, this.idLookup, this.limits);
	}

	public QueueOptions withClock(InstantSource clock) {
		return new QueueOptions(this.leaseTimeout, this.eviction, clock, this.idLookup, this.limits);
	}

	public QueueOptions withIdLookup(boolean idLookup) {
		return new QueueOptions(this.leaseTimeout, this.eviction, this.clock, idLookup, this.limits);
	}

	public QueueOptions withLimits(Capacity.Limits limits) {
		return new QueueOptions(this.leaseTimeout, this.eviction, this.clock, this.idLookup, limits);
	}

}
