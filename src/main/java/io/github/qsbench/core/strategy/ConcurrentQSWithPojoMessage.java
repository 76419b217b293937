package io.github.qsbench.core.strategy;

import static io.github.qsbench.core.Lockable.noLock;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;

import io.github.qsbench.core.AbstractQS;
import io.github.qsbench.core.Lockable;
import io.github.qsbench.core.IdIndex;
import io.github.qsbench.core.PojoMessage;
import io.github.qsbench.core.QSConfiguration;
import io.github.qsbench.core.QueueOptions;

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
