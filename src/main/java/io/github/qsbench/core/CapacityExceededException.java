package io.github.qsbench.core;

/**
 * A push refused because a {@link Capacity} cap is reached; nothing was changed. Expected
 * under a flood, so it carries no stack trace.
 */
public final class CapacityExceededException extends RuntimeException {

	private final Capacity.Limit limit;

	private final long max;

	public CapacityExceededException(Capacity.Limit limit, long max) {
		super(limit.property() + " reached (" + max + ")", null, false, false);
		this.limit = limit;
		this.max = max;
	}

	public Capacity.Limit limit() {
		return this.limit;
	}

	public long max() {
		return this.max;
	}

}
