package io.github.qsbench.core.thesis;

import static io.github.qsbench.core.thesis.Lockable.readWrite;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;

import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.shared.IdIndex;

/**
 * {@link ReadWriteLockedQS} with fair locks (thesis 5.2.2.1): the map's and each queue's
 * {@link ReentrantReadWriteLock} hand the lock over in arrival order, so a waiting writer
 * (a push) is not overtaken by a stream of readers (polls), at the cost of a hand-over
 * per acquisition. Only the locks' policy differs, so the delivery guarantee is
 * {@code ReadWriteLockedQS}'s: exactly-once with lazy eviction, at-least-once with eager.
 */
public final class FairReadWriteLockedQS extends AbstractQS<PojoMessage> {

	public FairReadWriteLockedQS(QueueOptions options) {
		super(QSConfiguration.messages(PojoMessage::new)
			.map(readWrite(new HashMap<>(), new ReentrantReadWriteLock(true)))
			.queues(ArrayDeque::new, queue -> readWrite(queue, new ReentrantReadWriteLock(true)))
			.index(IdIndex::keyed), options);
	}

}
