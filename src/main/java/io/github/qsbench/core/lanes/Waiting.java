package io.github.qsbench.core.lanes;

import java.util.concurrent.locks.Lock;

/**
 * How a thread of {@link AbstractLaneLockedQS} waits for a lane's lock that another
 * thread holds.
 */
enum Waiting {

	/** It parks in the lock's queue ({@link Lock#lock()}), as any thread would. */
	PARK,

	/**
	 * The side that is behind gets the lock first: in a lane holding a backlog one
	 * consumer at a time spins for the lock instead of parking (yielding between rounds
	 * of spins), in a nearly empty one one producer at a time spins a while; every other
	 * waiter parks, and a poll that found nothing yields the processor. With more threads
	 * than processors a parked thread falls further behind, so the lone thread of the
	 * lagging side should not wait (docs/design/lanes.md).
	 */
	SIDE_BEHIND_SPINS

}
