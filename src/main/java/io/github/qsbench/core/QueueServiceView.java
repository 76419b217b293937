package io.github.qsbench.core;

import java.util.List;
import java.util.Optional;

/**
 * What the core answers without changing anything: counts, a browse, whether a poll would
 * find a message, the caps. A caller that only reads (the gauges, the queue cap) takes
 * this instead of the whole {@link QueueServiceCore}.
 */
public interface QueueServiceView {

	/** Every queue with its ready and in-flight counts, by name. */
	List<QueueStats> queues();

	/** The queue's ready and in-flight counts, or nothing if no such queue exists now. */
	Optional<QueueStats> queue(String name);

	/** Whether a poll would find a message now; leases nothing. */
	boolean hasReady(String name);

	/**
	 * Up to {@code max} messages of the queue that are not completed, from its head (the
	 * messages a poll would take first), with their state; leases nothing and holds the
	 * queue's guard no longer than a poll of {@code max} would.
	 */
	List<Peeked> peek(String queue, int max);

	/**
	 * The id of the latest push: every message pushed before this call began has this id
	 * or a smaller one.
	 */
	long lastId();

	/**
	 * How long after {@link #lastId()} answered a push may still take an id at or below
	 * it: 0 where every push takes the next id as it is made, so that a message with an
	 * id at or below it was pushed before; a store whose instances hand out ids from
	 * blocks reserved beforehand answers how long a block serves. Retention dates a
	 * message by its id, this much later.
	 */
	default long lastIdLagMillis() {
		return 0;
	}

	/** How many queues exist, read without taking any lock. */
	int queueCount();

	/**
	 * How many messages are held (pushed and not yet completed), read without a lock; 0
	 * without id lookup.
	 */
	long heldCount();

	/** The caps and what they hold now, if this service has limits. */
	Optional<Capacity> capacity();

}
