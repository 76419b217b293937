package io.github.qsbench.application;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A message's attributes, as SQS has them: up to {@value #MAX_ATTRIBUTES} typed
 * name/value pairs ({@code String}, {@code Number}, {@code Binary}, each with an optional
 * custom suffix such as {@code Number.int}), kept with the message and returned by polls.
 *
 * <p>
 * They are stored in the core with the message, as a prefix of the bytes it holds, so no
 * strategy changes and a message without attributes costs nothing more: its bytes are its
 * body, unchanged. A prefix starts with the byte {@code 0xFF}, which never begins UTF-8
 * text, and every body is checked to be UTF-8 before it is pushed, so a body is never
 * taken for a prefix ({@link StoredMessage} reads it back). Layout: {@code 0xFF}, the
 * count (one byte), then per attribute, by name: name and type (each a 2-byte length and
 * UTF-8), value (a 4-byte length and the bytes: UTF-8 for {@code String} and
 * {@code Number}, raw for {@code Binary}); then the body.
 *
 * @param attributes by name, sorted (the order of SQS's MD5 of attributes)
 */
public record MessageAttributes(SortedMap<String, Attribute> attributes) {

	/** How many attributes a message may carry, as in SQS. */
	public static final int MAX_ATTRIBUTES = 10;

	/** The longest name and type, as in SQS. */
	private static final int MAX_NAME = 256;

	private static final byte PREFIX = (byte) 0xFF;

	public static final MessageAttributes NONE = new MessageAttributes(Collections.emptySortedMap());

	public MessageAttributes {
		attributes = Collections.unmodifiableSortedMap(attributes);
	}

	public boolean isEmpty() {
		return this.attributes.isEmpty();
	}

	/**
	 * Checks names and count as SQS does and collects the attributes.
	 * @throws InvalidRequestException for more than {@value #MAX_ATTRIBUTES} or a name
	 * SQS refuses
	 */
	public static MessageAttributes of(Map<String, Attribute> attributes) {
		if (attributes.isEmpty()) {
			return NONE;
		}
		if (attributes.size() > MAX_ATTRIBUTES) {
			throw invalid("A message carries at most " + MAX_ATTRIBUTES + " attributes; this one has "
					+ attributes.size() + ".");
		}
		attributes.keySet().forEach(MessageAttributes::checkName);
		return new MessageAttributes(new TreeMap<>(attributes));
	}

	/**
	 * The bytes the core keeps for a body with these attributes: the body itself when
	 * there are none.
	 * @param maxBytes the most that body and attributes (names, types and values) may add
	 * up to, as SQS counts them
	 */
	public byte[] store(byte[] body, int maxBytes) {
		if (this.attributes.isEmpty()) {
			return body;
		}
		long counted = body.length;
		int length = 2 + body.length;
		for (Map.Entry<String, Attribute> entry : this.attributes.entrySet()) {
			int name = utf8(entry.getKey()).length;
			int type = utf8(entry.getValue().type()).length;
			int value = entry.getValue().value().length;
			counted += name + type + value;
			length += 2 + name + 2 + type + 4 + value;
		}
		if (counted > maxBytes) {
			throw invalid("Body and attributes add up to " + counted + " bytes; at most " + maxBytes
					+ " are allowed (the queue's largest message).");
		}
		ByteBuffer stored = ByteBuffer.allocate(length).put(PREFIX).put((byte) this.attributes.size());
		for (Map.Entry<String, Attribute> entry : this.attributes.entrySet()) {
			byte[] name = utf8(entry.getKey());
			byte[] type = utf8(entry.getValue().type());
			stored.putShort((short) name.length).put(name).putShort((short) type.length).put(type);
			stored.putInt(entry.getValue().value().length).put(entry.getValue().value());
		}
		return stored.put(body).array();
	}

	/**
	 * Splits bytes the core holds (past any dead-letter prefix, see
	 * {@link StoredMessage}) into body and attributes; a message without attributes is
	 * answered with its bytes as they are, without a copy.
	 */
	static StoredMessage read(byte[] stored, int from, StoredMessage.DeadLetter deadLetter) {
		if (stored.length == from || stored[from] != PREFIX) {
			byte[] body = (from == 0) ? stored : Arrays.copyOfRange(stored, from, stored.length);
			return new StoredMessage(body, NONE, deadLetter);
		}
		ByteBuffer in = ByteBuffer.wrap(stored, from + 1, stored.length - from - 1);
		int count = in.get();
		SortedMap<String, Attribute> attributes = new TreeMap<>();
		for (int i = 0; i < count; i++) {
			String name = new String(bytes(in, in.getShort()), StandardCharsets.UTF_8);
			String type = new String(bytes(in, in.getShort()), StandardCharsets.UTF_8);
			attributes.put(name, new Attribute(type, bytes(in, in.getInt())));
		}
		return new StoredMessage(Arrays.copyOfRange(stored, in.position(), stored.length),
				new MessageAttributes(attributes), deadLetter);
	}

	static byte[] bytes(ByteBuffer in, int length) {
		byte[] bytes = new byte[length];
		in.get(bytes);
		return bytes;
	}

	static byte[] utf8(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * SQS's rules: 1 to 256 of A-Z a-z 0-9 _ - . ; no leading, trailing or doubled
	 * period; not starting with AWS. or Amazon. in any case.
	 */
	private static void checkName(String name) {
		boolean valid = !name.isEmpty() && name.length() <= MAX_NAME && !name.startsWith(".") && !name.endsWith(".")
				&& !name.contains("..");
		for (int i = 0; valid && i < name.length(); i++) {
			char c = name.charAt(i);
			valid = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'
					|| c == '.';
		}
		String lower = name.toLowerCase(Locale.ROOT);
		if (!valid || lower.startsWith("aws.") || lower.startsWith("amazon.")) {
			throw invalid("Attribute name '" + name + "' is not valid: 1 to 256 of A-Z a-z 0-9 _ - . , no leading, "
					+ "trailing or doubled period, not starting with AWS. or Amazon.");
		}
	}

	private static InvalidRequestException invalid(String detail) {
		return new InvalidRequestException("Invalid message attributes", detail);
	}

	/**
	 * One attribute: its type ({@code String}, {@code Number} or {@code Binary}, maybe
	 * with a custom suffix after a period) and its value's bytes (UTF-8 text for
	 * {@code String} and {@code Number}, raw for {@code Binary}).
	 */
	public record Attribute(String type, byte[] value) {

		/** SQS's largest number, 10^126. */
		private static final BigDecimal MAX_NUMBER = BigDecimal.TEN.pow(126);

		/** SQS's smallest number, -10^128. */
		private static final BigDecimal MIN_NUMBER = BigDecimal.TEN.pow(128).negate();

		/**
		 * An attribute from its type and its value as text: a string, a number, or for
		 * {@code Binary} base64.
		 * @throws InvalidRequestException for an unknown type, an empty value, a number
		 * SQS would refuse, or binary that is not base64
		 */
		public static Attribute parse(String type, String value) {
			String base = (type == null) ? "" : type.split("\\.", 2)[0];
			if (!base.equals("String") && !base.equals("Number") && !base.equals("Binary") || type.length() > MAX_NAME
					|| type.endsWith(".")) {
				throw invalid("An attribute's type is String, Number or Binary, optionally followed by a period and "
						+ "a custom name (at most 256 characters); it was '" + type + "'.");
			}
			if (value == null || value.isEmpty()) {
				throw invalid("An attribute's value must not be empty.");
			}
			if (base.equals("Binary")) {
				try {
					return new Attribute(type, Base64.getDecoder().decode(value));
				}
				catch (IllegalArgumentException ex) {
					throw invalid("A Binary attribute's value is base64.");
				}
			}
			if (base.equals("Number")) {
				checkNumber(value);
			}
			return new Attribute(type, utf8(value));
		}

		public boolean isBinary() {
			return this.type.startsWith("Binary");
		}

		/** The value as text: the string or number, or base64 for binary. */
		public String text() {
			return isBinary() ? Base64.getEncoder().encodeToString(this.value)
					: new String(this.value, StandardCharsets.UTF_8);
		}

		/** SQS's numbers: up to 38 digits, from -10^128 to 10^126. */
		private static void checkNumber(String value) {
			BigDecimal number;
			try {
				number = new BigDecimal(value);
			}
			catch (NumberFormatException ex) {
				throw invalid("A Number attribute's value must be a number; it was '" + value + "'.");
			}
			if (number.precision() > 38 || number.compareTo(MAX_NUMBER) > 0 || number.compareTo(MIN_NUMBER) < 0) {
				throw invalid("A Number attribute has at most 38 digits and lies between -10^128 and 10^126.");
			}
		}

		@Override
		public boolean equals(Object other) {
			return other instanceof Attribute that && this.type.equals(that.type)
					&& Arrays.equals(this.value, that.value);
		}

		@Override
		public int hashCode() {
			return 31 * this.type.hashCode() + Arrays.hashCode(this.value);
		}

		@Override
		public String toString() {
			return this.type + ":" + text();
		}

	}

}
