package io.github.qsbench.core.shared;

import java.util.Collection;
import java.util.List;

import org.agrona.collections.Long2ObjectHashMap;
import org.jctools.maps.NonBlockingHashMapLong;

/**
 * Held messages by id, so that a completion by id finds its message without a scan. Each
 * framework keeps it under the guard of what it indexes, so a strategy guards it with its
 * own mechanism: the thesis's {@code AbstractQS} keeps one per queue, in the queue,
 * touched only inside the same {@code Lockable} access as the queue's messages;
 * {@code AbstractLaneLockedQS} one per queue, under the queue's lock;
 * {@code AbstractSplitQS}, which takes no lock, one {@link #lockFree()} index for the
 * whole service.
 *
 * <p>
 * Both implementations key by a primitive {@code long}: one entry costs 16 to 30 bytes of
 * heap, depending on how full the table is, where a {@code HashMap<Long, M>} or
 * {@code ConcurrentHashMap<Long, M>} costs 66 (a node and a boxed key per entry), and the
 * service holds one entry per message.
 */
public interface IdIndex<M> {

	/**
	 * Agrona's default is 0.65. At 0.8 an entry (a {@code long} key and a reference, 12
	 * bytes a slot) costs at most 30 bytes just after the table doubles, instead of 37,
	 * which keeps a held 100-byte message under 200 bytes at any fill; a completion's
	 * lookup of a present key still takes about three probes on average.
	 */
	float PLAIN_LOAD_FACTOR = 0.8f;

	int PLAIN_INITIAL_CAPACITY = 8;

	M get(long id);

	/**
	 * @return the message it replaced, if any (ids are unique: none)
	 */
	M put(long id, M message);

	/**
	 * Removes the entry if it maps to that message; {@code true} for exactly one caller.
	 */
	boolean remove(long id, M message);

	/**
	 * The indexed messages, in no order: a view, weakly consistent for
	 * {@link #lockFree()}, and under the indexed queue's guard for {@link #plain()}.
	 */
	Collection<M> messages();

	/**
	 * For queues whose accesses the strategy serializes: Agrona's open-addressing map,
	 * not thread-safe, filled up to {@link #PLAIN_LOAD_FACTOR} before it doubles.
	 */
	static <M> IdIndex<M> plain() {
		return new Plain<>();
	}

	/**
	 * For queues that strategies access without a lock: JCTools' lock-free map, whose
	 * {@code remove(id, message)} succeeds for exactly one of two racing callers.
	 */
	static <M> IdIndex<M> lockFree() {
		return new LockFree<>();
	}

	/**
	 * For the thesis's setting, which completes nothing by id: keeps nothing, so that a
	 * framework indexes every message without asking which setting it runs in.
	 */
	@SuppressWarnings("unchecked")
	static <M> IdIndex<M> none() {
		return (IdIndex<M>) None.INSTANCE;
	}

	/** {@link #none()}. */
	enum None implements IdIndex<Object> {

		INSTANCE;

		@Override
		public Object get(long id) {
			return null;
		}

		@Override
		public Object put(long id, Object message) {
			return null;
		}

		@Override
		public boolean remove(long id, Object message) {
			return false;
		}

		@Override
		public Collection<Object> messages() {
			return List.of();
		}

	}

	/**
	 * The map itself is the index (its methods keyed by a primitive {@code long} are the
	 * index's), so a lookup follows no extra reference.
	 */
	final class Plain<M> extends Long2ObjectHashMap<M> implements IdIndex<M> {

		Plain() {
			super(PLAIN_INITIAL_CAPACITY, PLAIN_LOAD_FACTOR);
		}

		@Override
		public Collection<M> messages() {
			return values();
		}

	}

	/** As {@link Plain}, lock-free. */
	@SuppressWarnings("serial") // never serialized
	final class LockFree<M> extends NonBlockingHashMapLong<M> implements IdIndex<M> {

		@Override
		public Collection<M> messages() {
			return values();
		}

	}

}
