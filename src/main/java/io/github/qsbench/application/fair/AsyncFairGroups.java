package io.github.qsbench.application.fair;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.github.qsbench.core.Completion;
import io.github.qsbench.core.Message;

/**
 * {@link FairGroups}' push, completion and release for a caller that must not wait for
 * the store (Jetty's selector, Lettuce's event loop): each sends the blocking call's one
 * step and returns; its stage completes on the store's thread with what the blocking call
 * returns, or fails there with what it throws. Only a store that
 * {@linkplain FairGroups#endsHolds ends holds} has them (Redis), so each is one step,
 * with nothing for the caller to do after it.
 */
public interface AsyncFairGroups {

	/** {@link FairGroups#push}, sent without waiting. */
	CompletableFuture<List<Message>> push(String queue, List<byte[]> stored, List<String> groups);

	/** {@link FairGroups#complete}, sent without waiting. */
	CompletableFuture<List<Completion>> complete(String queue, long[] ids, int[] deliveries);

	/** {@link FairGroups#release}, sent without waiting. */
	CompletableFuture<long[]> release(String queue, int max);

}
