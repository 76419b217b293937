package io.github.qsbench.redis;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Message ids taken from the shared counter a block at a time
 * ({@link RedisStore#reserveIds(int)}). A cluster's push cannot reach the counter from
 * its queue's slot, so each push took its ids by an {@code INCRBY} of their own, a round
 * trip before its script; one {@code INCRBY} of {@link #BLOCK} more than a push asks for
 * leaves ids that the pushes of the next moments take here, with none.
 * <p>
 * Ids stay unique: every range the counter gives is this instance's alone, and a range is
 * handed out once, under this object's lock. They rise with time only to within a block's
 * age ({@link #MAX_AGE_NANOS}), across instances and where reservations race. A queue's
 * order is its ready list's and FIFO sequence numbers have counters of their own; what
 * reads order from ids takes it so: retention dates a message by its id that much later
 * ({@link RedisQS#lastIdLagMillis}), and the browser's merge by id and the fences of a
 * purge, a redrive and a move task ({@code lastId()}) hold to within it (docs/redis.md,
 * "Semantics and limits"). Ids a block held when it was given up are never used: gaps.
 * <p>
 * A block serves for at most {@link #MAX_AGE_NANOS}. Redis replicates asynchronously, so
 * a failover may lose the counter's last increments and give their ids again, unless
 * {@code qs.redis.replicas-to-acknowledge} makes each reservation wait for the counter's
 * replica: a block reserved in the moment a failover loses is then in use for at most
 * that second, where ids taken in that moment were pushed at once. Fewer reservations
 * fall in such a moment, but each exposes more ids.
 */
final class IdBlocks {

	/** Ids a reservation takes beyond the caller's: a thousand pushes' worth. */
	static final int BLOCK = 1000;

	/** How long after its reservation was sent a block still serves. */
	static final long MAX_AGE_NANOS = TimeUnit.SECONDS.toNanos(1);

	private final LongSupplier nanoTime;

	/** The block's next id; it is empty when past {@link #last}. Guarded by this. */
	private long next = 1;

	/** The block's last id. Guarded by this. */
	private long last;

	/** When the block was reserved, on {@link #nanoTime}. Guarded by this. */
	private long reservedAt;

	IdBlocks() {
		this(System::nanoTime);
	}

	IdBlocks(LongSupplier nanoTime) {
		this.nanoTime = nanoTime;
	}

	/**
	 * The first of {@code count} ids from the block, or 0 if it holds fewer or is too
	 * old: then reserve {@code count + BLOCK} ids and {@link #keep} them.
	 */
	synchronized long take(int count) {
		if (this.last - this.next + 1 < count || this.nanoTime.getAsLong() - this.reservedAt > MAX_AGE_NANOS) {
			return 0;
		}
		long first = this.next;
		this.next += count;
		return first;
	}

	/** The time to pass to {@link #keep}, taken before the reservation is sent. */
	long reserving() {
		return this.nanoTime.getAsLong();
	}

	/**
	 * A reservation of {@code count + BLOCK} ids, up to {@code reservedLast}: the first
	 * {@code count} are the caller's, the rest the block, in place of what was left of
	 * the one before (a gap) unless that one is the later (reservations that raced). Its
	 * age counts from {@code sentAt} ({@link #reserving}), before Redis ran it, so that
	 * no id of the block is given later than {@link #MAX_AGE_NANOS} after the counter
	 * passed it, whatever the reply's delay ({@link RedisQS#lastIdLagMillis}); the
	 * caller's own are pushed at once, as when each push took its ids just before it
	 * pushed.
	 * @return the first of the caller's ids
	 */
	synchronized long keep(long reservedLast, int count, long sentAt) {
		long first = reservedLast - BLOCK - count + 1;
		if (reservedLast > this.last) {
			this.next = first + count;
			this.last = reservedLast;
			this.reservedAt = sentAt;
		}
		return first;
	}

}
