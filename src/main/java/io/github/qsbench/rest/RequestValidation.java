package io.github.qsbench.rest;

import io.github.qsbench.http.MessageText;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.regex.Pattern;

import io.github.qsbench.application.InvalidRequestException;
import io.github.qsbench.application.Limits;
import io.github.qsbench.application.OutgoingMessage;
import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;

/**
 * Checks of what a client sends as the REST API carries it: message ids in paths, numbers
 * in queries, message bodies and their charsets (queue names, counts and lease tokens are
 * the application layer's). Ids and bodies, which nearly every request carries, are read
 * by loops over characters rather than regular expressions (a matcher per call costs more
 * than the queue operation it guards); a query's numbers by one small pattern.
 */
final class RequestValidation {

	/** Digits of {@link Long#MAX_VALUE}. */
	private static final int MAX_ID_DIGITS = 19;

	/** A small whole number as a query parameter carries it: no sign, no leading zero. */
	private static final Pattern NUMBER = Pattern.compile("0|[1-9][0-9]{0,8}");

	private RequestValidation() {
	}

	/**
	 * A query parameter that is a whole number from {@code min} to {@code max}.
	 * @throws InvalidRequestException naming the parameter otherwise
	 */
	static int number(String name, String value, int min, int max) {
		if (NUMBER.matcher(value).matches()) {
			int number = Integer.parseInt(value);
			if (number >= min && number <= max) {
				return number;
			}
		}
		throw InvalidRequestException.outOfRange(name, min, max);
	}

	/** A poll's {@code max}: 1 to the largest batch, or {@code null} when absent. */
	static Integer maxMessages(String max) {
		return (max != null) ? number("max", max, 1, Limits.MAX_BATCH) : null;
	}

	/**
	 * A poll's {@code max}, {@code wait} and {@code lease} beside a browse's
	 * {@code peek}: not used (a browse leases nothing and never waits) but checked, so
	 * that a value out of range is a 400 whichever mapping the request reached.
	 */
	static void pollParametersBesideBrowse(Map<String, String> query) {
		maxMessages(query.get("max"));
		leaseSeconds(query.get("lease"));
		if (query.get("wait") != null) {
			waitSeconds(query.get("wait"));
		}
	}

	/** A browse's {@code peek}: 1 to the largest batch. */
	static int peekCount(String peek) {
		return number("peek", peek, 1, Limits.MAX_BATCH);
	}

	/** A poll's {@code lease}: 0 to the longest lease, in seconds; {@code null}: none. */
	static Integer leaseSeconds(String lease) {
		return (lease != null) ? number("lease", lease, 0, Limits.MAX_LEASE_SECONDS) : null;
	}

	/** A push's {@code delay}: 0 to the longest delay, in seconds; {@code null}: none. */
	static Integer delaySeconds(String delay) {
		return (delay != null) ? number("delay", delay, 0, Limits.MAX_DELAY_SECONDS) : null;
	}

	/**
	 * A push's {@code group}: what SQS allows as a {@code MessageGroupId}
	 * ({@link OutgoingMessage#isValidId}); {@code null} when absent.
	 * @throws InvalidRequestException otherwise
	 */
	static String group(String group) {
		if (group != null && !OutgoingMessage.isValidId(group)) {
			throw new InvalidRequestException("Invalid parameter",
					"'group' is 1 to 128 of ASCII's letters, digits and punctuation.");
		}
		return group;
	}

	/** A long poll's {@code wait}: 0 to the longest wait, in seconds. */
	static Duration waitSeconds(String wait) {
		return Duration.ofSeconds(number("wait", wait, 0, Limits.MAX_WAIT_SECONDS));
	}

	static long messageId(String id) {
		long parsed = parseMessageId(id);
		if (parsed < 0) {
			throw ApiProblem.badRequest("Invalid message id",
					"A message id is a positive whole number as returned by a push, at most " + Long.MAX_VALUE + ".");
		}
		return parsed;
	}

	/**
	 * The id a path segment names: a positive decimal without sign or leading zero, in
	 * the range of a long; -1 for anything else.
	 */
	static long parseMessageId(String id) {
		int length = id.length();
		if (length == 0 || length > MAX_ID_DIGITS || id.charAt(0) == '0') {
			return -1;
		}
		long value = 0;
		for (int i = 0; i < length; i++) {
			char c = id.charAt(i);
			if (c < '0' || c > '9') {
				return -1;
			}
			value = value * 10 + (c - '0');
			if (value < 0) { // 19 digits above Long.MAX_VALUE
				return -1;
			}
		}
		return value;
	}

	/**
	 * The charset a {@code Content-Type} declares, UTF-8 if it declares none.
	 * @throws ApiProblem 415 for a malformed content type or a charset this JVM does not
	 * know
	 */
	static Charset charset(String contentType) {
		if (contentType == null || contentType.isBlank() || contentType.equalsIgnoreCase("text/plain")) {
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
	 * A push's body as UTF-8, read within the message cap in the charset its
	 * {@code Content-Type} declares.
	 */
	static byte[] body(HttpServletRequest request, int maxBytes) throws IOException {
		Charset charset = charset(request.getHeader(HttpHeaders.CONTENT_TYPE));
		try (InputStream in = request.getInputStream()) {
			return body(in, request.getContentLengthLong(), maxBytes, charset);
		}
	}

	/**
	 * Reads at most {@code maxBytes}, refusing an empty body, a longer one (without
	 * reading past the limit) and bytes that are not valid in {@code charset}, and
	 * answers the body's text as UTF-8: the bytes read themselves when they already are
	 * (ASCII, or valid UTF-8), else transcoded.
	 */
	static byte[] body(InputStream in, long declaredLength, int maxBytes, Charset charset) throws IOException {
		if (declaredLength > maxBytes) {
			throw tooLarge(maxBytes);
		}
		return checked(read(in, declaredLength, maxBytes), maxBytes, charset);
	}

	/**
	 * A push's body read whole by the caller, checked as
	 * {@link #body(InputStream, long, int, Charset)} checks what it reads, in the charset
	 * {@code contentType} declares.
	 */
	static byte[] body(byte[] bytes, int maxBytes, String contentType) {
		return checked(bytes, maxBytes, charset(contentType));
	}

	private static byte[] checked(byte[] bytes, int maxBytes, Charset charset) {
		if (bytes.length > maxBytes) {
			throw tooLarge(maxBytes);
		}
		if (bytes.length == 0) {
			throw empty();
		}
		if (isAscii(bytes) && (charset == StandardCharsets.UTF_8 || charset == StandardCharsets.US_ASCII
				|| charset == StandardCharsets.ISO_8859_1)) {
			// valid in each of these charsets, the same characters in all, and UTF-8
			return bytes;
		}
		try {
			CharBuffer text = charset.newDecoder()
				.onMalformedInput(CodingErrorAction.REPORT)
				.onUnmappableCharacter(CodingErrorAction.REPORT)
				.decode(ByteBuffer.wrap(bytes));
			return (charset == StandardCharsets.UTF_8) ? bytes : text.toString().getBytes(StandardCharsets.UTF_8);
		}
		catch (CharacterCodingException ex) {
			throw invalidText(charset);
		}
	}

	/**
	 * A body that arrived as a JSON string, as UTF-8 (see {@link MessageText}).
	 * @throws ApiProblem 400 for an empty body or one that is not text, 413 for one over
	 * {@code maxBytes}
	 */
	static byte[] text(String body, int maxBytes) {
		try {
			return MessageText.utf8(body, maxBytes);
		}
		catch (MessageText.Refused ex) {
			throw switch (ex.reason()) {
				case EMPTY -> empty();
				case TOO_LARGE -> tooLarge(maxBytes);
				case NOT_TEXT -> invalidText(StandardCharsets.UTF_8);
			};
		}
	}

	private static ApiProblem empty() {
		return ApiProblem.badRequest("Empty message", "A message body must not be empty.");
	}

	private static ApiProblem invalidText(Charset charset) {
		return ApiProblem.badRequest("Invalid message body",
				"A message body must be valid text in its declared charset (" + charset.name() + ").");
	}

	/**
	 * The body: exactly the declared length when there is one (the container ends the
	 * stream there), else up to one byte over the limit.
	 */
	private static byte[] read(InputStream in, long declaredLength, int maxBytes) throws IOException {
		if (declaredLength < 0) {
			return in.readNBytes(maxBytes + 1);
		}
		byte[] bytes = new byte[(int) declaredLength];
		int read = in.readNBytes(bytes, 0, bytes.length);
		return (read == bytes.length) ? bytes : Arrays.copyOf(bytes, read);
	}

	private static boolean isAscii(byte[] bytes) {
		for (byte b : bytes) {
			if (b < 0) {
				return false;
			}
		}
		return true;
	}

	private static ApiProblem tooLarge(int maxBytes) {
		return ApiProblem.tooLarge("A message body may be at most " + maxBytes + " bytes.");
	}

}
