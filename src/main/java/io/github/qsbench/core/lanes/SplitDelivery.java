package io.github.qsbench.core.lanes;

import io.github.qsbench.core.shared.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One delivery of a {@link SplitMessage}, as its queue's in-flight record holds it: which
 * delivery, and when its lease expires. Immutable but for its claim: whoever takes the
 * record from the head of the in-flight record claims it first, so that one thread moves
 * or drops each. A redelivery makes a new one, so a claim can never succeed on a record
 * that was already moved (no ABA).
 */
public final class SplitDelivery {

	private static final VarHandle CLAIMED = VarHandles.field(MethodHandles.lookup(), "claimed", boolean.class);

	final SplitMessage message;

	final int delivery;

	final long leaseExpiresAtMillis;

	private volatile boolean claimed;

	public SplitDelivery(SplitMessage message, int delivery, long leaseExpiresAtMillis) {
		this.message = message;
		this.delivery = delivery;
		this.leaseExpiresAtMillis = leaseExpiresAtMillis;
	}

	/** {@code true} for exactly one caller, who then moves or drops this record. */
	public boolean claim() {
		return CLAIMED.compareAndSet(this, false, true);
	}

	public boolean isClaimed() {
		return this.claimed;
	}

	boolean expiredAt(long nowMillis) {
		return nowMillis >= this.leaseExpiresAtMillis;
	}

}
