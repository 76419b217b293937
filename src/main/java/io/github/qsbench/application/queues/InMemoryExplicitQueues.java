package io.github.qsbench.application.queues;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.github.qsbench.core.Capacity;
import io.github.qsbench.core.CapacityExceededException;
import io.github.qsbench.core.QueueServiceView;

/**
 * The explicit queues of an in-process strategy, in this instance's memory: at most
 * {@code qs.limits.max-queues} names are kept (read from the core's caps once, at
 * start-up: the core is called for nothing else here).
 *
 * <p>
 * Thread safe: one concurrent map, whose {@code compute} checks and applies a change to a
 * queue's settings atomically (so the cap on tags holds); a name is added at most once,
 * and the count may overshoot the cap by the number of racing creators, which is harmless
 * (as is their both answering that they created the queue).
 */
public final class InMemoryExplicitQueues implements ExplicitQueues {

	private final Map<String, Own> queues = new ConcurrentHashMap<>();

	private final int maxQueues;

	public InMemoryExplicitQueues(QueueServiceView service) {
		this.maxQueues = service.capacity()
			.map(Capacity::limits)
			.map(Capacity.Limits::maxQueues)
			.orElse(Integer.MAX_VALUE);
	}

	@Override
	public Own own(String queue) {
		return this.queues.get(queue);
	}

	/**
	 * @throws CapacityExceededException if {@code qs.limits.max-queues} names are kept
	 * already
	 * @throws QueueSettings.Conflict if a recorded setting the change expects differs
	 */
	@Override
	public boolean configure(String queue, QueueSettings.Change change) {
		boolean created = !this.queues.containsKey(queue);
		if (created && this.queues.size() >= this.maxQueues) {
			throw new CapacityExceededException(Capacity.Limit.QUEUES, this.maxQueues);
		}
		this.queues.compute(queue, (name, own) -> {
			if (!change.expects(own)) {
				throw new QueueSettings.Conflict(queue);
			}
			return ((own != null) ? own : Own.NONE).with(change);
		});
		return created;
	}

	@Override
	public boolean remove(String queue) {
		return this.queues.remove(queue) != null;
	}

	@Override
	public Set<String> names() {
		return Set.copyOf(this.queues.keySet());
	}

}
