package io.github.qsbench.core.thesis;

import static io.github.qsbench.core.thesis.Lockable.lock;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.concurrent.locks.ReentrantLock;

import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.shared.IdIndex;

/**
 * {@link SynchronizedQS} with one non-fair {@link ReentrantLock} in place of its monitor
 * (thesis 5.2.2.2: same map, queue and message, only the lock differs): every map access
 * holds the lock, queues are touched only inside a map access, so one thread at a time
 * touches a message: exactly-once, with either eviction.
 */
public final class ReentrantLockedQS extends AbstractQS<PojoMessage> {

	public ReentrantLockedQS(QueueOptions options) {
		super(QSConfiguration.messages(PojoMessage::new)
			.map(lock(new HashMap<>(), new ReentrantLock()))
			.queues(ArrayDeque::new, Lockable::noLock)
			.index(IdIndex::keyed), options);
	}

}
