package io.github.qsbench.core.thesis;

import static io.github.qsbench.core.thesis.Lockable.readWrite;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;

import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.shared.IdIndex;

/**
 * HashMap, ArrayDeque and PojoMessage, the map and each queue guarded by its own non-fair
 * {@link ReentrantReadWriteLock}: polls share the map's read lock and serialize per queue
 * on its write lock (lazy eviction mutates the queue), so a message is grabbed by one
 * thread at a time: exactly-once. With eager eviction polls only read the queue and may
 * race on a message.
 */
public final class ReadWriteLockedQS extends AbstractQS<PojoMessage> {

	public ReadWriteLockedQS(QueueOptions options) {
		super(QSConfiguration.messages(PojoMessage::new)
			.map(readWrite(new HashMap<>(), new ReentrantReadWriteLock()))
			.queues(ArrayDeque::new, queue -> readWrite(queue, new ReentrantReadWriteLock()))
			.index(IdIndex::keyed), options);
	}

}
