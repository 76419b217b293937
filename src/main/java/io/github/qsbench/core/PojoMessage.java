package io.github.qsbench.core;

/**
 * A message with plain fields and no synchronization of its own: safe only where the
 * strategy gives one thread at a time exclusive access to the queue holding it. Two
 * threads grabbing it at once may both succeed, which is how
 * {@code ConcurrentQSWithPojoMessage} delivers at least once.
 */
public final class PojoMessage extends AbstractMessage {

	private int deliveries;

	private long leaseExpiresAtMillis;

	private boolean completed;

	public PojoMessage(long id, String queue, String body) {
		super(id, queue, body);
	}

	@Override
	public Grab tryGrab(long nowMillis, long leaseMillis) {
		if (this.completed) {
			return Grab.DECLINED_COMPLETED;
		}
		if (this.deliveries > 0 && nowMillis < this.leaseExpiresAtMillis) {
			return Grab.DECLINED_IN_FLIGHT;
		}
		this.deliveries++;
		this.leaseExpiresAtMillis = nowMillis + leaseMillis;
		return Grab.GRABBED;
	}

	@Override
	public Completion complete(int delivery) {
		if (this.completed) {
			return Completion.NOT_FOUND;
		}
		if (this.deliveries == 0) {
			return Completion.NOT_DELIVERED;
		}
		if (delivery != ANY_DELIVERY && delivery != this.deliveries) {
			return Completion.STALE_LEASE;
		}
		this.completed = true;
		return Completion.COMPLETED;
	}

	@Override
	public boolean isCompleted() {
		return this.completed;
	}

	@Override
	public Status status(long nowMillis) {
		if (this.completed) {
			return Status.COMPLETED;
		}
		return (this.deliveries > 0 && nowMillis < this.leaseExpiresAtMillis) ? Status.IN_FLIGHT : Status.READY;
	}

	@Override
	public int deliveries() {
		return this.deliveries;
	}

}
