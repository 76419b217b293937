package io.github.qsbench.core;

import java.nio.charset.StandardCharsets;
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

	/**
	 * Appends a new message to the named queue, creating the queue if needed. The message
	 * keeps {@code body}, the array itself: the caller must not change it afterwards.
	 */
	Message push(String queue, byte[] body);

	/** {@link #push(String, byte[])} with the text's UTF-8 bytes. */
	default Message push(String queue, String body) {
		return push(queue, body.getBytes(StandardCharsets.UTF_8));
	}

	/** Grabs the first message of the queue that is ready or whose lease expired. */
	Optional<Message> poll(String queue);

	/**
	 * Marks a message polled from that queue as done so that it is never delivered again.
	 * The queue is named here, as in every other operation: the thesis's messages do not
	 * carry their queue's name (8 bytes per held message).
	 * @return {@code false} if it was completed already
	 */
	boolean complete(String queue, Message message);

}
