package io.github.qsbench.core;

/**
 * The answer of an operation by id ({@link QueueServiceCore#byId}): the verdicts of a
 * completion, since an operation by id is made or refused as a completion would be. Which
 * of them an operation can give, its constant in {@link ByIdOperation} says.
 */
public enum ByIdOutcome {

	/** The operation was made: this call changed the message. */
	DONE,

	/**
	 * As {@link Completion#NOT_FOUND}: no message with that id is held in that queue in a
	 * state the operation applies to.
	 */
	NOT_FOUND,

	/** As {@link Completion#NOT_DELIVERED}. */
	NOT_DELIVERED,

	/**
	 * As {@link Completion#STALE_LEASE}; for a lease change also when the lease lapsed
	 * and a poll is delivering the message again at that moment.
	 */
	STALE_LEASE;

	/** The operation's answer when a completion's table gave {@code verdict}. */
	public static ByIdOutcome of(Completion verdict) {
		return switch (verdict) {
			case COMPLETED -> DONE;
			case NOT_FOUND -> NOT_FOUND;
			case NOT_DELIVERED -> NOT_DELIVERED;
			case STALE_LEASE -> STALE_LEASE;
		};
	}

	/** Whether the operation was made ({@link #DONE}). */
	public boolean done() {
		return this == DONE;
	}

	/** {@link #DONE} if {@code done}, else {@link #NOT_FOUND}. */
	public static ByIdOutcome doneIf(boolean done) {
		return done ? DONE : NOT_FOUND;
	}

}
