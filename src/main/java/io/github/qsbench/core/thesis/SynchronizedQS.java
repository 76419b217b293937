package io.github.qsbench.core.thesis;

import static io.github.qsbench.core.thesis.Lockable.mutex;

import java.util.ArrayDeque;
import java.util.HashMap;

import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.shared.IdIndex;

/**
 * HashMap, ArrayDeque and PojoMessage with every map access, read or write, under one
 * {@code synchronized} monitor. Queues are accessed only inside a map access, so they
 * need no guard of their own, and messages are only ever touched by one thread at a time:
 * exactly-once. So does each queue's id index.
 */
public final class SynchronizedQS extends AbstractQS<PojoMessage> {

	public SynchronizedQS(QueueOptions options) {
		super(QSConfiguration.messages(PojoMessage::new)
			.map(mutex(new HashMap<>()))
			.queues(ArrayDeque::new, Lockable::noLock)
			.index(IdIndex::keyed), options);
	}

}
