package io.github.qsbench.core;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A queue's messages by id, so that a completion by id never scans the queue. It lives in
 * its queue and is only accessed inside the same {@link Lockable} access as the queue's
 * messages, so a strategy guards it with its own mechanism.
 */
public interface IdIndex<M> {

	M get(long id);

	void put(long id, M message);

	/**
	 * Removes the entry if it maps to that message; {@code true} for exactly one caller.
	 */
	boolean remove(long id, M message);

	int size();

	/** For queues whose accesses the strategy serializes. */
	static <M> IdIndex<M> hashMap() {
		return new MapIndex<>(new HashMap<>());
	}

	/** For queues that strategies access without a lock. */
	static <M> IdIndex<M> concurrentHashMap() {
		return new MapIndex<>(new ConcurrentHashMap<>());
	}

	/** An index backed by a {@code Map<Long, M>}. */
	final class MapIndex<M> implements IdIndex<M> {

		private final Map<Long, M> map;

		private MapIndex(Map<Long, M> map) {
			this.map = map;
		}

		@Override
		public M get(long id) {
			return this.map.get(id);
		}

		@Override
		public void put(long id, M message) {
			this.map.put(id, message);
		}

		@Override
		public boolean remove(long id, M message) {
			return this.map.remove(id, message);
		}

		@Override
		public int size() {
			return this.map.size();
		}

	}

}
