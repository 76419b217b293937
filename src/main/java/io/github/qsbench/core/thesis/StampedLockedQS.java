package io.github.qsbench.core.thesis;

import static io.github.qsbench.core.thesis.Lockable.stamped;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.concurrent.locks.StampedLock;

import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.shared.IdIndex;

/**
 * {@link ReadWriteLockedQS} with a {@link StampedLock} on the map and on each queue, and
 * optimistic reads where the thesis's appendix A suggests them: finding a queue by name
 * (every poll, lease and completion) reads the map without writing to the lock, and takes
 * the read lock only if a writer intervened (see {@link Lockable#stamped}). The queue is
 * then accessed after that lookup under its own lock, not nested in the map's;
 * {@code AbstractQS} explains why a queue removed in between does no harm. Queues are
 * walked under a real lock, since a walk changes messages. As for
 * {@code ReadWriteLockedQS}, exactly-once with lazy eviction (polls write-lock the
 * queue); eager eviction lets polls share the queue's read lock and race on a
 * {@link PojoMessage}: at-least-once.
 */
public final class StampedLockedQS extends AbstractQS<PojoMessage> {

	public StampedLockedQS(QueueOptions options) {
		super(QSConfiguration.messages(PojoMessage::new)
			.map(stamped(new HashMap<>(), new StampedLock()))
			.queues(ArrayDeque::new, queue -> stamped(queue, new StampedLock()))
			.index(IdIndex::keyed), options);
	}

}
