package io.github.qsbench.core.lanes;

import io.github.qsbench.core.ByIdOutcome;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.shared.CompletableMessage;
import io.github.qsbench.core.shared.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A message of {@link AbstractLaneLockedQS}: every change but a completion happens under
 * its queue's lock, so the one race left is between a completion, which takes no lock,
 * and a redelivery of the same delivery, decided by compare-and-set of one word.
 *
 * <p>
 * That word ({@link #state}) holds, from the top: the lease's expiry in epoch
 * milliseconds (42 bits, until the year 2109), the deliveries (21 bits, saturating at
 * {@value #MAX_DELIVERIES}) and whether it is completed (the lowest bit). So the message
 * needs no record per delivery and takes 32 bytes with its id and body.
 */
public final class LaneMessage implements CompletableMessage {

	private static final long COMPLETED = 1;

	private static final int DELIVERY_BITS = 21;

	private static final int MAX_DELIVERIES = (1 << DELIVERY_BITS) - 1;

	private static final int EXPIRY_SHIFT = DELIVERY_BITS + 1;

	private static final VarHandle STATE = VarHandles.field(MethodHandles.lookup(), "state", long.class);

	private final long id;

	/**
	 * The body's UTF-8 bytes, as in
	 * {@link io.github.qsbench.core.thesis.AbstractMessage}.
	 */
	private final byte[] body;

	/** Lease expiry, deliveries and the completed bit, see the class comment. */
	private volatile long state;

	public LaneMessage(long id, byte[] body) {
		this.id = id;
		this.body = body;
	}

	@Override
	public long id() {
		return this.id;
	}

	@Override
	public byte[] body() {
		return this.body;
	}

	@Override
	public int deliveries() {
		return deliveries(this.state);
	}

	@Override
	public boolean isCompleted() {
		return (this.state & COMPLETED) != 0;
	}

	/**
	 * The lease's expiry if delivered and not completed, otherwise {@link Long#MAX_VALUE}
	 * (a completed message never expires; one never delivered is not in flight).
	 */
	long expiry() {
		long current = this.state;
		return ((current & COMPLETED) != 0 || deliveries(current) == 0) ? Long.MAX_VALUE : current >>> EXPIRY_SHIFT;
	}

	/**
	 * When the lease of the latest delivery ends (or, never delivered, 0), completed or
	 * not: a completion leaves it as it was, so it orders messages in a sorted record.
	 */
	long leaseEnd() {
		return this.state >>> EXPIRY_SHIFT;
	}

	/**
	 * Under the queue's lock, with the message out of any sorted record: makes the lease
	 * of the current delivery end at {@code leaseEnd}, unless a completion's table
	 * refuses (decided on one reading of the state, which a completion may change
	 * concurrently: so by compare-and-set).
	 */
	ByIdOutcome changeLease(int delivery, long leaseEnd) {
		while (true) {
			long current = this.state;
			Completion verdict = Completion.decide((current & COMPLETED) != 0, deliveries(current), delivery);
			if (verdict != Completion.COMPLETED || STATE.compareAndSet(this, current,
					(leaseEnd << EXPIRY_SHIFT) | (current & ((1L << EXPIRY_SHIFT) - 1)))) {
				return ByIdOutcome.of(verdict);
			}
		}
	}

	/**
	 * Before the message is queued: not delivered before {@code dueMillis} (its lease end
	 * while never delivered).
	 */
	void delayUntil(long dueMillis) {
		this.state = dueMillis << EXPIRY_SHIFT;
	}

	/**
	 * Completes the message whatever its state, under its queue's lock.
	 * @return how often it had been delivered, or -1 if it was completed already
	 */
	@Override
	public int discard() {
		while (true) {
			long current = this.state;
			if ((current & COMPLETED) != 0) {
				return -1;
			}
			if (STATE.compareAndSet(this, current, current | COMPLETED)) {
				return deliveries(current);
			}
		}
	}

	/**
	 * The first delivery, under the queue's lock by the poll that took it from the ready
	 * queue: a completion of a message never delivered changes nothing, so a plain
	 * volatile write does.
	 */
	public void deliverFirst(long expiry) {
		this.state = (expiry << EXPIRY_SHIFT) | (1 << 1);
	}

	/**
	 * Delivers the message once more, under the queue's lock, unless a completion won the
	 * race for this delivery.
	 * @return {@code false} if it was completed meanwhile
	 */
	public boolean redeliver(long expiry) {
		while (true) {
			long current = this.state;
			if ((current & COMPLETED) != 0) {
				return false;
			}
			int next = Math.min(deliveries(current) + 1, MAX_DELIVERIES);
			if (STATE.compareAndSet(this, current, (expiry << EXPIRY_SHIFT) | ((long) next << 1))) {
				return true;
			}
		}
	}

	/** Takes no lock: a compare-and-set of the word a redelivery changes too. */
	@Override
	public Completion complete(int delivery) {
		while (true) {
			long current = this.state;
			Completion verdict = Completion.decide((current & COMPLETED) != 0, deliveries(current), delivery);
			if (verdict != Completion.COMPLETED || STATE.compareAndSet(this, current, current | COMPLETED)) {
				return verdict;
			}
		}
	}

	private static int deliveries(long state) {
		return (int) (state >>> 1) & MAX_DELIVERIES;
	}

}
