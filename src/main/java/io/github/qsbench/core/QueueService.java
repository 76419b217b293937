package io.github.qsbench.core;

import java.util.Optional;

/**
 * The queue service API of the thesis (section 3.1.3): push, poll, complete.
 *
 * <p>
 * A polled message that is not completed within the lease timeout becomes ready again and
 * is delivered again. Every implementation delivers at least once; some exactly once (see
 * {@link io.github.qsbench.core.strategy.Strategy#delivery(Eviction)}).
 */
public interface QueueService {

	/** Appends a new message to the named queue, creating the queue if needed. */
	Message push(String queue, String body);

	/** Grabs the first message of the queue that is ready or whose lease expired. */
	Optional<Message> poll(String queue);

	/**
	 * Marks a polled message as done so that it is never delivered again.
	 * @return {@code false} if it was completed already
	 */
	boolean complete(Message message);

}
