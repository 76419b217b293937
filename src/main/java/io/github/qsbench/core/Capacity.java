package io.github.qsbench.core;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;

/**
 * Caps on what a queue service holds in memory, so that no sequence of requests can fill
 * the heap: a push over a cap is refused instead. Bytes and queues are reserved by
 * compare-and-set, and a queue's message count is checked inside the map's write access
 * that appends to it, so concurrent pushes can never overshoot a cap.
 *
 * <p>
 * What is charged is what the heap holds: a message is charged from its push until it
 * leaves its queue (not merely until it is completed: with lazy eviction a completed
 * message may stay in its queue until a poll walks past it), and a queue from its
 * creation until its removal. The byte charge of a message is an upper bound of the heap
 * it keeps alive: the body's UTF-8 bytes (what the message holds), as whole G1 regions
 * for a body G1 allocates on regions of its own ({@link #heapOf}), plus
 * {@link #MESSAGE_OVERHEAD_BYTES}.
 */
public final class Capacity {

	/**
	 * Heap per message beside its body's bytes: the message, the body array's header, its
	 * queue node and its index entry (measured 72-97 bytes for every strategy, see
	 * docs/heap-per-message.md).
	 */
	public static final int MESSAGE_OVERHEAD_BYTES = 256;

	/**
	 * The region size of this JVM's G1 collector, 0 under another collector (or if it
	 * cannot be read): read once, when the class loads.
	 */
	static final long HEAP_REGION_BYTES = g1RegionBytes();

	/** An array's header, which its region holds too. */
	private static final int ARRAY_HEADER_BYTES = 16;

	private final Limits limits;

	private final AtomicLong bytes = new AtomicLong();

	private final AtomicInteger queues = new AtomicInteger();

	public Capacity(Limits limits) {
		this.limits = limits;
	}

	public static long charge(byte[] body) {
		return heapOf(body.length, HEAP_REGION_BYTES) + MESSAGE_OVERHEAD_BYTES;
	}

	/**
	 * The heap a byte array of {@code length} keeps alive where the collector's regions
	 * are {@code regionBytes} ({@code 0}: none): its bytes, or, for an array of half a
	 * region or more, which G1 places on whole regions of its own ("humongous") and whose
	 * last region's rest it leaves empty while the array lives, those whole regions. A
	 * message of 1 MiB on G1's 1 MiB regions (any heap under 4 GiB) keeps 2 MiB.
	 */
	static long heapOf(int length, long regionBytes) {
		long bytes = (long) length + ARRAY_HEADER_BYTES;
		if (regionBytes == 0 || bytes < regionBytes / 2) {
			return length;
		}
		return (bytes + regionBytes - 1) / regionBytes * regionBytes;
	}

	/**
	 * G1's region size, through the platform's HotSpot diagnostic MBean (by name, so the
	 * core imports only the JDK's standard API); 0 if G1 is not in use or the MBean
	 * cannot say.
	 */
	private static long g1RegionBytes() {
		try {
			MBeanServer server = ManagementFactory.getPlatformMBeanServer();
			ObjectName hotspot = new ObjectName("com.sun.management:type=HotSpotDiagnostic");
			if (!"true".equals(vmOption(server, hotspot, "UseG1GC"))) {
				return 0;
			}
			return Long.parseLong(vmOption(server, hotspot, "G1HeapRegionSize"));
		}
		catch (JMException | RuntimeException ex) {
			return 0;
		}
	}

	private static String vmOption(MBeanServer server, ObjectName hotspot, String name) throws JMException {
		CompositeData option = (CompositeData) server.invoke(hotspot, "getVMOption", new Object[] { name },
				new String[] { String.class.getName() });
		return (String) option.get("value");
	}

	/**
	 * Reserves room for a message with that body, or refuses it changing nothing.
	 * @return its charge, to release when it leaves memory or if the push fails
	 */
	public long reserve(byte[] body) {
		long charge = charge(body);
		reserveBytes(charge);
		return charge;
	}

	/**
	 * Reserves room for messages with these bodies, all or none.
	 * @return their charge, to release if the push fails
	 */
	public long reserve(List<byte[]> bodies) {
		long charge = 0;
		for (byte[] body : bodies) {
			charge += charge(body);
		}
		reserveBytes(charge);
		return charge;
	}

	/** Releases what a message with that body was charged: it left memory. */
	public void release(byte[] body) {
		releaseBytes(charge(body));
	}

	/**
	 * Reserves room for messages of that many bytes, or refuses them changing nothing.
	 */
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

	public void releaseBytes(long charge) {
		this.bytes.addAndGet(-charge);
	}

	/** Reserves room for one more queue, or refuses it changing nothing. */
	public void reserveQueue() {
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

	public void releaseQueue() {
		this.queues.decrementAndGet();
	}

	/** Refuses {@code adding} messages to a queue that holds {@code held}. */
	public void checkQueue(int held, int adding) {
		if ((long) held + adding > this.limits.maxMessagesPerQueue()) {
			throw new CapacityExceededException(Limit.MESSAGES_PER_QUEUE, this.limits.maxMessagesPerQueue());
		}
	}

	public Limits limits() {
		return this.limits;
	}

	/** Bytes charged for the messages in memory now. */
	public long heldBytes() {
		return this.bytes.get();
	}

	/** Queues that exist now. */
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
		 * the service itself and requests in progress (up to 200 Jetty threads each
		 * reading a body). One queue may hold at most a million messages (a poll walks
		 * its in-flight ones), and at most 10,000 queues may exist at once.
		 */
		public static Limits forHeap(long maxHeapBytes) {
			return new Limits(10_000, 1_000_000, maxHeapBytes / 2);
		}

	}

	/** Which cap refused a push. */
	public enum Limit {

		QUEUES("max-queues"), MESSAGES_PER_QUEUE("max-messages-per-queue"), TOTAL_BYTES("max-total-bytes"),

		/**
		 * The memory of a store outside the process: Redis's {@code maxmemory} (with
		 * {@code noeviction}), not a setting of this service.
		 */
		STORE_MEMORY("store-memory");

		private final String property;

		Limit(String property) {
			this.property = property;
		}

		/**
		 * The name of the setting, under {@code qs.limits} (but see
		 * {@link #STORE_MEMORY}).
		 */
		public String property() {
			return this.property;
		}

	}

}
