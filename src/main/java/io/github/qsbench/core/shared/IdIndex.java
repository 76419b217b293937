package io.github.qsbench.core.shared;

import java.util.Collection;
import java.util.List;

import org.agrona.collections.Long2ObjectHashMap;
import org.jctools.maps.NonBlockingHashMapLong;

import io.github.qsbench.core.Message;

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
 * Neither boxes its keys: the service holds one entry per message, and a
 * {@code HashMap<Long, M>} or {@code ConcurrentHashMap<Long, M>} costs 66 bytes an entry
 * (a node and a boxed key). {@link #plain()} keeps the messages alone, each found by its
 * own id, 4 bytes a slot: 5 to 10 bytes an entry, depending on how full the table is.
 * {@link #keyed()} and {@link #lockFree()} keep a {@code long} key beside each reference,
 * 12 bytes a slot: 16 to 30 bytes an entry.
 */
public interface IdIndex<M> {

	/**
	 * How full {@link #plain()}'s and {@link #keyed()}'s tables get before they double
	 * (Agrona's default is 0.65): an entry costs at most 10 bytes in {@link #plain()} (4
	 * a slot) and 30 in {@link #keyed()} (12 a slot) just after its table doubles; a
	 * completion's lookup of a present id still takes about three probes on average, and
	 * for the sequential ids the service hands out mostly one.
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
	 * As {@link #plain()}, with a {@code long} key beside each reference (Agrona's map,
	 * 12 bytes a slot): a probe reads the key array, not the message, so a lookup costs
	 * no miss on the messages it passes. For a strategy whose speed, not its bytes, is
	 * the point: {@code lane-locked}'s lanes measured about 20% slower in JMH with id
	 * lookup on {@link #plain()} (docs/architecture.md, "The second pass").
	 */
	static <M> IdIndex<M> keyed() {
		return new Keyed<>();
	}

	/**
	 * For queues whose accesses to the index the strategy serializes: an open-addressing
	 * table of the messages alone, keyed by their own {@link Message#id()} (so
	 * {@link #put} takes only a message under its own id), not thread-safe, filled up to
	 * {@link #PLAIN_LOAD_FACTOR} before it doubles.
	 */
	static <M extends Message> IdIndex<M> plain() {
		return new PlainIdIndex<>();
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
	 * Agrona's map, whose methods keyed by a primitive {@code long} are the index's, so a
	 * lookup follows no extra reference.
	 */
	final class Keyed<M> extends Long2ObjectHashMap<M> implements IdIndex<M> {

		Keyed() {
			super(PLAIN_INITIAL_CAPACITY, PLAIN_LOAD_FACTOR);
		}

		@Override
		public Collection<M> messages() {
			return values();
		}

	}

	/** JCTools' map of {@code long} keys, whose keyed methods are the index's. */
	@SuppressWarnings("serial") // never serialized
	final class LockFree<M> extends NonBlockingHashMapLong<M> implements IdIndex<M> {

		@Override
		public Collection<M> messages() {
			return values();
		}

	}

}
