package io.github.qsbench.core.thesis;

import static io.github.qsbench.core.thesis.Lockable.noLock;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;

import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.shared.IdIndex;

/**
 * ConcurrentHashMap and ConcurrentLinkedDeque with no lock of the application's: the data
 * structures are thread-safe, but PojoMessage is not, so two consumers polling at once
 * can both grab one message: at-least-once. (Completion by id stays exactly-once: the
 * index's remove decides.)
 */
public final class ConcurrentQSWithPojoMessage extends AbstractQS<PojoMessage> {

	public ConcurrentQSWithPojoMessage(QueueOptions options) {
		super(QSConfiguration.messages(PojoMessage::new)
			.map(noLock(new ConcurrentHashMap<>()))
			.queues(ConcurrentLinkedDeque::new, Lockable::noLock)
			.index(IdIndex::lockFree), options);
	}

}
