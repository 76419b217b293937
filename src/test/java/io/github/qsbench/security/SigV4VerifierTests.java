package io.github.qsbench.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

import io.github.qsbench.security.AuthenticationException.Failure;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

import org.assertj.core.api.ThrowableAssertAlternative;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link SigV4Verifier} against the AWS SDK for Java v2's own signer, signing requests as
 * the SQS clients send them (AWS JSON 1.0, and the query protocol as a form body and as a
 * GET), in the {@code Authorization} header and presigned; and against requests and
 * signatures of AWS's published SigV4 test suite.
 */
class SigV4VerifierTests {

	private static final String KEY_ID = "AKIAQSBENCHTEST00001";

	private static final String SECRET = "qsbench/Secret+Key/ForTheSigV4VerifierTests00";

	private static final String ACCOUNT = "000000000000";

	private static final String REGION = "us-east-1";

	private static final Instant NOW = Instant.parse("2024-05-01T10:00:00Z");

	private static final String JSON_BODY = "{\"QueueUrl\":\"http://localhost:9324/000000000000/q\",\"MessageBody\":\"hello  world\"}";

	private static final String FORM_BODY = "Action=SendMessage&QueueUrl=http%3A%2F%2Flocalhost%3A9324%2F000000000000%2Fq"
			+ "&MessageBody=hello%20world&Version=2012-11-05";

	private final SigV4Verifier verifier = new SigV4Verifier(List.of(new AccessKey(KEY_ID, SECRET, ACCOUNT)), REGION,
			"sqs", Clock.fixed(NOW, ZoneOffset.UTC));

	@Test
	void jsonProtocolSignedInTheHeader_verifiesAsItsKeysAccount() {
		assertThat(this.verifier.verify(headerSigned(jsonSendMessage()))).isEqualTo(new Caller(KEY_ID, ACCOUNT));
	}

	@Test
	void queryProtocolFormBodySignedInTheHeader_verifies() {
		assertThat(this.verifier.verify(headerSigned(formSendMessage()))).isEqualTo(new Caller(KEY_ID, ACCOUNT));
	}

	@Test
	void queryProtocolGetToAQueuePath_verifies() {
		assertThat(this.verifier.verify(headerSigned(getSendMessage("hello world+/*~é"))))
			.isEqualTo(new Caller(KEY_ID, ACCOUNT));
	}

	@Test
	void pathWithAnEscape_isEncodedAgainAsTheSdkDoes() {
		SdkHttpFullRequest request = getSendMessage("x").toBuilder().encodedPath("/000000000000/my%20queue").build();
		assertThat(this.verifier.verify(headerSigned(request))).isEqualTo(new Caller(KEY_ID, ACCOUNT));
	}

	@Test
	void presignedGet_verifies() {
		assertThat(this.verifier.verify(presigned(getSendMessage("hello world"), Duration.ofMinutes(5))))
			.isEqualTo(new Caller(KEY_ID, ACCOUNT));
	}

	@Test
	void presignedJsonPost_signsTheBodysHash_andVerifies() {
		assertThat(this.verifier.verify(presigned(jsonSendMessage(), Duration.ofMinutes(5))))
			.isEqualTo(new Caller(KEY_ID, ACCOUNT));
	}

	@Test
	void signedInTheQueryWithoutExpires_verifiesWithinFifteenMinutes() {
		assertThat(
				this.verifier.verify(sign(getSendMessage("x"), NOW.minus(Duration.ofMinutes(14)), SECRET, REGION,
						(sign) -> sign.putProperty(AwsV4FamilyHttpSigner.AUTH_LOCATION,
								AwsV4FamilyHttpSigner.AuthLocation.QUERY_STRING))))
			.isEqualTo(new Caller(KEY_ID, ACCOUNT));
	}

	@Test
	void unsignedPayloadDeclaredInASignedHeader_verifies() {
		SignedRequest request = sign(jsonSendMessage().toBuilder().protocol("https").build(), NOW, SECRET, REGION,
				(sign) -> sign.putProperty(AwsV4FamilyHttpSigner.PAYLOAD_SIGNING_ENABLED, false));
		assertThat(request.headers().get("x-amz-content-sha256")).containsExactly("UNSIGNED-PAYLOAD");
		assertThat(this.verifier.verify(request)).isEqualTo(new Caller(KEY_ID, ACCOUNT));
	}

	@Test
	void wrongSecret_doesNotMatch() {
		assertFailure(sign(jsonSendMessage(), NOW, "not-the-secret", REGION, (sign) -> {
		}), Failure.SIGNATURE_DOES_NOT_MATCH).withMessage(
				"The request signature we calculated does not match the signature you provided. Check your AWS Secret "
						+ "Access Key and signing method. Consult the service documentation for details.");
	}

	@Test
	void unknownKey_isAnInvalidClientToken() {
		SigV4Verifier other = new SigV4Verifier(List.of(new AccessKey("AKIAOTHER", SECRET, ACCOUNT)), REGION, "sqs",
				Clock.fixed(NOW, ZoneOffset.UTC));
		assertThatExceptionOfType(AuthenticationException.class)
			.isThrownBy(() -> other.verify(headerSigned(jsonSendMessage())))
			.satisfies((ex) -> assertThat(ex.failure()).isEqualTo(Failure.INVALID_CLIENT_TOKEN_ID))
			.withMessage("The security token included in the request is invalid.");
	}

	@Test
	void tamperedBody_doesNotMatch() {
		SignedRequest signed = headerSigned(jsonSendMessage());
		byte[] tampered = JSON_BODY.replace("hello", "HELLO").getBytes(StandardCharsets.UTF_8);
		assertFailure(
				new SignedRequest(signed.method(), signed.rawPath(), signed.rawQuery(), signed.headers(), tampered),
				Failure.SIGNATURE_DOES_NOT_MATCH);
	}

	@Test
	void tamperedSignedHeader_doesNotMatch() {
		SignedRequest signed = headerSigned(jsonSendMessage());
		assertFailure(withHeader(signed, "x-amz-target", "AmazonSQS.DeleteQueue"), Failure.SIGNATURE_DOES_NOT_MATCH);
	}

	@Test
	void tamperedQueryParameter_doesNotMatch() {
		SignedRequest signed = headerSigned(getSendMessage("hello world"));
		assertFailure(withQuery(signed, signed.rawQuery().replace("hello", "HELLO")), Failure.SIGNATURE_DOES_NOT_MATCH);
	}

	@Test
	void tamperedPresignedQueryParameter_doesNotMatch() {
		SignedRequest signed = presigned(getSendMessage("hello world"), Duration.ofMinutes(5));
		assertFailure(withQuery(signed, signed.rawQuery().replace("hello", "HELLO")), Failure.SIGNATURE_DOES_NOT_MATCH);
	}

	@Test
	void sixteenMinutesOld_hasExpired() {
		assertFailure(sign(jsonSendMessage(), NOW.minus(Duration.ofMinutes(16)), SECRET, REGION, (sign) -> {
		}), Failure.REQUEST_EXPIRED).withMessage(
				"Signature expired: 20240501T094400Z is now earlier than 20240501T094500Z (20240501T100000Z - 15 min.)");
	}

	@Test
	void sixteenMinutesAhead_isRefused() {
		assertFailure(sign(jsonSendMessage(), NOW.plus(Duration.ofMinutes(16)), SECRET, REGION, (sign) -> {
		}), Failure.REQUEST_EXPIRED).withMessage(
				"Signature not yet current: 20240501T101600Z is still later than 20240501T101500Z (20240501T100000Z + 15 min.)");
	}

	@Test
	void fourteenMinutesOld_verifies() {
		assertThat(this.verifier
			.verify(sign(jsonSendMessage(), NOW.minus(Duration.ofMinutes(14)), SECRET, REGION, (sign) -> {
			}))).isEqualTo(new Caller(KEY_ID, ACCOUNT));
	}

	@Test
	void presignedPastItsExpiry_hasExpired() {
		SignedRequest request = sign(getSendMessage("x"), NOW.minus(Duration.ofMinutes(6)), SECRET, REGION,
				presign(Duration.ofMinutes(5)));
		assertFailure(request, Failure.REQUEST_EXPIRED).withMessage("Request has expired");
	}

	@Test
	void presignedLongAgoButWithinItsExpiry_verifies() {
		SignedRequest request = sign(getSendMessage("x"), NOW.minus(Duration.ofHours(2)), SECRET, REGION,
				presign(Duration.ofHours(3)));
		assertThat(this.verifier.verify(request)).isEqualTo(new Caller(KEY_ID, ACCOUNT));
	}

	@Test
	void presignedForTheFuture_isRefused() {
		SignedRequest request = sign(getSendMessage("x"), NOW.plus(Duration.ofMinutes(20)), SECRET, REGION,
				presign(Duration.ofHours(1)));
		assertFailure(request, Failure.REQUEST_EXPIRED);
	}

	@Test
	void noSignature_isMissingTheAuthenticationToken() {
		SignedRequest request = new SignedRequest("GET", "/", "Action=ListQueues",
				Map.of("host", List.of("localhost:9324")), new byte[0]);
		assertFailure(request, Failure.MISSING_AUTHENTICATION_TOKEN)
			.withMessage("Request is missing Authentication Token");
	}

	@Test
	void authorizationWithoutSignature_isIncomplete() {
		SignedRequest signed = headerSigned(jsonSendMessage());
		String authorization = signed.headers().get("authorization").get(0);
		assertFailure(
				withHeader(signed, "authorization", authorization.substring(0, authorization.indexOf(", Signature="))),
				Failure.INCOMPLETE_SIGNATURE)
			.withMessage("Authorization header requires 'Signature' parameter.");
	}

	@Test
	void authorizationWithoutDate_isIncomplete() {
		SignedRequest signed = headerSigned(jsonSendMessage());
		Map<String, List<String>> headers = new LinkedHashMap<>(signed.headers());
		headers.remove("x-amz-date");
		assertFailure(new SignedRequest(signed.method(), signed.rawPath(), signed.rawQuery(), headers, signed.body()),
				Failure.INCOMPLETE_SIGNATURE)
			.withMessage("Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header.");
	}

	@Test
	void anotherAlgorithm_isRefused() {
		SignedRequest signed = headerSigned(jsonSendMessage());
		String authorization = signed.headers().get("authorization").get(0);
		assertFailure(withHeader(signed, "authorization", authorization.replace("AWS4-HMAC-SHA256", "AWS4-HMAC-SHA1")),
				Failure.INCOMPLETE_SIGNATURE);
	}

	@Test
	void hostNotSigned_isRefused() {
		SignedRequest signed = headerSigned(jsonSendMessage());
		String authorization = signed.headers().get("authorization").get(0);
		assertFailure(withHeader(signed, "authorization", authorization.replace("host;", "")),
				Failure.INCOMPLETE_SIGNATURE)
			.withMessage("'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization.");
	}

	@Test
	void anotherRegionInTheScope_doesNotMatch() {
		assertFailure(sign(jsonSendMessage(), NOW, SECRET, "eu-west-1", (sign) -> {
		}), Failure.SIGNATURE_DOES_NOT_MATCH)
			.withMessage("Credential should be scoped to a valid region, not 'eu-west-1'.");
	}

	@Test
	void anotherServiceInTheScope_doesNotMatch() {
		SigV4Verifier forS3 = new SigV4Verifier(List.of(new AccessKey(KEY_ID, SECRET, ACCOUNT)), REGION, "s3",
				Clock.fixed(NOW, ZoneOffset.UTC));
		assertThatExceptionOfType(AuthenticationException.class)
			.isThrownBy(() -> forS3.verify(headerSigned(jsonSendMessage())))
			.satisfies((ex) -> assertThat(ex.failure()).isEqualTo(Failure.SIGNATURE_DOES_NOT_MATCH))
			.withMessage("Credential should be scoped to correct service: 's3'.");
	}

	@Test
	void noMessageHoldsTheSecret() {
		List<SignedRequest> refused = new ArrayList<>();
		SignedRequest signed = headerSigned(jsonSendMessage());
		refused.add(withHeader(signed, "x-amz-target", "AmazonSQS.DeleteQueue"));
		refused.add(withHeader(signed, "x-amz-content-sha256", "0".repeat(64)));
		refused.add(sign(jsonSendMessage(), NOW.minus(Duration.ofHours(1)), SECRET, REGION, (sign) -> {
		}));
		refused.add(sign(jsonSendMessage(), NOW, SECRET, "eu-west-1", (sign) -> {
		}));
		refused.add(withHeader(signed, "authorization",
				"AWS4-HMAC-SHA256 Credential=" + KEY_ID + "/" + SECRET + ", SignedHeaders=host, Signature=00"));
		refused.add(sign(getSendMessage("x"), NOW.minus(Duration.ofMinutes(6)), SECRET, REGION,
				presign(Duration.ofMinutes(5))));
		for (SignedRequest request : refused) {
			assertThatExceptionOfType(AuthenticationException.class).isThrownBy(() -> this.verifier.verify(request))
				.satisfies((ex) -> assertThat(ex.getMessage()).doesNotContain(SECRET)
					.doesNotContain(SECRET.substring(0, 12))
					.doesNotContain("AWS4-HMAC-SHA256\n"));
		}
	}

	/**
	 * Requests and signatures from AWS's SigV4 test suite (as botocore carries it, in
	 * tests/unit/auth/aws4_testsuite): key AKIDEXAMPLE, region us-east-1, service
	 * "service", signed at 20150830T123600Z. Paths and queries are given as a client
	 * sends them, percent-encoded.
	 */
	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|',
			textBlock = """
					get-vanilla | GET | / | | | 5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31
					get-vanilla-query-order-key-case | GET | / | Param2=value2&Param1=value1 | | b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500
					get-vanilla-query-unreserved | GET | / | -._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz=-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz | | 9c3e54bfcdf0b19771a7f523ee5669cdf59bc7cc0884027167c21bb143a40197
					get-vanilla-utf8-query | GET | / | %E1%88%B4=bar | | 2cdec8eed098649ff3a119c94853b13c643bcf08f8b0a1d91e12c9027818dd04
					get-unreserved | GET | /-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz | | | 07ef7494c76fa4850883e2b006601f940f8a34d404d0cfa977f52a65bbf5f24f
					normalize-path/get-slashes | GET | //example// | | | 9a624bd73a37c9a373b5312afbebe7a714a789de108f0bdfe846570885f57e84
					normalize-path/get-relative-relative | GET | /example1/example2/../.. | | | 5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31
					post-x-www-form-urlencoded | POST | / | | Param1=value1 | ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a
					""")
	void awsTestSuite(String name, String method, String path, String query, String body, String signature) {
		Map<String, List<String>> headers = new LinkedHashMap<>();
		headers.put("host", List.of("example.amazonaws.com"));
		headers.put("x-amz-date", List.of("20150830T123600Z"));
		String signedHeaders = "host;x-amz-date";
		if (body != null) {
			headers.put("content-type", List.of("application/x-www-form-urlencoded"));
			signedHeaders = "content-type;" + signedHeaders;
		}
		headers.put("authorization", List
			.of("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders="
					+ signedHeaders + ", Signature=" + signature));
		SignedRequest request = new SignedRequest(method, path, query, headers,
				(body != null) ? body.getBytes(StandardCharsets.UTF_8) : new byte[0]);
		assertThat(exampleVerifier().verify(request)).isEqualTo(new Caller("AKIDEXAMPLE", ACCOUNT));
	}

	/**
	 * AWS's test suite's get-header-value-trim and get-header-value-order: values
	 * trimmed, inner spaces collapsed, several values joined in their order.
	 */
	@Test
	void awsTestSuiteHeaderValues() {
		Map<String, List<String>> trim = new LinkedHashMap<>();
		trim.put("host", List.of("example.amazonaws.com"));
		trim.put("my-header1", List.of(" value1"));
		trim.put("my-header2", List.of(" \"a   b   c\""));
		trim.put("x-amz-date", List.of("20150830T123600Z"));
		trim.put("authorization",
				List.of("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
						+ "SignedHeaders=host;my-header1;my-header2;x-amz-date, "
						+ "Signature=acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736"));
		assertThat(exampleVerifier().verify(new SignedRequest("GET", "/", null, trim, new byte[0])).accessKeyId())
			.isEqualTo("AKIDEXAMPLE");
		Map<String, List<String>> order = new LinkedHashMap<>();
		order.put("host", List.of("example.amazonaws.com"));
		order.put("my-header1", List.of("value4", "value1", "value3", "value2"));
		order.put("x-amz-date", List.of("20150830T123600Z"));
		order.put("authorization",
				List.of("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
						+ "SignedHeaders=host;my-header1;x-amz-date, "
						+ "Signature=08c7e5a9acfcfeb3ab6b2185e75ce8b1deb5e634ec47601a50643f830c755c01"));
		assertThat(exampleVerifier().verify(new SignedRequest("GET", "/", null, order, new byte[0])).accessKeyId())
			.isEqualTo("AKIDEXAMPLE");
	}

	/**
	 * AWS's post-x-www-form-urlencoded with its body changed: no
	 * {@code x-amz-content-sha256} header, so only the signature catches it.
	 */
	@Test
	void awsTestSuiteTamperedBody_doesNotMatch() {
		Map<String, List<String>> headers = new LinkedHashMap<>();
		headers.put("content-type", List.of("application/x-www-form-urlencoded"));
		headers.put("host", List.of("example.amazonaws.com"));
		headers.put("x-amz-date", List.of("20150830T123600Z"));
		headers.put("authorization",
				List.of("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
						+ "SignedHeaders=content-type;host;x-amz-date, "
						+ "Signature=ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a"));
		SignedRequest request = new SignedRequest("POST", "/", null, headers,
				"Param1=value2".getBytes(StandardCharsets.UTF_8));
		assertThatExceptionOfType(AuthenticationException.class).isThrownBy(() -> exampleVerifier().verify(request))
			.satisfies((ex) -> assertThat(ex.failure()).isEqualTo(Failure.SIGNATURE_DOES_NOT_MATCH));
	}

	private static SigV4Verifier exampleVerifier() {
		return new SigV4Verifier(
				List.of(new AccessKey("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", ACCOUNT)), "us-east-1",
				"service", Clock.fixed(Instant.parse("2015-08-30T12:40:00Z"), ZoneOffset.UTC));
	}

	private ThrowableAssertAlternative<AuthenticationException> assertFailure(SignedRequest request, Failure failure) {
		return assertThatExceptionOfType(AuthenticationException.class).isThrownBy(() -> this.verifier.verify(request))
			.satisfies((ex) -> assertThat(ex.failure()).isEqualTo(failure));
	}

	private static SdkHttpFullRequest jsonSendMessage() {
		byte[] body = JSON_BODY.getBytes(StandardCharsets.UTF_8);
		return SdkHttpFullRequest.builder()
			.method(SdkHttpMethod.POST)
			.uri(URI.create("http://localhost:9324/"))
			.putHeader("Host", "localhost:9324")
			.putHeader("Content-Type", "application/x-amz-json-1.0")
			.putHeader("X-Amz-Target", "AmazonSQS.SendMessage")
			.putHeader("Content-Length", Integer.toString(body.length))
			.contentStreamProvider(() -> new ByteArrayInputStream(body))
			.build();
	}

	private static SdkHttpFullRequest formSendMessage() {
		byte[] body = FORM_BODY.getBytes(StandardCharsets.UTF_8);
		return SdkHttpFullRequest.builder()
			.method(SdkHttpMethod.POST)
			.uri(URI.create("http://localhost:9324/"))
			.putHeader("Host", "localhost:9324")
			.putHeader("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
			.putHeader("Content-Length", Integer.toString(body.length))
			.contentStreamProvider(() -> new ByteArrayInputStream(body))
			.build();
	}

	private static SdkHttpFullRequest getSendMessage(String messageBody) {
		return SdkHttpFullRequest.builder()
			.method(SdkHttpMethod.GET)
			.uri(URI.create("http://localhost:9324/000000000000/q"))
			.putHeader("Host", "localhost:9324")
			.putRawQueryParameter("Action", "SendMessage")
			.putRawQueryParameter("MessageBody", messageBody)
			.putRawQueryParameter("Version", "2012-11-05")
			.build();
	}

	private static SignedRequest headerSigned(SdkHttpFullRequest request) {
		return sign(request, NOW, SECRET, REGION, (sign) -> {
		});
	}

	private static SignedRequest presigned(SdkHttpFullRequest request, Duration expiration) {
		return sign(request, NOW, SECRET, REGION, presign(expiration));
	}

	private static Consumer<SignRequest.Builder<AwsCredentialsIdentity>> presign(Duration expiration) {
		return (sign) -> sign
			.putProperty(AwsV4FamilyHttpSigner.AUTH_LOCATION, AwsV4FamilyHttpSigner.AuthLocation.QUERY_STRING)
			.putProperty(AwsV4FamilyHttpSigner.EXPIRATION_DURATION, expiration);
	}

	/**
	 * Sign with the SDK's signer at the given instant, and hand the verifier the request
	 * as a server would receive it.
	 */
	private static SignedRequest sign(SdkHttpFullRequest request, Instant at, String secret, String region,
			Consumer<SignRequest.Builder<AwsCredentialsIdentity>> properties) {
		software.amazon.awssdk.http.auth.spi.signer.SignedRequest signed = AwsV4HttpSigner.create().sign((sign) -> {
			sign.identity(AwsCredentialsIdentity.create(KEY_ID, secret))
				.request(request)
				.payload(request.contentStreamProvider().orElse(null))
				.putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "sqs")
				.putProperty(AwsV4HttpSigner.REGION_NAME, region)
				.putProperty(AwsV4HttpSigner.SIGNING_CLOCK, Clock.fixed(at, ZoneOffset.UTC));
			properties.accept(sign);
		});
		SdkHttpRequest sent = signed.request();
		Map<String, List<String>> headers = new LinkedHashMap<>();
		sent.forEachHeader((name, values) -> headers.put(name.toLowerCase(Locale.ROOT), values));
		URI uri = sent.getUri();
		byte[] body = request.contentStreamProvider()
			.map((provider) -> readAll(provider.newStream()))
			.orElse(new byte[0]);
		return new SignedRequest(sent.method().name(), uri.getRawPath().isEmpty() ? "/" : uri.getRawPath(),
				uri.getRawQuery(), headers, body);
	}

	private static byte[] readAll(java.io.InputStream in) {
		try (in) {
			return in.readAllBytes();
		}
		catch (java.io.IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
	}

	private static SignedRequest withHeader(SignedRequest request, String name, String value) {
		Map<String, List<String>> headers = new LinkedHashMap<>(request.headers());
		headers.put(name, List.of(value));
		return new SignedRequest(request.method(), request.rawPath(), request.rawQuery(), headers, request.body());
	}

	private static SignedRequest withQuery(SignedRequest request, String rawQuery) {
		return new SignedRequest(request.method(), request.rawPath(), rawQuery, request.headers(), request.body());
	}

}
