package io.github.qsbench.redis;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.SubscriptionListener;

/**
 * The one subscription of a {@link RedisStore}, on which the pushes ({@link RedisQS}) and
 * the settings changes ({@link RedisExplicitQueues}) are heard: one connection for all
 * channels, made on the first {@link #subscribe}. Lettuce subscribes it again after a
 * lost connection, and each channel's listener is then told
 * ({@link ChannelListener#subscribed}), since what was published meanwhile was lost.
 */
final class RedisChannels implements AutoCloseable {

	private final RedisConnectionFactory connections;

	private final Map<String, ChannelListener> listeners = new ConcurrentHashMap<>();

	/** The subscribed connection, once a channel was subscribed; guarded by this. */
	private RedisConnection subscription;

	RedisChannels(RedisConnectionFactory connections) {
		this.connections = connections;
	}

	/**
	 * Hears {@code channel} until the answer is closed. A second listener for one channel
	 * replaces the first.
	 */
	synchronized AutoCloseable subscribe(byte[] channel, ChannelListener listener) {
		String channelName = new String(channel, StandardCharsets.UTF_8);
		this.listeners.put(channelName, listener);
		if (this.subscription == null) {
			RedisConnection connection = this.connections.getConnection();
			try {
				connection.subscribe(new Dispatch(), channel);
			}
			catch (RuntimeException ex) {
				this.listeners.remove(channelName);
				connection.close();
				throw ex;
			}
			this.subscription = connection;
		}
		else {
			this.subscription.getSubscription().subscribe(channel);
		}
		return () -> unsubscribe(channelName, listener);
	}

	private synchronized void unsubscribe(String channelName, ChannelListener listener) {
		if (!this.listeners.remove(channelName, listener) || this.subscription == null) {
			return;
		}
		if (this.listeners.isEmpty()) {
			this.subscription.close();
			this.subscription = null;
		}
		else {
			this.subscription.getSubscription().unsubscribe(RedisStore.utf8(channelName));
		}
	}

	/** Ends the subscription, if any. */
	@Override
	public synchronized void close() {
		this.listeners.clear();
		if (this.subscription != null) {
			this.subscription.close();
			this.subscription = null;
		}
	}

	/** What hears one channel, on the subscription's thread. */
	interface ChannelListener {

		void message(byte[] body);

		/**
		 * The channel was subscribed: first, or again after a lost connection, whose
		 * messages were lost with it.
		 */
		default void subscribed() {
		}

	}

	/** Hands each message and subscription to its channel's listener. */
	private final class Dispatch implements MessageListener, SubscriptionListener {

		@Override
		public void onMessage(Message message, byte[] pattern) {
			ChannelListener listener = RedisChannels.this.listeners.get(RedisStore.utf8(message.getChannel()));
			if (listener != null) {
				listener.message(message.getBody());
			}
		}

		@Override
		public void onChannelSubscribed(byte[] channel, long count) {
			ChannelListener listener = RedisChannels.this.listeners.get(RedisStore.utf8(channel));
			if (listener != null) {
				listener.subscribed();
			}
		}

	}

}
