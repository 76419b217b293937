package io.github.qsbench.core.lanes;

import java.util.concurrent.locks.ReentrantLock;

import io.github.qsbench.core.QueueOptions;

/**
 * A non-fair {@link ReentrantLock} per queue over two array rings, ready and in flight:
 * thesis 5.2.3.1 (in-flight messages apart) with the lock of 5.2.2.2, one per queue as
 * Tomcat's array queue of seed 001 has one monitor per queue. Exactly-once, as
 * {@link AbstractLaneLockedQS} explains. A thread that finds a queue's lock held parks,
 * whichever side it is on ({@link Waiting#PARK}).
 */
public final class LaneLockedQS extends AbstractLaneLockedQS {

	public LaneLockedQS(QueueOptions options) {
		super(ReentrantLock::new, Waiting.PARK, options);
	}

}
