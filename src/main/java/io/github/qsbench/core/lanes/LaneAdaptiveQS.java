package io.github.qsbench.core.lanes;

import java.util.concurrent.locks.ReentrantLock;

import io.github.qsbench.core.QueueOptions;

/**
 * {@link LaneLockedQS}'s queues, locks and messages, with another way to wait for a held
 * lock: the side that is behind spins while the other parks
 * ({@link Waiting#SIDE_BEHIND_SPINS}). Only waiting differs, so the two side by side show
 * what parking costs when threads outnumber processors: with one producer and four
 * consumers on two processors, {@code LaneLockedQS}'s producer parks behind consumers and
 * delivers a fraction of what it does alone. Exactly-once, as
 * {@link AbstractLaneLockedQS} explains.
 */
public final class LaneAdaptiveQS extends AbstractLaneLockedQS {

	public LaneAdaptiveQS(QueueOptions options) {
		super(ReentrantLock::new, Waiting.SIDE_BEHIND_SPINS, options);
	}

}
