package io.github.qsbench.core;

import org.agrona.collections.Long2ObjectHashMap;
import org.jctools.maps.NonBlockingHashMapLong;

/**
 * A queue's messages by id, so that a completion by id never scans the queue. It lives in
 * its queue and is only accessed inside the same {@link Lockable} access as the queue's
 * messages, so a strategy guards it with its own mechanism.
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

	void put(long id, M message);

	/**
	 * Removes the entry if it maps to that message; {@code true} for exactly one caller.
	 */
	boolean remove(long id, M message);

	/**
	 * For queues whose accesses the strategy serializes: Agrona's open-addressing map,
	 * not thread-safe, filled up to {@link #PLAIN_LOAD_FACTOR} before it doubles.
	 */
	static <M> IdIndex<M> plain() {
		Long2ObjectHashMap<M> map = new Long2ObjectHashMap<>(PLAIN_INITIAL_CAPACITY, PLAIN_LOAD_FACTOR);
		return new IdIndex<>() {

			@Override
			public M get(long id) {
				return map.get(id);
			}

			@Override
			public void put(long id, M message) {
				map.put(id, message);
			}

			@Override
			public boolean remove(long id, M message) {
				return map.remove(id, message);
			}

		};
	}

	/**
	 * For queues that strategies access without a lock: JCTools' lock-free map, whose
	 * {@code remove(id, message)} succeeds for exactly one of two racing callers.
	 */
	static <M> IdIndex<M> lockFree() {
		NonBlockingHashMapLong<M> map = new NonBlockingHashMapLong<>();
		return new IdIndex<>() {

			@Override
			public M get(long id) {
				return map.get(id);
			}

			@Override
			public void put(long id, M message) {
				map.put(id, message);
			}

			@Override
			public boolean remove(long id, M message) {
				return map.remove(id, message);
			}

		};
	}

}
