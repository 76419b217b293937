package io.github.qsbench.sqs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.json.JsonMapper;

/**
 * The SQS face's pieces without a server: queue URLs, receipt handles, MD5s as SQS
 * computes them, typed members, settings.
 */
class SqsUnitTests {

	private final QueueUrls urls = new QueueUrls(new SqsProperties("123456789012", "eu-north-1"));

	@Test
	void queueUrl_readByPath_anyHost() {
		assertThat(this.urls.queue("http://localhost:9324/123456789012/orders")).isEqualTo("orders");
		assertThat(this.urls.queue("https://sqs.example:443/123456789012/a_b-C")).isEqualTo("a_b-C");
		assertThat(this.urls.arn("orders")).isEqualTo("arn:aws:sqs:eu-north-1:123456789012:orders");
	}

	@ParameterizedTest
	@ValueSource(strings = { "orders", "http://localhost", "http://localhost/", "http://localhost/123456789012",
			"http://localhost/123456789012/", "http://localhost/000000000000/orders",
			"http://localhost/1234567890123/q" })
	void queueUrl_notOfThisAccount_invalidAddress(String url) {
		assertThatExceptionOfType(SqsException.class).isThrownBy(() -> this.urls.queue(url))
			.satisfies(ex -> assertThat(ex.error()).isEqualTo(SqsError.INVALID_ADDRESS));
	}

	@ParameterizedTest
	@ValueSource(strings = { "http://localhost/123456789012/a.b", "http://localhost/123456789012/a.fifo.fifo",
			"http://localhost/123456789012/a/b", "http://localhost/123456789012/a?x=1" })
	void queueUrl_noValidName_queueDoesNotExist(String url) {
		assertThatExceptionOfType(SqsException.class).isThrownBy(() -> this.urls.queue(url))
			.satisfies(ex -> assertThat(ex.error()).isEqualTo(SqsError.QUEUE_DOES_NOT_EXIST));
	}

	@Test
	void messageCharacters_xmlCharsOnly_everyCodePointOnItsBound() {
		for (int c = 0; c <= 0x10FFFF; c++) {
			boolean allowed = c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF)
					|| (c >= 0xE000 && c <= 0xFFFD) || c >= 0x10000;
			String text = "a" + new String(Character.toChars(c)) + "b";
			assertThat(MessageCharacters.firstRefused(text)).as("U+%04X", c).isEqualTo(allowed ? -1 : 1);
		}
		assertThat(MessageCharacters.firstRefused("")).isEqualTo(-1);
		assertThat(MessageCharacters.firstRefused("ab\uD800")).as("a high surrogate last").isEqualTo(2);
		assertThat(MessageCharacters.firstRefused("\uDC00\uD800")).as("a pair the wrong way round").isEqualTo(0);
		assertThat(MessageCharacters.firstRefused("\uD800\uD800\uDC00")).as("a high one, then a pair").isEqualTo(0);
		assertThatExceptionOfType(SqsException.class).isThrownBy(() -> MessageCharacters.check("a\u0000", "The body"))
			.satisfies(ex -> assertThat(ex.error()).isEqualTo(SqsError.INVALID_MESSAGE_CONTENTS))
			.withMessageContaining("U+0000 at index 1");
	}

	@Test
	void receiptHandle_theLeaseToken_namesItsMessage() {
		assertThat(LeaseReceiptHandles.id("42.3")).isEqualTo(42);
		assertThat(LeaseReceiptHandles.id("9223372036854775807.999999999")).isEqualTo(Long.MAX_VALUE);
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "42", "42.", ".3", "0.1", "1.0", "01.1", "1.01", "-1.1", "1.1.1",
			"9223372036854775808.1", "1.1234567890", "a.b", " 1.1" })
	void receiptHandle_malformed_receiptHandleIsInvalid(String handle) {
		assertThatExceptionOfType(SqsException.class).isThrownBy(() -> LeaseReceiptHandles.id(handle))
			.satisfies(ex -> assertThat(ex.error()).isEqualTo(SqsError.RECEIPT_HANDLE_IS_INVALID));
	}

	@Test
	void md5_lowerCaseHexOfTheUtf8Bytes() {
		assertThat(Md5.hex(new byte[0])).isEqualTo("d41d8cd98f00b204e9800998ecf8427e");
		assertThat(Md5.hex("The quick brown fox jumps over the lazy dog".getBytes(StandardCharsets.UTF_8)))
			.isEqualTo("9e107d9d372bb6826bd81d3542a419d6");
	}

	@Test
	void members_typedOrInvalidParameterValue() {
		SqsRequest request = request(
				"{\"S\":\"x\",\"N\":5,\"F\":5.5,\"L\":[\"a\"],\"M\":{\"k\":\"v\"},\"E\":[],\"Z\":null}");

		assertThat(request.string("S")).isEqualTo("x");
		assertThat(request.string("Z")).isNull();
		assertThat(request.integer("N", 1, 10)).isEqualTo(5);
		assertThat(request.integer("absent", 1, 10)).isNull();
		assertThat(request.strings("L")).containsExactly("a");
		assertThat(request.stringMap("M")).containsEntry("k", "v");
		assertThat(request.present("E")).isFalse();
		assertThat(request.present("M")).isTrue();
		assertInvalid(() -> request.string("N"));
		assertInvalid(() -> request.integer("F", 1, 10));
		assertInvalid(() -> request.integer("N", 6, 10));
		assertInvalid(() -> request.strings("S"));
		assertInvalid(() -> request.stringMap("L"));
		assertInvalid(() -> request.entries("L"));
		assertThatExceptionOfType(SqsException.class).isThrownBy(() -> request.required("absent"))
			.satisfies(ex -> assertThat(ex.error()).isEqualTo(SqsError.MISSING_PARAMETER));
	}

	@Test
	void properties_accountAndRegionChecked() {
		assertThatIllegalArgumentException().isThrownBy(() -> new SqsProperties("12345", "us-east-1"));
		assertThatIllegalArgumentException().isThrownBy(() -> new SqsProperties("000000000000", "us east"));
	}

	@Test
	void errors_legacyCodeAndFault() {
		assertThat(SqsError.QUEUE_DOES_NOT_EXIST.queryError())
			.isEqualTo("AWS.SimpleQueueService.NonExistentQueue;Sender");
		assertThat(SqsError.INTERNAL_ERROR.queryError()).isEqualTo("InternalError;Receiver");
		assertThat(SqsError.INTERNAL_ERROR.status()).isEqualTo(500);
	}

	private static SqsRequest request(String json) {
		return new SqsRequest(JsonMapper.builder().build().readTree(json));
	}

	private static void assertInvalid(Runnable read) {
		assertThatExceptionOfType(SqsException.class).isThrownBy(read::run)
			.satisfies(ex -> assertThat(ex.error()).isEqualTo(SqsError.INVALID_PARAMETER_VALUE));
	}

}
