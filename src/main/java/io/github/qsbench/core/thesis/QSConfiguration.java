package io.github.qsbench.core.thesis;

import java.util.Deque;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

import io.github.qsbench.core.shared.IdIndex;

/**
 * The building blocks a strategy hands up to {@link AbstractQS} (the thesis's
 * {@code Configuration}): how messages are made, the map, the deque inside each queue,
 * how a queue is guarded, and the index by id; so the framework never sees a concrete
 * collection or lock.
 *
 * <p>
 * Read it the thesis's way:
 * {@code QSConfiguration.messages(PojoMessage::new).map(mutex(new HashMap<>())).queues(ArrayDeque::new, Lockable::noLock).index(IdIndex::keyed)}.
 *
 * @param messages creates the strategy's message type
 * @param map queue name to queue; the one map every push and poll goes through
 * @param deques makes the deque of a new queue, each time a queue name is first pushed to
 * @param guard wraps a new queue (its deque, index and counts) in the strategy's guard
 * @param index makes a queue's id-to-message lookup, used only when
 * {@link io.github.qsbench.core.QueueOptions#idLookup()} is on
 * @param readThenWritePush see {@link #readThenWritePush(boolean)}
 */
public record QSConfiguration<M extends AbstractMessage>(AbstractMessage.Factory<M> messages,
		Lockable<Map<String, Lockable<MessageQueue<M>>>> map, Supplier<Deque<M>> deques,
		Function<MessageQueue<M>, Lockable<MessageQueue<M>>> guard, Supplier<IdIndex<M>> index,
		boolean readThenWritePush) {

	public QSConfiguration {
		Objects.requireNonNull(messages, "messages");
	}

	public static <M extends AbstractMessage> QSConfiguration<M> messages(AbstractMessage.Factory<M> messages) {
		return new QSConfiguration<>(messages, null, null, null, null, false);
	}

	public QSConfiguration<M> map(Lockable<Map<String, Lockable<MessageQueue<M>>>> map) {
		return new QSConfiguration<>(this.messages, map, this.deques, this.guard, this.index, this.readThenWritePush);
	}

	public QSConfiguration<M> queues(Supplier<Deque<M>> deques,
			Function<MessageQueue<M>, Lockable<MessageQueue<M>>> guard) {
		return new QSConfiguration<>(this.messages, this.map, deques, guard, this.index, this.readThenWritePush);
	}

	public QSConfiguration<M> index(Supplier<IdIndex<M>> index) {
		return new QSConfiguration<>(this.messages, this.map, this.deques, this.guard, index, this.readThenWritePush);
	}

	/**
	 * Whether to push to an existing queue under read access of the map (and write access
	 * of the queue) instead of write access of the map; only a push that has to create
	 * its queue takes the map's write access (thesis 5.2.3.3, "two reads are faster than
	 * one write"). Needs a map whose read access excludes its write access for as long as
	 * it lasts (a mutex, a read-write lock), since that is what keeps a queue from being
	 * removed under an append; {@link AbstractQS} refuses a {@link Lockable#noLock} map.
	 */
	public QSConfiguration<M> readThenWritePush(boolean readThenWritePush) {
		return new QSConfiguration<>(this.messages, this.map, this.deques, this.guard, this.index, readThenWritePush);
	}

}
