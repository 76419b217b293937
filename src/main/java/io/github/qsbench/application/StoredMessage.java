package io.github.qsbench.application;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A message as the core keeps it, read back: its body, its attributes
 * ({@link MessageAttributes}), and, for a dead letter, where it came from. The core holds
 * one byte array per message; what is not body is a prefix that starts with a byte that
 * never begins UTF-8 text: {@code 0xFF} for attributes, {@code 0xFE} for a dead letter's
 * origin (its source queue's name, a 2-byte length and UTF-8, and how often it was
 * delivered there, 4 bytes), followed by the message as it was in its source. A message
 * with neither is its body, unchanged.
 *
 * @param deadLetter where a dead letter came from, {@code null} for any other message
 */
public record StoredMessage(byte[] body, MessageAttributes attributes, DeadLetter deadLetter) {

	private static final byte DEAD_LETTER = (byte) 0xFE;

	/** The body as text. */
	public String text() {
		return new String(this.body, StandardCharsets.UTF_8);
	}

	/** Reads what the core holds for a message. */
	public static StoredMessage read(byte[] stored) {
		if (stored.length == 0 || stored[0] != DEAD_LETTER) {
			return MessageAttributes.read(stored, 0, null);
		}
		ByteBuffer in = ByteBuffer.wrap(stored, 1, stored.length - 1);
		String source = new String(MessageAttributes.bytes(in, in.getShort()), StandardCharsets.UTF_8);
		DeadLetter origin = new DeadLetter(source, in.getInt());
		return MessageAttributes.read(stored, in.position(), origin);
	}

	/**
	 * What a dead-letter queue keeps of a message that left {@code source} after
	 * {@code deliveries} deliveries: the message as it was, behind its origin.
	 */
	static byte[] deadLettered(byte[] stored, String source, int deliveries) {
		byte[] name = MessageAttributes.utf8(source);
		return ByteBuffer.allocate(1 + 2 + name.length + 4 + stored.length)
			.put(DEAD_LETTER)
			.putShort((short) name.length)
			.put(name)
			.putInt(deliveries)
			.put(stored)
			.array();
	}

	/** A dead letter as it was in its source queue, for a redrive; others as they are. */
	static byte[] withoutOrigin(byte[] stored) {
		if (stored.length == 0 || stored[0] != DEAD_LETTER) {
			return stored;
		}
		int nameLength = ByteBuffer.wrap(stored, 1, 2).getShort();
		return Arrays.copyOfRange(stored, 1 + 2 + nameLength + 4, stored.length);
	}

	/** Where a dead letter came from: its source queue and its deliveries there. */
	public record DeadLetter(String source, int deliveries) {
	}

}
