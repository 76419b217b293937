package io.github.qsbench.core;

/**
 * A message plus the state that {@link AbstractQS} needs: whether it was completed, how
 * often it was delivered and when its lease expires. Subclasses differ only in how that
 * state is made safe to share between threads.
 */
public abstract class AbstractMessage implements Message {

	private final long id;

	private final String queue;

	private final String body;

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

	/**
	 * Grabs the message for a consumer if it is neither completed nor held under an
	 * unexpired lease; a grab starts a lease of {@code leaseMillis} from
	 * {@code nowMillis}.
	 */
	public abstract Grab tryGrab(long nowMillis, long leaseMillis);

	/**
	 * @return {@code true} if this call completed the message, {@code false} if it was
	 * already
	 */
	public abstract boolean complete();

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
