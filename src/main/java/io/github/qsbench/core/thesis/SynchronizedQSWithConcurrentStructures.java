package io.github.qsbench.core.thesis;

import static io.github.qsbench.core.thesis.Lockable.mutex;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;

import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.shared.IdIndex;

/**
 * The thesis's own example of 5.2.2.2, "using the same data structures":
 * {@link SynchronizedQS} on {@link ConcurrentQSWithPojoMessage}'s ConcurrentHashMap and
 * ConcurrentLinkedDeque, so that against that strategy only the lock differs, and against
 * {@code SynchronizedQS} only the data structures. Every access holds the map's monitor,
 * so the structures' own thread safety is never needed: exactly-once, with either
 * eviction.
 *
 * <p>
 * The id index, which the thesis's setting does not have (it completes nothing by id), is
 * {@link IdIndex#plain()} (not {@code SynchronizedQS}'s keyed index, nor the lock-free
 * one): the monitor serializes every access to it, and its slots are a third of the
 * lock-free map's (about 10 bytes less a held message, issue 48).
 */
public final class SynchronizedQSWithConcurrentStructures extends AbstractQS<PojoMessage> {

	public SynchronizedQSWithConcurrentStructures(QueueOptions options) {
		super(QSConfiguration.messages(PojoMessage::new)
			.map(mutex(new ConcurrentHashMap<>()))
			.queues(ConcurrentLinkedDeque::new, Lockable::noLock)
			.index(IdIndex::plain), options);
	}

}
