package io.github.qsbench.core.thesis;

import io.github.qsbench.core.ByIdOutcome;
import io.github.qsbench.core.Completion;

/**
 * A message with plain fields and no synchronization of its own: safe only where the
 * strategy gives one thread at a time exclusive access to the queue holding it. Two
 * threads grabbing it at once may both succeed, which is how
 * {@code ConcurrentQSWithPojoMessage} delivers at least once.
 *
 * <p>
 * Two words, 32 bytes a message with its body's reference, where separate fields would
 * take 40 after alignment. Each word has one kind of writer, so that a race between a
 * grab and a completion, which this message allows, cannot undo either:
 * <ul>
 * <li>{@link #idAndCompleted}: the id, with the sign bit set once completed; written only
 * by {@link #complete(int)} and {@link #discard()} (two completions write the same
 * value);</li>
 * <li>{@link #leaseAndDeliveries}: the lease's expiry in epoch milliseconds (upper 42
 * bits: until the year 2109; for a message never delivered, the end of its delay) and the
 * deliveries (lower 22 bits, saturating at {@value #MAX_DELIVERIES}, after which a lease
 * token no longer tells deliveries apart); written only by {@link #tryGrab(long, long)}
 * and {@link #changeLease(int, long)} (which a strategy that guards its queues calls
 * under the same exclusive access), and by {@link #delayUntil(long)} before the message
 * is queued.</li>
 * </ul>
 */
public final class PojoMessage extends AbstractMessage {

	private static final long COMPLETED = Long.MIN_VALUE;

	private static final int DELIVERY_BITS = 22;

	private static final int MAX_DELIVERIES = (1 << DELIVERY_BITS) - 1;

	private long idAndCompleted;

	private long leaseAndDeliveries;

	public PojoMessage(long id, byte[] body) {
		super(body);
		this.idAndCompleted = id;
	}

	@Override
	public long id() {
		return this.idAndCompleted & ~COMPLETED;
	}

	@Override
	public Grab tryGrab(long nowMillis, long leaseMillis) {
		if (this.idAndCompleted < 0) {
			return Grab.DECLINED_COMPLETED;
		}
		long lease = this.leaseAndDeliveries;
		int deliveries = (int) (lease & MAX_DELIVERIES);
		if (nowMillis < (lease >>> DELIVERY_BITS)) {
			return Grab.DECLINED_IN_FLIGHT;
		}
		this.leaseAndDeliveries = ((nowMillis + leaseMillis) << DELIVERY_BITS)
				| Math.min(deliveries + 1, MAX_DELIVERIES);
		return Grab.GRABBED;
	}

	@Override
	public Completion complete(int delivery) {
		long id = this.idAndCompleted;
		Completion verdict = Completion.decide(id < 0, deliveries(), delivery);
		if (verdict == Completion.COMPLETED) {
			this.idAndCompleted = id | COMPLETED;
		}
		return verdict;
	}

	@Override
	public void delayUntil(long dueMillis) {
		this.leaseAndDeliveries = dueMillis << DELIVERY_BITS;
	}

	@Override
	public boolean endDelay(long nowMillis) {
		if (isCompleted() || deliveries() > 0 || this.leaseAndDeliveries == 0) {
			return false; // never delayed: its word is 0
		}
		this.leaseAndDeliveries = nowMillis << DELIVERY_BITS;
		return true;
	}

	@Override
	public int discard() {
		long id = this.idAndCompleted;
		if (id < 0) {
			return -1;
		}
		this.idAndCompleted = id | COMPLETED;
		return deliveries();
	}

	@Override
	public ByIdOutcome changeLease(int delivery, long leaseEndMillis) {
		Completion verdict = Completion.decide(isCompleted(), deliveries(), delivery);
		if (verdict == Completion.COMPLETED) {
			this.leaseAndDeliveries = (leaseEndMillis << DELIVERY_BITS) | (this.leaseAndDeliveries & MAX_DELIVERIES);
		}
		return ByIdOutcome.of(verdict);
	}

	@Override
	public boolean isCompleted() {
		return this.idAndCompleted < 0;
	}

	@Override
	public Status status(long nowMillis) {
		if (this.idAndCompleted < 0) {
			return Status.COMPLETED;
		}
		long lease = this.leaseAndDeliveries;
		if (nowMillis >= (lease >>> DELIVERY_BITS)) {
			return Status.READY;
		}
		return ((lease & MAX_DELIVERIES) > 0) ? Status.IN_FLIGHT : Status.DELAYED;
	}

	@Override
	public int deliveries() {
		return (int) (this.leaseAndDeliveries & MAX_DELIVERIES);
	}

}
