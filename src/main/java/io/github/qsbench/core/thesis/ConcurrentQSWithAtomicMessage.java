package io.github.qsbench.core.thesis;

import static io.github.qsbench.core.thesis.Lockable.noLock;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;

import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.shared.IdIndex;

/**
 * ConcurrentHashMap and ConcurrentLinkedDeque with AtomicMessage: no lock of the
 * application's, and a compare-and-set on the message decides which of two racing
 * consumers grabs it: exactly-once.
 */
public final class ConcurrentQSWithAtomicMessage extends AbstractQS<AtomicMessage> {

	public ConcurrentQSWithAtomicMessage(QueueOptions options) {
		super(QSConfiguration.messages(AtomicMessage::new)
			.map(noLock(new ConcurrentHashMap<>()))
			.queues(ConcurrentLinkedDeque::new, Lockable::noLock)
			.index(IdIndex::lockFree), options);
	}

}
