package io.github.qsbench.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A message plus the state that {@link AbstractQS} needs: whether it was completed, how
 * often it was delivered and when its lease expires. Subclasses differ only in how that
 * state is made safe to share between threads.
 *
 * <p>
 * Memory matters here: the service holds one of these per message. The queue name is the
 * queue's own string, shared by all its messages, not a copy per push; the id is a
 * primitive.
 */
public abstract class AbstractMessage implements Message {

	/** Completion without a lease: whichever delivery is current. */
	public static final int ANY_DELIVERY = 0;

	private static final VarHandle EVICTED;

	static {
		try {
			EVICTED = MethodHandles.lookup().findVarHandle(AbstractMessage.class, "evicted", boolean.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	private final long id;

	/**
	 * The queue's name. Set again to the queue's own instance of that (equal) string when
	 * the message is appended, before any other thread can see the message.
	 */
	private String queue;

	private final String body;

	/**
	 * Whether the message has left its queue; set once by compare-and-set, so that when
	 * two walks over a lock-free queue both unlink it, only one releases what it held.
	 */
	@SuppressWarnings("unused") // through EVICTED
	private boolean evicted;

	protected AbstractMessage(long id, String queue, String body) {
		this.id = id;
		this.queue = queue;
		this.body = body;
	}

	@Override
	public final long id() {
		return this.id;
	}

	@Override
	public final String queue() {
		return this.queue;
	}

	@Override
	public final String body() {
		return this.body;
	}

	final void appendedTo(String queueName) {
		this.queue = queueName;
	}

	/** {@code true} for exactly one caller: the one that accounts for the eviction. */
	final boolean markEvicted() {
		return EVICTED.compareAndSet(this, false, true);
	}

	/**
	 * Grabs the message for a consumer if it is neither completed nor held under an
	 * unexpired lease; a grab starts a lease of {@code leaseMillis} from
	 * {@code nowMillis}, and is the message's next delivery.
	 */
	public abstract Grab tryGrab(long nowMillis, long leaseMillis);

	/**
	 * Completes the message if {@code delivery} is its current delivery (or
	 * {@link #ANY_DELIVERY}).
	 * @return {@link Completion#COMPLETED} if this call completed it;
	 * {@link Completion#NOT_FOUND} if it was completed already;
	 * {@link Completion#NOT_DELIVERED} if it was never delivered;
	 * {@link Completion#STALE_LEASE} if it was delivered again since that delivery
	 */
	public abstract Completion complete(int delivery);

	/**
	 * @return {@code true} if this call completed the message, {@code false} if it was
	 * already (or was never delivered)
	 */
	public final boolean complete() {
		return complete(ANY_DELIVERY) == Completion.COMPLETED;
	}

	public abstract boolean isCompleted();

	/** Where a message is in its life at a given time. */
	public abstract Status status(long nowMillis);

	/** Where a message is in its life. */
	public enum Status {

		/** Never delivered, or its lease expired. */
		READY,

		/** Held by a consumer under an unexpired lease. */
		IN_FLIGHT,

		COMPLETED

	}

	/** Creates messages of one concrete type. */
	@FunctionalInterface
	public interface Factory<M extends AbstractMessage> {

		M create(long id, String queue, String body);

	}

}
