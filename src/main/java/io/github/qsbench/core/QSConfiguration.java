package io.github.qsbench.core;

import java.util.Deque;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The building blocks a strategy hands up to {@link AbstractQS} (the thesis's
 * {@code Configuration}): how messages are made, and the map, its queues and the id index
 * each wrapped as a {@link Lockable}, so the framework never sees a concrete collection
 * or lock.
 *
 * <p>
 * Read it the thesis's way:
 * {@code QSConfiguration.messages(PojoMessage::new).map(mutex(new HashMap<>())).queues(() -> noLock(new ArrayDeque<>())).index(() -> mutex(new HashMap<>()))}.
 *
 * @param messages creates the strategy's message type
 * @param map queue name to queue; the one map every push and poll goes through
 * @param queues makes a new, empty queue each time a queue name is first pushed to
 * @param index makes the id-to-message lookup, used only when
 * {@link QueueOptions#idLookup()} is on
 */
public record QSConfiguration<M extends AbstractMessage>(AbstractMessage.Factory<M> messages,
		Lockable<Map<String, Lockable<Deque<M>>>> map, Supplier<Lockable<Deque<M>>> queues,
		Supplier<Lockable<Map<Long, M>>> index) {

	public QSConfiguration {
		Objects.requireNonNull(messages, "messages");
	}

	public static <M extends AbstractMessage> QSConfiguration<M> messages(AbstractMessage.Factory<M> messages) {
		return new QSConfiguration<>(messages, null, null, null);
	}

	public QSConfiguration<M> map(Lockable<Map<String, Lockable<Deque<M>>>> map) {
		return new QSConfiguration<>(this.messages, map, this.queues, this.index);
	}

	public QSConfiguration<M> queues(Supplier<Lockable<Deque<M>>> queues) {
		return new QSConfiguration<>(this.messages, this.map, queues, this.index);
	}

	public QSConfiguration<M> index(Supplier<Lockable<Map<Long, M>>> index) {
		return new QSConfiguration<>(this.messages, this.map, this.queues, index);
	}

}
