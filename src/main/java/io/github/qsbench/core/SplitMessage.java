package io.github.qsbench.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A message of {@link AbstractSplitQS}: ready messages wait in a queue that hands each to
 * one consumer, so only two things can still race on a message, and both are decided by
 * compare-and-set of one int each, without allocating:
 * <ul>
 * <li>{@code state}, its delivery count and whether it is completed: a redelivery and a
 * completion of the same delivery race here, and one of them wins;</li>
 * <li>{@code recorded}, the delivery for which it stands in its queue's in-flight record
 * (0 while nobody records it): whoever takes it from there claims it first, so one thread
 * moves or drops each record. The number grows with every delivery, so a claim read
 * before a redelivery cannot succeed after it (no ABA).</li>
 * </ul>
 * The lease's expiry is a plain field, written by the only thread that owns the delivery
 * (the one the ready queue handed the message to, or the winner of the redelivery) before
 * it records the message (a release of {@code recorded}), and read only after reading
 * {@code recorded}.
 */
public final class SplitMessage implements Message {

	private static final int COMPLETED = 1;

	private static final VarHandle STATE;

	private static final VarHandle RECORDED;

	static {
		try {
			MethodHandles.Lookup lookup = MethodHandles.lookup();
			STATE = lookup.findVarHandle(SplitMessage.class, "state", int.class);
			RECORDED = lookup.findVarHandle(SplitMessage.class, "recorded", int.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	private final long id;

	/**
	 * As in {@link AbstractMessage}: the queue's own instance of its name once queued.
	 */
	private String queue;

	private final String body;

	/** Deliveries so far, shifted left by one, or'ed with {@link #COMPLETED}. */
	private volatile int state;

	private volatile int recorded;

	private long leaseExpiresAtMillis;

	public SplitMessage(long id, String queue, String body) {
		this.id = id;
		this.queue = queue;
		this.body = body;
	}

	@Override
	public long id() {
		return this.id;
	}

	@Override
	public String queue() {
		return this.queue;
	}

	@Override
	public String body() {
		return this.body;
	}

	void queuedIn(String queueName) {
		this.queue = queueName;
	}

	@Override
	public int deliveries() {
		return this.state >>> 1;
	}

	public boolean isCompleted() {
		return (this.state & COMPLETED) != 0;
	}

	/**
	 * The first delivery, by the one consumer a ready queue handed the message to: nobody
	 * else can deliver it, and a completion of a message never delivered changes nothing,
	 * so a release store does (the record that follows is a full fence).
	 */
	public void deliverFirst(long leaseExpiresAtMillis) {
		this.leaseExpiresAtMillis = leaseExpiresAtMillis;
		STATE.setRelease(this, 1 << 1);
	}

	/**
	 * Lets claimers take the record of this delivery; called once the message is in the
	 * in-flight record, so that a claim never looks for a message that is not there.
	 */
	public void recordedAs(int delivery) {
		RECORDED.setRelease(this, delivery);
	}

	/**
	 * The delivery for which the message stands in the in-flight record, 0 if it is
	 * claimed (being moved or dropped) or not recorded.
	 */
	public int recorded() {
		return this.recorded;
	}

	/**
	 * Whether the lease of the recorded delivery has expired; meaningful after
	 * {@link #recorded()} answered that delivery.
	 */
	public boolean expiredAt(long nowMillis) {
		return nowMillis >= this.leaseExpiresAtMillis;
	}

	/**
	 * Takes the record of that delivery: {@code true} for exactly one caller, who then
	 * removes the message from the in-flight record, and redelivers or drops it.
	 */
	public boolean claim(int delivery) {
		return RECORDED.compareAndSet(this, delivery, 0);
	}

	/**
	 * Delivers the message once more, by the claimer of its expired record, unless it was
	 * completed meanwhile (then the completion won and the caller drops it). The caller
	 * records it again.
	 */
	public boolean redeliver(int delivery, long leaseExpiresAtMillis) {
		if (!STATE.compareAndSet(this, delivery << 1, (delivery + 1) << 1)) {
			return false;
		}
		this.leaseExpiresAtMillis = leaseExpiresAtMillis;
		return true;
	}

	/**
	 * Completes the message if {@code delivery} is its current delivery (or
	 * {@link AbstractMessage#ANY_DELIVERY}); the answers are those of
	 * {@link AbstractMessage#complete(int)}.
	 */
	public Completion complete(int delivery) {
		while (true) {
			int current = this.state;
			if ((current & COMPLETED) != 0) {
				return Completion.NOT_FOUND;
			}
			int deliveries = current >>> 1;
			if (deliveries == 0) {
				return Completion.NOT_DELIVERED;
			}
			if (delivery != AbstractMessage.ANY_DELIVERY && delivery != deliveries) {
				return Completion.STALE_LEASE;
			}
			if (STATE.compareAndSet(this, current, current | COMPLETED)) {
				return Completion.COMPLETED;
			}
		}
	}

}
