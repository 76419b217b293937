package io.github.qsbench.core.thesis;

import static io.github.qsbench.core.thesis.Lockable.noLock;

import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentHashMap;

import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.shared.IdIndex;

/**
 * Tomcat's {@code SynchronizedQueue} (seed 001) as the queue: each queue is an
 * {@link ArrayDeque} (the JDK's {@code Object[]} ring, which grows by doubling as
 * Tomcat's does) under one {@code synchronized} monitor of its own, in the
 * ConcurrentHashMap of the concurrent strategies. Against
 * {@link ConcurrentQSWithPojoMessage} only the queue differs: an array under a monitor
 * instead of the lock-free linked {@code ConcurrentLinkedDeque} that Tomcat's author
 * measured 2 to 2.5 times slower.
 *
 * <p>
 * Every access to a queue, its index and its messages (push, walk, completion by id,
 * stats, the emptiness check before removal) holds that queue's monitor, read or write
 * alike, so a {@link PojoMessage} is touched by one thread at a time: exactly-once, with
 * either eviction. A push appends inside the map's {@code compute} and a removal inside
 * its {@code computeIfPresent}, which lock the same bin of the map, so no push appends to
 * a queue being removed.
 */
public final class SynchronizedArrayQueueQS extends AbstractQS<PojoMessage> {

	public SynchronizedArrayQueueQS(QueueOptions options) {
		super(QSConfiguration.messages(PojoMessage::new)
			.map(noLock(new ConcurrentHashMap<>()))
			.queues(ArrayDeque::new, Lockable::mutex)
			.index(IdIndex::keyed), options);
	}

}
