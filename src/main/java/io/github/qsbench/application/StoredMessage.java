package io.github.qsbench.application;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A message as the core keeps it, read back: its body, its attributes
 * ({@link MessageAttributes}), what the service records of it ({@link SystemAttributes}),
 * and, for a dead letter, where it came from. The core holds one byte array per message
 * and never looks inside: what is not body is a series of prefixes before it. The bytes,
 * and why the first-receive time written in place is safe to read:
 * docs/design/stored-message.md.
 *
 * @param deadLetter where a dead letter came from, {@code null} for any other message
 */
public record StoredMessage(byte[] body, MessageAttributes attributes, SystemAttributes system, DeadLetter deadLetter) {

	private static final byte DEAD_LETTER = (byte) 0xFE;

	/**
	 * The system prefix: its first receive as 4 bytes of milliseconds after its sending,
	 * so that a 100-byte message with its prefix fits a 128-byte array.
	 */
	private static final byte SYSTEM = (byte) 0xFC;

	/**
	 * The system prefix as it was written before (its first receive as 8 bytes of epoch
	 * milliseconds): still read, as a store outside the heap (Redis) may hold it.
	 */
	private static final byte SYSTEM_WIDE = (byte) 0xFD;

	/** The system prefix's fixed part: marker, flag, sent, first received. */
	private static final int SYSTEM_FIXED = 1 + 1 + 6 + 4;

	/** {@link #SYSTEM_WIDE}'s fixed part. */
	private static final int SYSTEM_WIDE_FIXED = 1 + 1 + 6 + 8;

	/**
	 * The most milliseconds between a message's sending and its first receive that the
	 * prefix can say (about 49 days; SQS keeps a message at most 14): a later first
	 * receive reads as this long after the sending.
	 */
	static final long MAX_RECEIVE_OFFSET = 0xFFFF_FFFEL;

	/** The flag bit of a group, its deduplication id and sequence number. */
	private static final int GROUPED = 1;

	/** The flag bit of a trace header. */
	private static final int TRACED = 2;

	/** The longest trace header, in UTF-8: what its 2-byte length can say. */
	public static final int MAX_TRACE_HEADER_BYTES = 0xFFFF;

	/** Where the first-receive time lies in the system prefix. */
	private static final int FIRST_RECEIVED = 8;

	private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

	private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

	/** The body as text. */
	public String text() {
		return new String(this.body, StandardCharsets.UTF_8);
	}

	/**
	 * The bytes the core keeps for {@code message}, sent at {@code sentMillis}.
	 * @param sequenceNumber a FIFO message's sequence number, 0 for others
	 * @param maxBytes the most that body and attributes may add up to, as SQS counts them
	 * (a trace header is not counted, as SQS does not count system attributes)
	 * @throws InvalidRequestException if body and attributes add up to more, or the trace
	 * header is longer than {@value #MAX_TRACE_HEADER_BYTES} bytes
	 */
	public static byte[] encode(OutgoingMessage message, long sentMillis, long sequenceNumber, int maxBytes) {
		byte[] stored = message.attributes().store(message.body(), maxBytes);
		boolean grouped = message.group() != null;
		byte[] group = grouped ? MessageAttributes.utf8(message.group()) : null;
		byte[] deduplication = grouped ? MessageAttributes.utf8(nonNull(message.deduplicationId())) : null;
		byte[] trace = (message.traceHeader() != null) ? MessageAttributes.utf8(message.traceHeader()) : null;
		if (trace != null && trace.length > MAX_TRACE_HEADER_BYTES) {
			throw new InvalidRequestException("Invalid trace header", "A trace header has at most "
					+ MAX_TRACE_HEADER_BYTES + " bytes in UTF-8; this one " + trace.length + ".");
		}
		int length = SYSTEM_FIXED + (grouped ? 2 + group.length + 2 + deduplication.length + 8 : 0)
				+ ((trace != null) ? 2 + trace.length : 0) + stored.length;
		ByteBuffer out = ByteBuffer.allocate(length)
			.put(SYSTEM)
			.put((byte) ((grouped ? GROUPED : 0) | ((trace != null) ? TRACED : 0)))
			.putShort((short) (sentMillis >>> 32))
			.putInt((int) sentMillis)
			.putInt(0);
		if (grouped) {
			out.putShort((short) group.length).put(group).putShort((short) deduplication.length).put(deduplication);
			out.putLong(sequenceNumber);
		}
		if (trace != null) {
			out.putShort((short) trace.length).put(trace);
		}
		return out.put(stored).array();
	}

	private static String nonNull(String text) {
		return (text != null) ? text : "";
	}

	/** Reads what the core holds for a message. */
	public static StoredMessage read(byte[] stored) {
		if (stored.length == 0 || stored[0] != DEAD_LETTER) {
			return readSystem(stored, 0, null);
		}
		ByteBuffer in = ByteBuffer.wrap(stored, 1, stored.length - 1);
		String source = new String(MessageAttributes.bytes(in, in.getShort()), StandardCharsets.UTF_8);
		DeadLetter origin = new DeadLetter(source, in.getInt());
		return readSystem(stored, originLength(stored), origin);
	}

	/** How many bytes a dead letter's origin takes, with its padding; 0 for none. */
	private static int originLength(byte[] stored) {
		if (stored.length == 0 || stored[0] != DEAD_LETTER) {
			return 0;
		}
		return padded(1 + 2 + ByteBuffer.wrap(stored, 1, 2).getShort() + 4);
	}

	private static int padded(int length) {
		return (length + 7) & ~7;
	}

	private static StoredMessage readSystem(byte[] stored, int from, DeadLetter deadLetter) {
		if (stored.length == from || (stored[from] != SYSTEM && stored[from] != SYSTEM_WIDE)) {
			return MessageAttributes.read(stored, from, SystemAttributes.UNKNOWN, deadLetter);
		}
		boolean wide = stored[from] == SYSTEM_WIDE;
		ByteBuffer in = ByteBuffer.wrap(stored, from + 1, stored.length - from - 1);
		int flags = in.get();
		long sent = ((in.getShort() & 0xFFFFL) << 32) | (in.getInt() & 0xFFFFFFFFL);
		long firstReceived = firstReceived(stored, from, wide, sent);
		in.position(in.position() + (wide ? 8 : 4));
		String group = null;
		String deduplication = null;
		long sequenceNumber = 0;
		if ((flags & GROUPED) != 0) {
			group = utf8(in);
			deduplication = utf8(in);
			sequenceNumber = in.getLong();
		}
		String trace = ((flags & TRACED) != 0) ? utf8(in) : null;
		SystemAttributes system = new SystemAttributes(sent, firstReceived, group,
				(deduplication == null || deduplication.isEmpty()) ? null : deduplication, sequenceNumber, trace);
		return MessageAttributes.read(stored, in.position(), system, deadLetter);
	}

	/** The first receive's epoch milliseconds, 0 for not yet; read with acquire. */
	private static long firstReceived(byte[] stored, int from, boolean wide, long sentMillis) {
		if (wide) {
			long received = (long) LONGS.get(stored, from + FIRST_RECEIVED);
			VarHandle.acquireFence();
			return received;
		}
		long offset = (int) INTS.get(stored, from + FIRST_RECEIVED) & 0xFFFF_FFFFL;
		VarHandle.acquireFence();
		return (offset == 0) ? 0 : sentMillis + offset - 1;
	}

	/** Text of a 2-byte length and UTF-8. */
	private static String utf8(ByteBuffer in) {
		return new String(MessageAttributes.bytes(in, in.getShort() & 0xFFFF), StandardCharsets.UTF_8);
	}

	/**
	 * Records {@code nowMillis} as the message's first receive, unless one is recorded
	 * already: called with a first delivery, by the one consumer that got it.
	 */
	public static void markReceived(byte[] stored, long nowMillis) {
		int at = originLength(stored);
		if (stored.length >= at + SYSTEM_FIXED && stored[at] == SYSTEM) {
			int recorded = (int) INTS.get(stored, at + FIRST_RECEIVED);
			VarHandle.acquireFence();
			if (recorded == 0) {
				long sent = ((stored[at + 2] & 0xFFL) << 40) | ((stored[at + 3] & 0xFFL) << 32)
						| ((int) INTS.get(stored, at + 4) & 0xFFFF_FFFFL);
				long offset = Math.min(Math.max(nowMillis - sent, 0), MAX_RECEIVE_OFFSET) + 1;
				VarHandle.releaseFence();
				INTS.set(stored, at + FIRST_RECEIVED, (int) offset);
			}
		}
		else if (stored.length >= at + SYSTEM_WIDE_FIXED && stored[at] == SYSTEM_WIDE) {
			long recorded = (long) LONGS.get(stored, at + FIRST_RECEIVED);
			VarHandle.acquireFence();
			if (recorded == 0) {
				VarHandle.releaseFence();
				LONGS.set(stored, at + FIRST_RECEIVED, nowMillis);
			}
		}
	}

	/**
	 * What a dead-letter queue keeps of a message that left {@code source} after
	 * {@code deliveries} deliveries: the message as it was, behind its origin.
	 */
	public static byte[] deadLettered(byte[] stored, String source, int deliveries) {
		byte[] message = withoutOrigin(stored);
		byte[] name = MessageAttributes.utf8(source);
		int origin = padded(1 + 2 + name.length + 4);
		ByteBuffer out = ByteBuffer.allocate(origin + message.length);
		out.put(DEAD_LETTER).putShort((short) name.length).put(name).putInt(deliveries);
		return out.position(origin).put(message).array();
	}

	/**
	 * A dead letter as it was in its source queue, for a redrive or a further move (a
	 * message keeps one origin: the queue it last left); others as they are.
	 */
	public static byte[] withoutOrigin(byte[] stored) {
		int origin = originLength(stored);
		return (origin == 0) ? stored : Arrays.copyOfRange(stored, origin, stored.length);
	}

	/** Where a dead letter came from: its source queue and its deliveries there. */
	public record DeadLetter(String source, int deliveries) {
	}

	/**
	 * What the service records of a message, as SQS's system attributes answer it.
	 *
	 * @param sentMillis when it was sent, 0 if unknown
	 * @param firstReceivedMillis when it was first delivered, 0 if not yet or unknown
	 * @param group the message's group (a FIFO message's, or one given on a standard
	 * queue), else {@code null}
	 * @param deduplicationId a FIFO message's deduplication id (given, or the body's
	 * SHA-256), else {@code null}
	 * @param sequenceNumber a FIFO message's sequence number, else 0
	 * @param traceHeader the {@code AWSTraceHeader} it was sent with, else {@code null}
	 */
	public record SystemAttributes(long sentMillis, long firstReceivedMillis, String group, String deduplicationId,
			long sequenceNumber, String traceHeader) {

		/** A message stored before the service recorded these. */
		public static final SystemAttributes UNKNOWN = new SystemAttributes(0, 0, null, null, 0);

		/** The system attributes of a message sent without a trace header. */
		public SystemAttributes(long sentMillis, long firstReceivedMillis, String group, String deduplicationId,
				long sequenceNumber) {
			this(sentMillis, firstReceivedMillis, group, deduplicationId, sequenceNumber, null);
		}

		/** The sequence number as SQS writes it (20 digits), {@code null} for none. */
		public String sequenceText() {
			return (this.sequenceNumber != 0) ? Sent.sequenceText(this.sequenceNumber) : null;
		}

	}

}
