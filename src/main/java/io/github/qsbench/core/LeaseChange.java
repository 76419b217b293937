package io.github.qsbench.core;

/**
 * The answer of a lease change ({@link QueueServiceCore#changeLease}): the verdicts of a
 * completion, since a change may be made exactly when a completion could.
 */
public enum LeaseChange {

	CHANGED,

	/** As {@link Completion#NOT_FOUND}. */
	NOT_FOUND,

	/** As {@link Completion#NOT_DELIVERED}. */
	NOT_DELIVERED,

	/**
	 * As {@link Completion#STALE_LEASE}; also when the lease lapsed and a poll is
	 * delivering the message again at that moment.
	 */
	STALE_LEASE;

	/** The change's answer when a completion's table gave {@code verdict}. */
	public static LeaseChange of(Completion verdict) {
		return switch (verdict) {
			case COMPLETED -> CHANGED;
			case NOT_FOUND -> NOT_FOUND;
			case NOT_DELIVERED -> NOT_DELIVERED;
			case STALE_LEASE -> STALE_LEASE;
		};
	}

}
