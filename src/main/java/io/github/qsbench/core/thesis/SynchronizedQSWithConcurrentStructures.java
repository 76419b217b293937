package io.github.qsbench.core.thesis;

import static io.github.qsbench.core.thesis.Lockable.mutex;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;

import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.shared.IdIndex;

/**
 * The thesis's own example of 5.2.2.2, "using the same data structures":
 * {@link SynchronizedQS} on {@link ConcurrentQSWithPojoMessage}'s ConcurrentHashMap,
 * ConcurrentLinkedDeque and index, so that against that strategy only the lock differs,
 * and against {@code SynchronizedQS} only the data structures. Every access holds the
 * map's monitor, so the structures' own thread safety is never needed: exactly-once, with
 * either eviction.
 */
public final class SynchronizedQSWithConcurrentStructures extends AbstractQS<PojoMessage> {

	public SynchronizedQSWithConcurrentStructures(QueueOptions options) {
		super(QSConfiguration.messages(PojoMessage::new)
			.map(mutex(new ConcurrentHashMap<>()))
			.queues(ConcurrentLinkedDeque::new, Lockable::noLock)
			.index(IdIndex::lockFree), options);
	}

}
