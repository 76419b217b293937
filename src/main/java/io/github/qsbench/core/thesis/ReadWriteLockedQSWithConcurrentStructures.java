package io.github.qsbench.core.thesis;

import static io.github.qsbench.core.thesis.Lockable.readWrite;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.locks.ReentrantReadWriteLock;

import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.shared.IdIndex;

/**
 * {@link ReadWriteLockedQS} on the concurrent strategies' ConcurrentHashMap,
 * ConcurrentLinkedDeque and index (thesis 5.2.2.2, "using the same data structures"):
 * against {@link ConcurrentQSWithPojoMessage} only the locks differ. The locks are
 * {@code ReadWriteLockedQS}'s, and so is the guarantee: exactly-once with lazy eviction,
 * at-least-once with eager (polls then share a queue's read lock and race on a
 * {@link PojoMessage}; the concurrent deque does not change that).
 */
public final class ReadWriteLockedQSWithConcurrentStructures extends AbstractQS<PojoMessage> {

	public ReadWriteLockedQSWithConcurrentStructures(QueueOptions options) {
		super(QSConfiguration.messages(PojoMessage::new)
			.map(readWrite(new ConcurrentHashMap<>(), new ReentrantReadWriteLock()))
			.queues(ConcurrentLinkedDeque::new, queue -> readWrite(queue, new ReentrantReadWriteLock()))
			.index(IdIndex::lockFree), options);
	}

}
