package io.github.qsbench.core;

/**
 * The operations on one message by its id that are no hot path, each run by
 * {@link QueueServiceCore#byId}, which every store answers by a {@code switch} over these
 * constants: so an operation added here is one case in each store, and the timing
 * decorator times it under its own {@code operation} tag with no change. Each is atomic
 * with completions and redeliveries as
 * {@link QueueServiceCore#complete(String, long, int)} is, and, as it, needs a service
 * built with id lookup. Completion by id, the hot path, keeps its own methods.
 */
public enum ByIdOperation {

	/**
	 * Makes the lease of the message's delivery end {@code leaseMillis} from now (0:
	 * ready at once), if it is held in that queue, was delivered, and {@code delivery} is
	 * its current delivery (or {@link QueueServiceCore#ANY_DELIVERY}); the delivery keeps
	 * its number, so its lease token stays valid. {@link ByIdOutcome#DONE} if changed,
	 * else the verdict a completion would get.
	 */
	CHANGE_LEASE,

	/**
	 * Removes the message from that queue whatever its state (ready, delayed, in flight),
	 * as a purge does: {@link ByIdOutcome#DONE} if this call removed it, else
	 * {@link ByIdOutcome#NOT_FOUND}. Exactly once with completions: a holder completing
	 * it after gets {@link Completion#NOT_FOUND}. Reads neither {@code delivery} nor
	 * {@code leaseMillis}.
	 */
	DISCARD,

	/**
	 * Makes a delayed message of that queue ready now: {@link ByIdOutcome#DONE} if it was
	 * delayed (not delivered, not completed) and now is ready, else
	 * {@link ByIdOutcome#NOT_FOUND}. Reads neither {@code delivery} nor
	 * {@code leaseMillis}.
	 */
	END_DELAY;

}
