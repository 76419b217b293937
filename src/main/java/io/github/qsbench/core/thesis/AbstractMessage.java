package io.github.qsbench.core.thesis;

import io.github.qsbench.core.ByIdOutcome;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.shared.CompletableMessage;

/**
 * A message plus the state that {@link AbstractQS} needs: whether it was completed, how
 * often it was delivered and when its lease expires. Subclasses differ only in how that
 * state is made safe to share between threads.
 *
 * <p>
 * Memory matters here: the service holds one of these per message, and each subclass fits
 * in 32 bytes. The body is kept as its UTF-8 bytes (a {@code String} would add a 24-byte
 * object); the message does not name its queue (every operation that finds a message
 * names the queue it looks in), and has no flag for having left it (the removal that
 * takes it out of its deque decides who accounts for that): each would cost 8 bytes per
 * held message after alignment.
 */
public abstract class AbstractMessage implements CompletableMessage {

	private final byte[] body;

	protected AbstractMessage(byte[] body) {
		this.body = body;
	}

	@Override
	public final byte[] body() {
		return this.body;
	}

	/**
	 * Grabs the message for a consumer if it is neither completed nor held under an
	 * unexpired lease; a grab starts a lease of {@code leaseMillis} from
	 * {@code nowMillis}, and is the message's next delivery.
	 */
	public abstract Grab tryGrab(long nowMillis, long leaseMillis);

	/**
	 * Makes a message not yet queued delayed: not grabbed before {@code dueMillis}.
	 */
	public abstract void delayUntil(long dueMillis);

	/**
	 * Ends the delay of a delayed message never delivered nor completed, at
	 * {@code nowMillis}.
	 * @return whether it was such a message
	 */
	public abstract boolean endDelay(long nowMillis);

	/**
	 * Completes the message whatever its state (ready, delayed, in flight), as a purge
	 * does.
	 * @return how often it had been delivered, or -1 if it was completed already
	 */
	public abstract int discard();

	/**
	 * Makes the lease of the message's current delivery end at {@code leaseEndMillis}, if
	 * {@code delivery} is that delivery (or {@link QueueServiceCore#ANY_DELIVERY}) and it
	 * is not completed: the decision of {@link #complete(int)}, made the same way.
	 */
	public abstract ByIdOutcome changeLease(int delivery, long leaseEndMillis);

	/**
	 * @return {@code true} if this call completed the message, {@code false} if it was
	 * already (or was never delivered)
	 */
	public final boolean complete() {
		return complete(QueueServiceCore.ANY_DELIVERY) == Completion.COMPLETED;
	}

	/** Where a message is in its life at a given time. */
	public abstract Status status(long nowMillis);

	/** Where a message is in its life. */
	public enum Status {

		/** Never delivered (and not delayed), or its lease expired. */
		READY,

		/** Never delivered, and its delay has not passed. */
		DELAYED,

		/** Held by a consumer under an unexpired lease. */
		IN_FLIGHT,

		COMPLETED

	}

	/** Creates messages of one concrete type. */
	@FunctionalInterface
	public interface Factory<M extends AbstractMessage> {

		M create(long id, byte[] body);

	}

}
