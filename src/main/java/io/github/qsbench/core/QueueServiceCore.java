package io.github.qsbench.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The queue service as the application layer calls it: the thesis's {@link QueueService}
 * (push, poll, complete) plus the operations that change queues (batches, leases numbered
 * per delivery, completion by id, and the other operations by id, {@link ByIdOperation}:
 * a lease change, a discard, the end of a delay), and the read-only
 * {@link QueueServiceView}, which a caller that only reads takes instead. Every strategy
 * offers it, on whichever framework it is built (the catalogue,
 * {@link io.github.qsbench.core.strategy.Strategy}, names them), so nothing outside the
 * core names a framework or a message class.
 *
 * <p>
 * {@link #close()} stops whatever the service runs of its own (a dispatcher thread);
 * Spring calls it when the context closes. Services that run nothing need not override
 * it.
 */
public interface QueueServiceCore extends QueueService, QueueServiceView, AutoCloseable {

	/** A completion without a lease: whichever delivery is current. */
	int ANY_DELIVERY = 0;

	/**
	 * Pushes all bodies to one queue, in order, or none of them if a cap would be
	 * exceeded.
	 * @throws CapacityExceededException if a cap is reached; nothing was pushed
	 */
	List<Message> pushAll(String queue, List<byte[]> bodies);

	/**
	 * Pushes as {@link #pushAll(String, List)} does; with {@code delayMillis} above 0 the
	 * messages are delayed: held and counted as delayed, but not delivered, until that
	 * much time has passed.
	 * @throws CapacityExceededException if a cap is reached; nothing was pushed
	 */
	List<Message> pushAll(String queue, List<byte[]> bodies, long delayMillis);

	/**
	 * Takes {@code count} consecutive ids that no push will give, for {@link #pushAs}: a
	 * caller can then record a message's id before the message exists (a move task on
	 * Redis records its copies' ids before it pushes them, so that an instance taking the
	 * task over can settle a move half made; a FIFO send records its messages' ids, so
	 * that another instance can settle a send its instance's death cut).
	 * @return the first of them, or 0 if this core gives each message its id as it pushes
	 * it (every in-process core)
	 */
	default long reserveIds(int count) {
		return 0;
	}

	/**
	 * Pushes {@code bodies} under the ids from {@code firstId} on, taken by
	 * {@link #reserveIds}, as {@link #pushAll(String, List, long)} pushes them: all or
	 * none.
	 * @throws CapacityExceededException if a cap is reached; nothing was pushed
	 * @throws UnsupportedOperationException if this core does not reserve ids
	 */
	default List<Message> pushAs(String queue, long firstId, List<byte[]> bodies, long delayMillis) {
		throw new UnsupportedOperationException("this core gives each message its id as it pushes it");
	}

	/**
	 * Leases up to {@code max} messages of one queue to the caller, in queue order; each
	 * lease carries the number of its delivery.
	 * @throws IllegalStateException if this service was built without id lookup
	 */
	List<Lease> lease(String queue, int max);

	/**
	 * Leases as {@link #lease(String, int)} does, each for {@code leaseMillis} instead of
	 * the service's lease (0: the messages are ready again at once).
	 * @throws IllegalStateException if this service was built without id lookup
	 */
	List<Lease> lease(String queue, int max, long leaseMillis);

	/**
	 * Runs one operation by id on the message with that id in that queue: what it does,
	 * which parameters it reads and which outcomes it gives, its constant says. Atomic
	 * with completions and redeliveries as {@link #complete(String, long, int)} is.
	 * @param delivery the delivery the caller holds, or {@link #ANY_DELIVERY}
	 * @param leaseMillis a lease length, for the operations that set one
	 * @throws IllegalStateException if this service was built without id lookup
	 */
	ByIdOutcome byId(String queue, long id, ByIdOperation operation, int delivery, long leaseMillis);

	/**
	 * Runs an operation by id that names no delivery and sets no lease (a discard, the
	 * end of a delay), as {@link #byId(String, long, ByIdOperation, int, long)} does.
	 * @throws IllegalStateException if this service was built without id lookup
	 */
	default ByIdOutcome byId(String queue, long id, ByIdOperation operation) {
		return byId(queue, id, operation, ANY_DELIVERY, 0);
	}

	/** Completes the message with that id, whichever its current delivery. */
	default Completion complete(String queue, long id) {
		return complete(queue, id, ANY_DELIVERY);
	}

	/**
	 * Completes the message with that id if it is held in that queue, was delivered, and
	 * {@code delivery} is its current delivery (or
	 * {@link QueueServiceCore#ANY_DELIVERY}). Exactly-once for every strategy.
	 * @throws IllegalStateException if this service was built without id lookup
	 */
	Completion complete(String queue, long id, int delivery);

	/**
	 * Completes as {@link #complete(String, long, int)} does, only if {@code fence} still
	 * holds, checked in the same atomic step: a caller that may have lost the right to
	 * complete the message meanwhile (a message move task's instance stalled past its
	 * heartbeat timeout while another took the task over and settled its moves) completes
	 * nothing once it has. Only a store shared by instances makes fences, for the core on
	 * it (Redis: the move tasks' store, on the source's slot); the in-process cores are
	 * never given one (in one process no other instance takes over from a caller alive)
	 * and complete as without it.
	 * @return the completion, or empty if the fence no longer held: nothing was completed
	 * @throws IllegalStateException if this service was built without id lookup
	 */
	default Optional<Completion> completeFenced(String queue, long id, int delivery, CompletionFence fence) {
		return Optional.of(complete(queue, id, delivery));
	}

	/**
	 * Completes each message as {@link #complete(String, long, int)} does, in order, each
	 * on its own (the batch as a whole is not atomic). In process that is a loop; a
	 * strategy out of process overrides it to complete them in one round trip.
	 * @param ids the messages' ids
	 * @param deliveries the delivery of each (or {@link #ANY_DELIVERY}), as many as ids
	 * @return each one's outcome, in order
	 * @throws IllegalStateException if this service was built without id lookup
	 */
	default List<Completion> completeAll(String queue, long[] ids, int[] deliveries) {
		List<Completion> completions = new ArrayList<>(ids.length);
		for (int i = 0; i < ids.length; i++) {
			completions.add(complete(queue, ids[i], deliveries[i]));
		}
		return completions;
	}

	/**
	 * Changes each message's lease as {@link #byId byId}'s
	 * {@link ByIdOperation#CHANGE_LEASE} does, all to end {@code leaseMillis} from now,
	 * in order, each on its own (the batch as a whole is not atomic): as
	 * {@link #completeAll}, a loop in process and one round trip out of process.
	 * @param deliveries the delivery of each (or {@link #ANY_DELIVERY}), as many as ids
	 * @return each one's outcome, in order
	 * @throws IllegalStateException if this service was built without id lookup
	 */
	default List<ByIdOutcome> changeLeaseAll(String queue, long[] ids, int[] deliveries, long leaseMillis) {
		List<ByIdOutcome> outcomes = new ArrayList<>(ids.length);
		for (int i = 0; i < ids.length; i++) {
			outcomes.add(byId(queue, ids[i], ByIdOperation.CHANGE_LEASE, deliveries[i], leaseMillis));
		}
		return outcomes;
	}

	/**
	 * Discards each message as {@link #byId(String, long, ByIdOperation) byId}'s
	 * {@link ByIdOperation#DISCARD} does, in order, each on its own (the batch as a whole
	 * is not atomic): as {@link #completeAll}, a loop in process and one round trip out
	 * of process.
	 * @return each one's outcome, in order
	 * @throws IllegalStateException if this service was built without id lookup
	 */
	default List<ByIdOutcome> discardAll(String queue, long[] ids) {
		List<ByIdOutcome> outcomes = new ArrayList<>(ids.length);
		for (long id : ids) {
			outcomes.add(byId(queue, id, ByIdOperation.DISCARD));
		}
		return outcomes;
	}

	/**
	 * The hot operations as stages the store completes ({@link AsyncCore}), where a
	 * caller need not wait for them: a core whose calls cross the network has them, one
	 * in process (whose blocking calls cost less than a stage) none.
	 */
	default Optional<AsyncCore> async() {
		return Optional.empty();
	}

	/**
	 * Whether this service keeps its queues outside the process ({@code RedisQS}), so
	 * that every operation waits for the store: a caller that must not block (the HTTP
	 * event loop) hands its calls to a thread that may. The in-process services hold a
	 * lock for microseconds at most and never wait for I/O.
	 */
	default boolean external() {
		return false;
	}

	/**
	 * Calls {@code listener} when messages are pushed through another instance sharing
	 * this service's store, so that a long poll here is woken by them. Only a store
	 * outside the process ({@code RedisQS}) has other instances; the in-process services
	 * never call it.
	 */
	default void onPushes(PushListener listener) {
	}

	@Override
	default void close() {
	}

	/** What {@link #onPushes} calls. */
	@FunctionalInterface
	interface PushListener {

		/**
		 * Messages were pushed to {@code queue}, delayed by {@code delayMillis} (0: ready
		 * now).
		 */
		void pushed(String queue, long delayMillis);

	}

}
