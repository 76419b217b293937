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

	private RequestValidation() {
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
			throw ApiProblem.badRequest("Empty message", "A message body must not be empty.");
		}
		try {
			return charset.newDecoder()
				.onMalformedInput(CodingErrorAction.REPORT)
				.onUnmappableCharacter(CodingErrorAction.REPORT)
				.decode(ByteBuffer.wrap(bytes))
				.toString();
		}
		catch (CharacterCodingException ex) {
			throw ApiProblem.badRequest("Invalid message body",
					"A message body must be valid text in its declared charset (" + charset.name() + ").");
		}
	}

	private static ApiProblem tooLarge(int maxBytes) {
		return ApiProblem.tooLarge("A message body may be at most " + maxBytes + " bytes.");
	}

}
