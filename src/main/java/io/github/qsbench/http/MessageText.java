package io.github.qsbench.http;

import java.nio.charset.StandardCharsets;

/**
 * A message body sent as text, as both faces carry it in JSON (a REST push in JSON form
 * or batch entry, SQS's {@code MessageBody}), checked once for both: not empty, at most
 * the message cap in UTF-8, and text at all, since a {@code \\u} escape can name half a
 * surrogate pair, which no charset encodes. A refusal names the rule the body broke; each
 * face answers it in its own protocol. A loop over characters, not an encoder: it runs on
 * every push.
 */
public final class MessageText {

	private MessageText() {
	}

	/**
	 * The body as UTF-8.
	 * @throws Refused if it is empty, over {@code maxBytes} in UTF-8, or not text
	 */
	public static byte[] utf8(String text, int maxBytes) {
		if (text.isEmpty()) {
			throw new Refused(Reason.EMPTY);
		}
		if (text.length() > maxBytes) { // at least one byte a character
			throw new Refused(Reason.TOO_LARGE);
		}
		long bytes = 0;
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c < 0x80) {
				bytes += 1;
			}
			else if (c < 0x800) {
				bytes += 2;
			}
			else if (!Character.isSurrogate(c)) {
				bytes += 3;
			}
			else if (Character.isHighSurrogate(c) && i + 1 < text.length()
					&& Character.isLowSurrogate(text.charAt(i + 1))) {
				bytes += 4;
				i++;
			}
			else {
				throw new Refused(Reason.NOT_TEXT);
			}
		}
		if (bytes > maxBytes) {
			throw new Refused(Reason.TOO_LARGE);
		}
		return text.getBytes(StandardCharsets.UTF_8);
	}

	/** The rule a refused body broke. */
	public enum Reason {

		/** No character at all. */
		EMPTY,

		/** More bytes in UTF-8 than the message cap. */
		TOO_LARGE,

		/** Half of a UTF-16 surrogate pair. */
		NOT_TEXT

	}

	/** A body {@link #utf8} refuses, and why. */
	public static final class Refused extends RuntimeException {

		private final Reason reason;

		Refused(Reason reason) {
			super(reason.name(), null, false, false);
			this.reason = reason;
		}

		public Reason reason() {
			return this.reason;
		}

	}

}
