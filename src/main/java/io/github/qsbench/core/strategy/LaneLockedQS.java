package io.github.qsbench.core.strategy;

import java.util.concurrent.locks.ReentrantLock;

import io.github.qsbench.core.AbstractLaneLockedQS;
import io.github.qsbench.core.QueueOptions;

public final class LaneLockedQS extends AbstractLaneLockedQS {

	public LaneLockedQS(QueueOptions options) {
		super(ReentrantLock::new, options);
	}

}
