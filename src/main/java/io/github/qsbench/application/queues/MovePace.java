package io.github.qsbench.application.queues;

/**
 * A message move task's pace on the instance that steps it ({@link MessageMoveTasks}): a
 * token bucket holding at most a second's worth of moves, refilled by the service's
 * clock. Used by the stepping thread alone.
 */
final class MovePace {

	/**
	 * What a task without a pace moves per step at most, so that one task does not hold
	 * up the others or a stop.
	 */
	static final int UNPACED_PER_STEP = 1_000;

	private final Integer maxPerSecond;

	/** Moves the pace allows now. */
	private double allowance;

	private long refilledAt;

	/**
	 * @param maxPerSecond moves a second, {@code null}: {@value #UNPACED_PER_STEP} a step
	 * @param startedMillis when the bucket starts filling, empty
	 */
	MovePace(Integer maxPerSecond, long startedMillis) {
		this.maxPerSecond = maxPerSecond;
		this.refilledAt = startedMillis;
	}

	/** How many it may move now: what its pace allowed since, up to a second's worth. */
	int budget(long now) {
		if (this.maxPerSecond == null) {
			return UNPACED_PER_STEP;
		}
		this.allowance = Math.min(this.maxPerSecond,
				this.allowance + Math.max(0, now - this.refilledAt) * this.maxPerSecond / 1000.0);
		this.refilledAt = Math.max(now, this.refilledAt);
		return (int) this.allowance;
	}

	void spent(int moved) {
		if (this.maxPerSecond != null) {
			this.allowance -= moved;
		}
	}

}
