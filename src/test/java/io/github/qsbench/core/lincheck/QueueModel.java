package io.github.qsbench.core.lincheck;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import io.github.qsbench.core.Completion;

/**
 * The sequential specification Lincheck checks every strategy against: what one thread at
 * a time would see with a lease that never expires. Queues are FIFO lists of ids; a poll
 * hands out the oldest message not yet delivered, exactly once; a completion by id needs
 * the message to be held in that queue and delivered, and succeeds once.
 */
public final class QueueModel {

	/** Queues 0 and 1, as the tests' queue parameter generates them. */
	static final int QUEUES = 2;

	private long lastId;

	private final Map<Integer, Deque<Long>> queues = new HashMap<>();

	/** Id to queue, for messages pushed and not yet completed. */
	private final Map<Long, Integer> held = new HashMap<>();

	private final Set<Long> delivered = new HashSet<>();

	/**
	 * Like the tests' constructor: one message pushed and polled per queue, ids 1 and 2,
	 * in flight.
	 */
	public QueueModel() {
		for (int queue = 0; queue < QUEUES; queue++) {
			push(queue);
			poll(queue);
		}
	}

	public Long push(int queue) {
		long id = ++this.lastId;
		this.queues.computeIfAbsent(queue, q -> new ArrayDeque<>()).addLast(id);
		this.held.put(id, queue);
		return id;
	}

	public Long poll(int queue) {
		Deque<Long> ids = this.queues.getOrDefault(queue, new ArrayDeque<>());
		for (Long id : ids) {
			if (this.delivered.add(id)) {
				return id;
			}
		}
		return null;
	}

	/** Null for an id beyond the last push: the tests do not let a client guess ids. */
	public Completion complete(int queue, long id) {
		if (id > this.lastId) {
			return null;
		}
		Integer heldIn = this.held.get(id);
		if (heldIn == null || heldIn != queue) {
			return Completion.NOT_FOUND;
		}
		if (!this.delivered.contains(id)) {
			return Completion.NOT_DELIVERED;
		}
		this.held.remove(id);
		this.queues.get(queue).remove(id);
		return Completion.COMPLETED;
	}

}
