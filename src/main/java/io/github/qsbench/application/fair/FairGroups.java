package io.github.qsbench.application.fair;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.github.qsbench.core.Completion;
import io.github.qsbench.core.Message;

/**
 * Where standard queues keep their fair-queue groups ({@link FairQueues}): per queue and
 * message group, the ids of its messages released into the queue (ready or in flight)
 * and, in send order, those held back because the group was noisy when they were sent.
 * Each call is atomic on its own. Like the FIFO queues' groups, it follows the core: in
 * this instance's memory for the in-process strategies ({@link InMemoryFairGroups}), in
 * Redis for the redis strategy, so that every instance on one Redis sees one set of
 * groups.
 *
 * <p>
 * The rule, as SQS states it for in-flight messages: a group is <em>noisy</em> when it
 * has at least {@value #NOISY_MIN} messages released and more than
 * {@value #NOISY_PERCENT}% of the queue's released grouped messages.
 */
public interface FairGroups {

	/** SQS's "at least 30 in flight". */
	int NOISY_MIN = 30;

	/** SQS's "more than 10% of the queue's in-flight messages". */
	int NOISY_PERCENT = 10;

	/** How long a noisy group's message is held: until released, in effect. */
	long HOLD_MILLIS = TimeUnit.DAYS.toMillis(365);

	/**
	 * How long {@link #push} holds a grouped message before the same step's
	 * {@link #append} puts it in its group, where a noisy group's hold is made
	 * {@link #HOLD_MILLIS} longer; a message whose append never came (as when a push was
	 * two calls) would be held only this long, then delivered as an ungrouped one is.
	 * Where the store does not {@link #endsHolds}, a push holds it for
	 * {@link #HOLD_MILLIS}.
	 */
	long PUSH_HOLD_MILLIS = TimeUnit.SECONDS.toMillis(30);

	/**
	 * Whether a group with {@code released} messages released, in a queue with
	 * {@code total} released grouped messages, is noisy.
	 */
	static boolean noisy(long released, long total) {
		return released >= NOISY_MIN && released * 100 > NOISY_PERCENT * total;
	}

	/**
	 * Adds the messages of one push, pushed held, to their groups, in order: one without
	 * a group ({@code null}) or of a quiet group released (counted in its group, for the
	 * caller to end its hold unless {@link #endsHolds}), one of a noisy group held (where
	 * the store ends holds, its push's hold made {@link #HOLD_MILLIS} longer here). One
	 * call for the whole push: on Redis one script, one round trip.
	 * @param groups each message's group, or {@code null}
	 * @param ids the messages' ids, in the same order
	 * @return per message, whether it was released
	 */
	boolean[] append(String queue, List<String> groups, long[] ids);

	/**
	 * Pushes the messages, held, and {@link #append appends} them to their groups in the
	 * same step, where the store {@link #endsHolds} (on Redis one script, one round
	 * trip): no instance killed between the two can leave them in no group. Elsewhere the
	 * caller pushes them held, then appends them.
	 * @param stored the messages as stored, in order
	 * @param groups each message's group, or {@code null}
	 * @return the messages pushed, in order
	 * @throws UnsupportedOperationException where the store does not end holds
	 */
	default List<Message> push(String queue, List<byte[]> stored, List<String> groups) {
		throw new UnsupportedOperationException("a store that ends no holds is pushed to first, then appended to");
	}

	/**
	 * Completes the messages as the core's {@code completeAll} does and takes each one
	 * completed out of its group ({@link #remove}) in the same step, where the store
	 * {@link #endsHolds} (on Redis one script, one round trip): no instance killed
	 * between the two can leave a completed message counted in its group. Elsewhere the
	 * caller completes them, then removes them.
	 * @param deliveries the delivery each completion names (0: any)
	 * @return each message's outcome, in order
	 * @throws UnsupportedOperationException where the store does not end holds
	 */
	default List<Completion> complete(String queue, long[] ids, int[] deliveries) {
		throw new UnsupportedOperationException("a store that ends no holds is completed in first, then removed from");
	}

	/**
	 * Takes message {@code id} out of its group, released or held.
	 * @return whether it was in a group
	 */
	boolean remove(String queue, long id);

	/**
	 * Releases up to {@code max} held messages, one group after another (round robin over
	 * the groups holding messages back), counting them released.
	 * @return their ids, for the caller to end their hold unless {@link #endsHolds}
	 */
	long[] release(String queue, int max);

	/**
	 * Whether {@link #append} and {@link #release} end the holds of the messages they
	 * release themselves, in the same step as their records (a store shared by instances,
	 * where an instance killed between the two steps would leave a message counted
	 * released and held for a year); a message gone meanwhile is then left out. Else the
	 * caller ends them ({@link io.github.qsbench.core.ByIdOperation#END_DELAY}). Such a
	 * store also pushes ({@link #push}) and completes ({@link #complete}), and starts a
	 * noisy group's long hold in {@link #append}, so that a push is held only
	 * {@link #PUSH_HOLD_MILLIS} until then.
	 */
	default boolean endsHolds() {
		return false;
	}

	/**
	 * The push, completion and release without a thread waiting, where the store answers
	 * so and {@link #endsHolds} (Redis, when its core has asynchronous calls); else empty
	 * (in memory, where every call answers in the caller's thread).
	 */
	default Optional<AsyncFairGroups> async() {
		return Optional.empty();
	}

	/** The queue's groups, counted. */
	Counts counts(String queue);

	/** Forgets the queue's groups. */
	void forget(String queue);

	/**
	 * Records that the queue has groups, so that other instances sharing the store learn
	 * it ({@link #queues}); in memory, nothing.
	 */
	default void announce(String queue) {
	}

	/**
	 * The queues with groups that instances sharing this store announced; in memory, none
	 * (this instance knows its own).
	 */
	default Set<String> queues() {
		return Set.of();
	}

	/**
	 * Whether other instances share these groups (so {@link #queues} is worth asking).
	 */
	default boolean shared() {
		return false;
	}

	/**
	 * A queue's groups, counted.
	 *
	 * @param groups groups with a message released or held
	 * @param noisyGroups the groups that are noisy by the rule, or hold messages back
	 * @param released grouped messages released (ready or in flight)
	 * @param releasedNoisy of those, the noisy groups'
	 * @param held messages held back (all of noisy groups)
	 */
	record Counts(int groups, Set<String> noisyGroups, long released, long releasedNoisy, long held) {

		public static final Counts NONE = new Counts(0, Set.of(), 0, 0, 0);

	}

}
