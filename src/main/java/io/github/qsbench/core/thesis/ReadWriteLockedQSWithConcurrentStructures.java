package io.github.qsbench.core.thesis;

import static io.github.qsbench.core.thesis.Lockable.readWrite;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.locks.ReentrantReadWriteLock;

import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.shared.IdIndex;

/**
 * {@link ReadWriteLockedQS} on the concurrent strategies' ConcurrentHashMap and
 * ConcurrentLinkedDeque (thesis 5.2.2.2, "using the same data structures"): against
 * {@link ConcurrentQSWithPojoMessage} only the locks differ. The locks are
 * {@code ReadWriteLockedQS}'s, and so is the guarantee: exactly-once with lazy eviction,
 * at-least-once with eager (polls then share a queue's read lock and race on a
 * {@link PojoMessage}; the concurrent deque does not change that).
 *
 * <p>
 * The id index, which the thesis's setting does not have (it completes nothing by id), is
 * {@link IdIndex#plain()} (not {@code ReadWriteLockedQS}'s keyed index, nor the lock-free
 * one): every access to it (a push's append, a completion, a discard, a lease change, an
 * end of delay) holds the queue's write lock, and no read-locked poll touches it, so it
 * is serialized; its slots are a third of the lock-free map's (about 10 bytes less a held
 * message, issue 48).
 */
public final class ReadWriteLockedQSWithConcurrentStructures extends AbstractQS<PojoMessage> {

	public ReadWriteLockedQSWithConcurrentStructures(QueueOptions options) {
		super(QSConfiguration.messages(PojoMessage::new)
			.map(readWrite(new ConcurrentHashMap<>(), new ReentrantReadWriteLock()))
			.queues(ConcurrentLinkedDeque::new, queue -> readWrite(queue, new ReentrantReadWriteLock()))
			.index(IdIndex::plain), options);
	}

}
