package io.github.qsbench.rest;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The hand-written checks agree with the regular expressions they replaced, on edge cases
 * and on many random strings over the characters that matter.
 */
class RequestValidationTests {

	private static final Pattern MESSAGE_ID = Pattern.compile("[1-9][0-9]{0,18}");

	@Test
	void messageId_agreesWithItsRegexAndTheRangeOfALong() {
		List<String> ids = new ArrayList<>(List.of("", "0", "1", "01", "-1", "+1", "1a", " 1", "9".repeat(19),
				"9".repeat(20), Long.toString(Long.MAX_VALUE), "9223372036854775808", "18446744073709551616",
				"99999999999999999999", "1.0", "1e3"));
		SplittableRandom random = new SplittableRandom(7);
		for (int i = 0; i < 20_000; i++) {
			StringBuilder id = new StringBuilder();
			int length = random.nextInt(22);
			for (int j = 0; j < length; j++) {
				id.append(
						random.nextInt(20) == 0 ? "x-+ ".charAt(random.nextInt(4)) : (char) ('0' + random.nextInt(10)));
			}
			ids.add(id.toString());
		}
		for (String id : ids) {
			assertThat(RequestValidation.parseMessageId(id)).as(id).isEqualTo(expectedId(id));
		}
		assertThat(RequestValidation.messageId("42")).isEqualTo(42);
		assertThatExceptionOfType(ApiProblem.class)
			.isThrownBy(() -> RequestValidation.messageId("9223372036854775808"));
	}

	private static long expectedId(String id) {
		if (!MESSAGE_ID.matcher(id).matches()) {
			return -1;
		}
		try {
			return Long.parseLong(id);
		}
		catch (NumberFormatException overflow) {
			return -1;
		}
	}

	@Test
	void body_readsExactlyTheDeclaredLengthOrUpToTheLimit() throws IOException {
		assertThat(body("hello", 5, 10, StandardCharsets.UTF_8)).isEqualTo("hello");
		assertThat(body("hello", -1, 10, StandardCharsets.UTF_8)).isEqualTo("hello");
		assertThatExceptionOfType(ApiProblem.class).isThrownBy(() -> body("hello", -1, 4, StandardCharsets.UTF_8))
			.satisfies(ex -> assertThat(ex.getStatusCode().value()).isEqualTo(413));
		assertThatExceptionOfType(ApiProblem.class).isThrownBy(() -> body("hello", 11, 10, StandardCharsets.UTF_8))
			.satisfies(ex -> assertThat(ex.getStatusCode().value()).isEqualTo(413));
		assertThatExceptionOfType(ApiProblem.class).isThrownBy(() -> body("", 0, 10, StandardCharsets.UTF_8))
			.satisfies(ex -> assertThat(ex.getStatusCode().value()).isEqualTo(400));
		// a client that sends less than it declared: what arrived
		assertThat(RequestValidation.body(new ByteArrayInputStream("abc".getBytes(StandardCharsets.UTF_8)), 5, 10,
				StandardCharsets.UTF_8))
			.asString(StandardCharsets.UTF_8)
			.isEqualTo("abc");
	}

	@Test
	void body_decodesInItsCharsetAndRefusesInvalidBytes() throws IOException {
		assertThat(body("grüße €", -1, 100, StandardCharsets.UTF_8)).isEqualTo("grüße €");
		assertThat(body("ascii only", -1, 100, StandardCharsets.US_ASCII)).isEqualTo("ascii only");
		assertThat(RequestValidation.body(new ByteArrayInputStream("grüße".getBytes(StandardCharsets.ISO_8859_1)), -1,
				100, StandardCharsets.ISO_8859_1))
			.as("transcoded to UTF-8")
			.asString(StandardCharsets.UTF_8)
			.isEqualTo("grüße");
		Charset utf16 = StandardCharsets.UTF_16BE;
		assertThat(RequestValidation.body(new ByteArrayInputStream("ab".getBytes(utf16)), 4, 100, utf16))
			.asString(StandardCharsets.UTF_8)
			.isEqualTo("ab");
		byte[] invalid = { 'a', (byte) 0xC3, 'b' };
		assertThatExceptionOfType(ApiProblem.class)
			.isThrownBy(() -> RequestValidation.body(new ByteArrayInputStream(invalid), 3, 100, StandardCharsets.UTF_8))
			.satisfies(ex -> assertThat(ex.getStatusCode().value()).isEqualTo(400));
		assertThatExceptionOfType(ApiProblem.class)
			.isThrownBy(() -> RequestValidation.body(new ByteArrayInputStream(new byte[] { (byte) 0xE9 }), 1, 100,
					StandardCharsets.US_ASCII))
			.satisfies(ex -> assertThat(ex.getStatusCode().value()).isEqualTo(400));
	}

	@Test
	void charset_plainTextIsUtf8AndADeclaredOneIsHonoured() {
		assertThat(RequestValidation.charset(null)).isEqualTo(StandardCharsets.UTF_8);
		assertThat(RequestValidation.charset("text/plain")).isEqualTo(StandardCharsets.UTF_8);
		assertThat(RequestValidation.charset("TEXT/PLAIN")).isEqualTo(StandardCharsets.UTF_8);
		assertThat(RequestValidation.charset("text/plain; charset=ISO-8859-1")).isEqualTo(StandardCharsets.ISO_8859_1);
		assertThatExceptionOfType(ApiProblem.class)
			.isThrownBy(() -> RequestValidation.charset("text/plain; charset=nope"))
			.satisfies(ex -> assertThat(ex.getStatusCode().value()).isEqualTo(415));
	}

	/** The body read from {@code text} sent in {@code charset}, decoded from UTF-8. */
	private static String body(String text, long declared, int max, Charset charset) throws IOException {
		return new String(
				RequestValidation.body(new ByteArrayInputStream(text.getBytes(charset)), declared, max, charset),
				StandardCharsets.UTF_8);
	}

}
