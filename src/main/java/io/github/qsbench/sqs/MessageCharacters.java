package io.github.qsbench.sqs;

/**
 * SQS's character set for what a message carries as text, its body and its {@code String}
 * attribute values (and the {@code AWSTraceHeader}): XML 1.0's characters,
 * {@code #x9 | #xA | #xD | #x20-#xD7FF | #xE000-#xFFFD | #x10000-#x10FFFF}. A send with
 * any other (a control character, U+FFFE, U+FFFF, half of a surrogate pair) is refused
 * {@code InvalidMessageContents}, as SQS refuses it (in a batch, that entry alone). The
 * rule is SQS's, so its face checks it; the REST API carries any text. One pass over the
 * text's chars, allocating nothing unless it refuses.
 */
final class MessageCharacters {

	private MessageCharacters() {
	}

	/**
	 * Refuses {@code text} if it holds a character SQS does not allow.
	 * @param what what the text is, for the error's message ("The message body")
	 * @throws SqsException {@code InvalidMessageContents} if it does
	 */
	static void check(String text, String what) {
		int at = firstRefused(text);
		if (at >= 0) {
			throw SqsError.INVALID_MESSAGE_CONTENTS.exception(
					what + " holds the character U+" + String.format("%04X", (int) text.charAt(at)) + " at index " + at
							+ ", which SQS does not allow: only #x9 | #xA | #xD | #x20 to #xD7FF | #xE000 to #xFFFD | "
							+ "#x10000 to #x10FFFF (https://www.w3.org/TR/REC-xml/#charsets).");
		}
	}

	/** The index of the first char SQS does not allow, -1 for none. */
	static int firstRefused(String text) {
		int length = text.length();
		for (int i = 0; i < length; i++) {
			char c = text.charAt(i);
			if (c >= 0x20 && c < 0xD800) {
				continue;
			}
			if (c < 0x20) {
				if (c != '\t' && c != '\n' && c != '\r') {
					return i;
				}
			}
			else if (Character.isHighSurrogate(c)) {
				if (i + 1 == length || !Character.isLowSurrogate(text.charAt(i + 1))) {
					return i;
				}
				i++; // a pair: U+10000 to U+10FFFF, all allowed
			}
			else if (Character.isLowSurrogate(c) || c >= 0xFFFE) {
				return i;
			}
		}
		return -1;
	}

}
