package io.github.qsbench.application;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.github.qsbench.core.Capacity;
import io.github.qsbench.core.QueueServiceCore;

import org.springframework.stereotype.Component;

/**
 * The names of queues created explicitly (today by the SQS face's {@code CreateQueue}):
 * such a queue exists while it is empty, where a queue created by its first push is
 * removed by the core when it empties. Only the name is kept here, above the core: the
 * messages live in the core's queue of the same name, which comes and goes with them, so
 * no strategy changes. A name goes when its queue is deleted
 * ({@link QueueOperations#deleteQueue}); at most {@code qs.limits.max-queues} names are
 * kept (read from the core's caps once, at start-up: the core is called for nothing else
 * here).
 *
 * <p>
 * Thread safe: one concurrent set; a name is added at most once, and the count may
 * overshoot the cap by the number of racing creators, which is harmless.
 */
@Component
public class ExplicitQueues {

	private final Set<String> names = ConcurrentHashMap.newKeySet();

	private final int maxQueues;

	public ExplicitQueues(QueueServiceCore service) {
		this.maxQueues = service.capacity()
			.map(Capacity::limits)
			.map(Capacity.Limits::maxQueues)
			.orElse(Integer.MAX_VALUE);
	}

	/**
	 * Records the queue as created explicitly.
	 * @return {@code false} if it was not, because {@code qs.limits.max-queues} names are
	 * kept already
	 */
	public boolean create(String queue) {
		if (this.names.contains(queue)) {
			return true;
		}
		if (this.names.size() >= this.maxQueues) {
			return false;
		}
		this.names.add(queue);
		return true;
	}

	/**
	 * @return whether it was created explicitly
	 */
	public boolean remove(String queue) {
		return this.names.remove(queue);
	}

	public boolean contains(String queue) {
		return this.names.contains(queue);
	}

	/** The names, in no order: a copy. */
	public Set<String> names() {
		return Set.copyOf(this.names);
	}

	/** The cap on names, {@code qs.limits.max-queues}. */
	public int maxQueues() {
		return this.maxQueues;
	}

}
