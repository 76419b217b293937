package io.github.qsbench.application.fifo;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * FIFO groups in this instance's memory (see {@link FifoGroups}): per queue, its groups'
 * ids and each id's group, guarded by the queue's monitor.
 */
public final class InMemoryFifoGroups implements FifoGroups {

	private final Map<String, Groups> queues = new ConcurrentHashMap<>();

	@Override
	public boolean append(String queue, String group, long id) {
		Groups groups = this.queues.computeIfAbsent(queue, name -> new Groups());
		synchronized (groups) {
			ArrayDeque<Long> ids = groups.byGroup.computeIfAbsent(group, name -> new ArrayDeque<>());
			ids.add(id);
			groups.groupOf.put(id, group);
			return ids.size() == 1;
		}
	}

	@Override
	public long remove(String queue, long id) {
		Groups groups = this.queues.get(queue);
		if (groups == null) {
			return -1;
		}
		synchronized (groups) {
			String group = groups.groupOf.remove(id);
			if (group == null) {
				return -1;
			}
			ArrayDeque<Long> ids = groups.byGroup.get(group);
			boolean head = ids.peekFirst() == id;
			ids.remove(id);
			if (ids.isEmpty()) {
				groups.byGroup.remove(group);
				return 0;
			}
			return head ? ids.peekFirst() : 0;
		}
	}

	@Override
	public void forget(String queue) {
		this.queues.remove(queue);
	}

	private static final class Groups {

		final Map<String, ArrayDeque<Long>> byGroup = new HashMap<>();

		final Map<Long, String> groupOf = new HashMap<>();

	}

}
