package io.github.qsbench.core.thesis;

import static io.github.qsbench.core.thesis.Lockable.readWrite;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;

import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.shared.IdIndex;

/**
 * {@link ReadWriteLockedQS} with the read-then-write push the thesis tried and dropped
 * (5.2.3.3, "assume that two reads are faster than one write"): a push to an existing
 * queue holds the map's read lock and the queue's write lock, so pushes to different
 * queues, and polls, no longer wait for one another on the map; only a push that creates
 * its queue takes the map's write lock.
 *
 * <p>
 * Nothing is lost: a queue is removed only under the map's write lock, which waits for
 * every push holding the read lock, and then sees the appended message and keeps the
 * queue; a push that comes after the removal no longer finds the queue and creates it
 * under the write lock. (The thesis's sketch appended outside the map's lock and checked
 * afterwards whether the queue was still mapped, pushing again if not.) Polls are
 * {@code ReadWriteLockedQS}'s, and so is the guarantee: exactly-once with lazy eviction,
 * at-least-once with eager.
 */
public final class ReadWriteLockedQSWithReadPush extends AbstractQS<PojoMessage> {

	public ReadWriteLockedQSWithReadPush(QueueOptions options) {
		super(QSConfiguration.messages(PojoMessage::new)
			.map(readWrite(new HashMap<>(), new ReentrantReadWriteLock()))
			.queues(ArrayDeque::new, queue -> readWrite(queue, new ReentrantReadWriteLock()))
			.index(IdIndex::keyed)
			.readThenWritePush(true), options);
	}

}
