package io.github.qsbench.core;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Caps on what a queue service holds (messages pushed and not yet completed), so that a
 * push flood is refused instead of filling the heap. Every cap is exact: bytes and queues
 * are reserved by compare-and-set, and a queue's message count changes inside one atomic
 * {@code compute} of its entry, so concurrent pushes can never overshoot a cap.
 *
 * <p>
 * The byte charge of a message is an upper bound of the heap it keeps alive: two bytes
 * per character (a string's worst case) plus {@link #MESSAGE_OVERHEAD_BYTES} for the
 * message object, its queue node and its index entry. With lazy eviction a completed
 * message is released at once but stays in its queue until the next poll of that queue
 * walks past it.
 */
public final class Capacity {

	/**
	 * Heap per message beside its body: object headers, fields, queue node, index entry,
	 * boxed id.
	 */
	public static final int MESSAGE_OVERHEAD_BYTES = 256;

	private final Limits limits;

	private final AtomicLong bytes = new AtomicLong();

	private final AtomicInteger queues = new AtomicInteger();

	/** Messages held per queue; an entry exists exactly while its queue holds one. */
	private final ConcurrentHashMap<String, AtomicInteger> held = new ConcurrentHashMap<>();

	Capacity(Limits limits) {
		this.limits = limits;
	}

	public static long charge(String body) {
		return 2L * body.length() + MESSAGE_OVERHEAD_BYTES;
	}

	/** Reserves room for one message or refuses it, changing nothing. */
	void admit(String queue, long charge) {
		reserveBytes(charge);
		try {
			this.held.compute(queue, (name, count) -> {
				if (count == null) {
					reserveQueue();
					count = new AtomicInteger();
				}
				else if (count.get() >= this.limits.maxMessagesPerQueue()) {
					throw new CapacityExceededException(Limit.MESSAGES_PER_QUEUE, this.limits.maxMessagesPerQueue());
				}
				count.incrementAndGet();
				return count;
			});
		}
		catch (CapacityExceededException ex) {
			this.bytes.addAndGet(-charge);
			throw ex;
		}
	}

	void release(String queue, long charge) {
		this.bytes.addAndGet(-charge);
		this.held.computeIfPresent(queue, (name, count) -> {
			if (count.decrementAndGet() > 0) {
				return count;
			}
			this.queues.decrementAndGet();
			return null;
		});
	}

	private void reserveBytes(long charge) {
		long max = this.limits.maxTotalBytes();
		long current;
		do {
			current = this.bytes.get();
			if (current + charge > max) {
				throw new CapacityExceededException(Limit.TOTAL_BYTES, max);
			}
		}
		while (!this.bytes.compareAndSet(current, current + charge));
	}

	private void reserveQueue() {
		int max = this.limits.maxQueues();
		int current;
		do {
			current = this.queues.get();
			if (current >= max) {
				throw new CapacityExceededException(Limit.QUEUES, max);
			}
		}
		while (!this.queues.compareAndSet(current, current + 1));
	}

	public Limits limits() {
		return this.limits;
	}

	/** Bytes charged for the messages held now. */
	public long heldBytes() {
		return this.bytes.get();
	}

	/** Queues holding at least one message now. */
	public int heldQueues() {
		return this.queues.get();
	}

	/**
	 * The caps.
	 *
	 * @param maxQueues queues that may hold messages at once
	 * @param maxMessagesPerQueue messages one queue may hold
	 * @param maxTotalBytes bytes all held messages may be charged (see
	 * {@link Capacity#charge})
	 */
	public record Limits(int maxQueues, int maxMessagesPerQueue, long maxTotalBytes) {

		public static final Limits UNLIMITED = new Limits(Integer.MAX_VALUE, Integer.MAX_VALUE, Long.MAX_VALUE);

		public Limits {
			if (maxQueues < 1 || maxMessagesPerQueue < 1 || maxTotalBytes < 1) {
				throw new IllegalArgumentException(
						"limits must be positive: " + maxQueues + ", " + maxMessagesPerQueue + ", " + maxTotalBytes);
			}
		}

		/**
		 * Defaults sized from the heap: half of it for held messages, the other half for
		 * the service itself and requests in progress (up to 200 Tomcat threads each
		 * reading a body). One queue may hold at most a million messages (a poll walks
		 * its in-flight ones), and at most 10,000 queues may exist at once.
		 */
		public static Limits forHeap(long maxHeapBytes) {
			return new Limits(10_000, 1_000_000, maxHeapBytes / 2);
		}

	}

	/** Which cap refused a push. */
	public enum Limit {

		QUEUES("max-queues"), MESSAGES_PER_QUEUE("max-messages-per-queue"), TOTAL_BYTES("max-total-bytes");

		private final String property;

		Limit(String property) {
			this.property = property;
		}

		/** The name of the setting, under {@code qs.limits}. */
		public String property() {
			return this.property;
		}

	}

}
