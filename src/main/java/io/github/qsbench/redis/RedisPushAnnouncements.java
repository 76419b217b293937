package io.github.qsbench.redis;

import java.nio.charset.StandardCharsets;

import io.github.qsbench.core.QueueServiceCore.PushListener;

/**
 * The channel on which {@link RedisQS}'s scripts announce pushes
 * ({@code "<delay> <queue>"} when a queue's ready list was empty or the messages are
 * delayed), and this instance's one subscription to it: what a long poll waits for,
 * whichever instance pushed.
 */
final class RedisPushAnnouncements {

	/** The channel's name in the namespace ({@link RedisStore#key}). */
	static final String PUSHED = "pushed";

	private final RedisStore store;

	private final byte[] channel;

	/** The subscription to the channel, once {@link #listen} was called. */
	private AutoCloseable subscription;

	private volatile PushListener listener;

	RedisPushAnnouncements(RedisStore store) {
		this.store = store;
		this.channel = store.key(PUSHED);
	}

	/**
	 * The channel's key, which the push and end-delay scripts publish on, and the FIFO
	 * scripts that release a group's new head.
	 */
	byte[] channel() {
		return this.channel;
	}

	/**
	 * Calls {@code listener} with each queue that messages were pushed to through any
	 * instance on this namespace (this one included), with their delay. One Redis
	 * subscription for all queues, made on the first call; a later call replaces the
	 * listener (the application registers again when it is started again).
	 */
	synchronized void listen(PushListener listener) {
		this.listener = listener;
		if (this.subscription == null) {
			this.subscription = this.store.subscribe(PUSHED, this::pushed);
		}
	}

	private void pushed(byte[] message) {
		String pushed = new String(message, StandardCharsets.UTF_8);
		int space = pushed.indexOf(' ');
		this.listener.pushed(pushed.substring(space + 1), Long.parseLong(pushed, 0, space, 10));
	}

	synchronized void close() {
		if (this.subscription != null) {
			try {
				this.subscription.close();
			}
			catch (Exception ex) {
				throw new IllegalStateException("closing the subscription", ex);
			}
			this.subscription = null;
		}
	}

}
