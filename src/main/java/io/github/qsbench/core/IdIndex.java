package io.github.qsbench.core;

import org.agrona.collections.Long2ObjectHashMap;
import org.jctools.maps.NonBlockingHashMapLong;

/**
 * A queue's messages by id, so that a completion by id never scans the queue. It lives in
 * its queue and is only accessed inside the same {@link Lockable} access as the queue's
 * messages, so a strategy guards it with its own mechanism.
 *
 * <p>
 * Both implementations key by a primitive {@code long}: one entry costs about 28 bytes of
 * heap, where a {@code HashMap<Long, M>} or {@code ConcurrentHashMap<Long, M>} costs 66
 * (a node and a boxed key per entry), and the service holds one entry per message.
 */
public interface IdIndex<M> {

	M get(long id);

	void put(long id, M message);

	/**
	 * Removes the entry if it maps to that message; {@code true} for exactly one caller.
	 */
	boolean remove(long id, M message);

	/**
	 * For queues whose accesses the strategy serializes: Agrona's open-addressing map,
	 * not thread-safe.
	 */
	static <M> IdIndex<M> plain() {
		Long2ObjectHashMap<M> map = new Long2ObjectHashMap<>();
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
