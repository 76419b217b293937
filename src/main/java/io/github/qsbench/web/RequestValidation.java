package io.github.qsbench.web;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

import org.springframework.http.MediaType;

/** Checks of what a client sends: queue names, message ids and message bodies. */
final class RequestValidation {

	static final String QUEUE_NAME_REGEX = "[A-Za-z0-9_-]{1,80}";

	private static final Pattern QUEUE_NAME = Pattern.compile(QUEUE_NAME_REGEX);

	/**
	 * Positive decimal without sign or leading zero, at most 19 digits (the range of a
	 * long).
	 */
	private static final Pattern MESSAGE_ID = Pattern.compile("[1-9][0-9]{0,18}");

	/** A small whole number as a query parameter carries it: no sign, no leading zero. */
	private static final Pattern NUMBER = Pattern.compile("0|[1-9][0-9]{0,8}");

	private RequestValidation() {
	}

	/**
	 * A query parameter that is a whole number from {@code min} to {@code max}.
	 * @throws ApiProblem 400 naming the parameter otherwise
	 */
	static int number(String name, String value, int min, int max) {
		if (NUMBER.matcher(value).matches()) {
			int number = Integer.parseInt(value);
			if (number >= min && number <= max) {
				return number;
			}
		}
		throw ApiProblem.badRequest("Invalid parameter",
				"'" + name + "' must be a whole number from " + min + " to " + max + ".");
	}

	static String queueName(String name) {
		if (!QUEUE_NAME.matcher(name).matches()) {
			throw ApiProblem.badRequest("Invalid queue name",
					"A queue name is 1 to 80 characters of A-Z, a-z, 0-9, '_' and '-'.");
		}
		return name;
	}

	static long messageId(String id) {
		if (MESSAGE_ID.matcher(id).matches()) {
			try {
				return Long.parseLong(id);
			}
			catch (NumberFormatException overflow) {
				// 19 digits above Long.MAX_VALUE: fall through to the same answer as any
				// bad id
			}
		}
		throw ApiProblem.badRequest("Invalid message id",
				"A message id is a positive whole number as returned by a push, at most " + Long.MAX_VALUE + ".");
	}

	/**
	 * The charset a {@code Content-Type} declares, UTF-8 if it declares none.
	 * @throws ApiProblem 415 for a malformed content type or a charset this JVM does not
	 * know
	 */
	static Charset charset(String contentType) {
		if (contentType == null || contentType.isBlank()) {
			return StandardCharsets.UTF_8;
		}
		try {
			Charset declared = MediaType.parseMediaType(contentType).getCharset();
			return (declared != null) ? declared : StandardCharsets.UTF_8;
		}
		catch (IllegalArgumentException ex) { // InvalidMediaTypeException, or an unknown
												// charset
			throw ApiProblem.unsupportedMediaType("The Content-Type is malformed or names an unknown charset; "
					+ "send text, UTF-8 unless a charset is declared.");
		}
	}

	/**
	 * Reads at most {@code maxBytes} and decodes them in {@code charset}, refusing an
	 * empty body, a longer one (without reading past the limit) and bytes that are not
	 * valid in that charset.
	 */
	static String body(InputStream in, long declaredLength, int maxBytes, Charset charset) throws IOException {
		if (declaredLength > maxBytes) {
			throw tooLarge(maxBytes);
		}
		byte[] bytes = in.readNBytes(maxBytes + 1);
		if (bytes.length > maxBytes) {
			throw tooLarge(maxBytes);
		}
		if (bytes.length == 0) {
			throw empty();
		}
		try {
			return charset.newDecoder()
				.onMalformedInput(CodingErrorAction.REPORT)
				.onUnmappableCharacter(CodingErrorAction.REPORT)
				.decode(ByteBuffer.wrap(bytes))
				.toString();
		}
		catch (CharacterCodingException ex) {
			throw invalidText(charset);
		}
	}

	/**
	 * Checks a body that arrived as a JSON string: not empty, at most {@code maxBytes} in
	 * UTF-8 (what it takes sent alone as UTF-8 text), and text at all: a {@code \\u}
	 * escape can name half a surrogate pair, which no charset can encode.
	 */
	static void text(String body, int maxBytes) {
		if (body.isEmpty()) {
			throw empty();
		}
		if (body.length() > maxBytes) { // at least one byte a character
			throw tooLarge(maxBytes);
		}
		long bytes = 0;
		for (int i = 0; i < body.length(); i++) {
			char c = body.charAt(i);
			if (c < 0x80) {
				bytes += 1;
			}
			else if (c < 0x800) {
				bytes += 2;
			}
			else if (!Character.isSurrogate(c)) {
				bytes += 3;
			}
			else if (Character.isHighSurrogate(c) && i + 1 < body.length()
					&& Character.isLowSurrogate(body.charAt(i + 1))) {
				bytes += 4;
				i++;
			}
			else {
				throw invalidText(StandardCharsets.UTF_8);
			}
		}
		if (bytes > maxBytes) {
			throw tooLarge(maxBytes);
		}
	}

	private static ApiProblem empty() {
		return ApiProblem.badRequest("Empty message", "A message body must not be empty.");
	}

	private static ApiProblem invalidText(Charset charset) {
		return ApiProblem.badRequest("Invalid message body",
				"A message body must be valid text in its declared charset (" + charset.name() + ").");
	}

	private static ApiProblem tooLarge(int maxBytes) {
		return ApiProblem.tooLarge("A message body may be at most " + maxBytes + " bytes.");
	}

}
