package io.github.qsbench.core;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A core's hot operations without a thread that waits for the store: each call sends its
 * work and returns a stage the store's answer completes. For a core whose every call
 * crosses the network (Redis), where a request thread parked for each reply costs more
 * than the reply (docs/redis.md); a core in process answers in the caller's thread and
 * has none ({@link QueueServiceCore#async()}).
 *
 * <p>
 * A stage completes on the store's I/O thread, or fails there with what the blocking call
 * would throw. What runs on it must not call the store's blocking methods, which would
 * wait for that same thread.
 */
public interface AsyncCore {

	/** {@link QueueServiceCore#pushAll}, not delayed: all or none, in one call. */
	CompletableFuture<List<Message>> pushAll(String queue, List<byte[]> bodies);

	/** {@link QueueServiceCore#push}, not delayed. */
	CompletableFuture<Message> push(String queue, byte[] body);

	/** {@link QueueServiceCore#lease(String, int, long)}. */
	CompletableFuture<List<Lease>> lease(String queue, int max, long leaseMillis);

	/** {@link QueueServiceCore#completeAll}, in one call. */
	CompletableFuture<List<Completion>> completeAll(String queue, long[] ids, int[] deliveries);

	/** {@link QueueServiceCore#complete(String, long, int)}. */
	CompletableFuture<Completion> complete(String queue, long id, int delivery);

	/**
	 * What a failed stage failed with: the cause a dependent stage wraps in a
	 * {@link CompletionException}, else the failure itself.
	 */
	static Throwable cause(Throwable failure) {
		return (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause() : failure;
	}

}
