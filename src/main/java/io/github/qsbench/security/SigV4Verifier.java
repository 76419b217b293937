package io.github.qsbench.security;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import io.github.qsbench.security.AuthenticationException.Failure;
import io.github.qsbench.security.CanonicalRequest.QueryParameter;

/**
 * Verifies AWS Signature Version 4 on a request, signed in an {@code Authorization}
 * header or presigned in its query string, the way AWS verifies a request to a service
 * other than S3: the path is normalised and encoded again, the payload is the body's
 * SHA-256 (or what a signed {@code x-amz-content-sha256} declares), and the request must
 * be signed within 15 minutes of the clock. Thread-safe.
 *
 * @see <a href=
 * "https://docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html">Create a
 * signed AWS API request</a>
 */
public final class SigV4Verifier {

	private static final String ALGORITHM = "AWS4-HMAC-SHA256";

	private static final String TERMINATOR = "aws4_request";

	private static final String UNSIGNED_PAYLOAD = "UNSIGNED-PAYLOAD";

	private static final Duration SKEW = Duration.ofMinutes(15);

	private static final long MAX_EXPIRES_SECONDS = 604800;

	private static final DateTimeFormatter AMZ_DATE = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
		.withZone(ZoneOffset.UTC);

	private static final HexFormat HEX = HexFormat.of();

	private static final String MISMATCH = "The request signature we calculated does not match the signature you provided. "
			+ "Check your AWS Secret Access Key and signing method. Consult the service documentation for details.";

	private final Map<String, AccessKey> keys;

	private final String region;

	private final String service;

	private final Clock clock;

	/**
	 * The last signing key derived for each access key id: a key lasts a day, so this
	 * saves four HMACs a request and holds at most one entry a key.
	 */
	private final ConcurrentMap<String, SigningKey> signingKeys = new ConcurrentHashMap<>();

	public SigV4Verifier(Collection<AccessKey> keys, String region, String service, Clock clock) {
		this.keys = new HashMap<>();
		for (AccessKey key : keys) {
			if (this.keys.put(key.accessKeyId(), key) != null) {
				throw new IllegalArgumentException("the access key " + key.accessKeyId() + " is given twice");
			}
		}
		this.region = Objects.requireNonNull(region, "region");
		this.service = Objects.requireNonNull(service, "service");
		this.clock = Objects.requireNonNull(clock, "clock");
	}

	/**
	 * Verify the request's signature.
	 * @param request the request as it arrived
	 * @return who signed it
	 * @throws AuthenticationException when not verified
	 */
	public Caller verify(SignedRequest request) {
		List<QueryParameter> query = QueryParameter.parse(request.rawQuery());
		String authorization = firstHeader(request, "authorization");
		Signature signature;
		if (authorization != null) {
			signature = fromHeader(authorization, request);
		}
		else if (QueryParameter.find(query, "X-Amz-Signature") != null) {
			signature = fromQuery(query);
			query = query.stream().filter((parameter) -> !parameter.name().equals("X-Amz-Signature")).toList();
		}
		else {
			throw new AuthenticationException(Failure.MISSING_AUTHENTICATION_TOKEN,
					"Request is missing Authentication Token");
		}
		checkTime(signature);
		AccessKey key = this.keys.get(signature.accessKeyId());
		if (key == null) {
			throw new AuthenticationException(Failure.INVALID_CLIENT_TOKEN_ID,
					"The security token included in the request is invalid.");
		}
		checkScope(signature);
		if (!signature.signedHeaders().contains("host")) {
			throw new AuthenticationException(Failure.INCOMPLETE_SIGNATURE,
					"'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization.");
		}
		String canonicalRequest = String.join("\n", request.method(), CanonicalRequest.uri(request.rawPath()),
				CanonicalRequest.query(query), CanonicalRequest.headers(request, signature.signedHeaders()),
				String.join(";", signature.signedHeaders()), payloadHash(request));
		String stringToSign = String.join("\n", ALGORITHM, signature.timestamp(),
				signature.day() + "/" + this.region + "/" + this.service + "/" + TERMINATOR,
				HEX.formatHex(sha256(canonicalRequest.getBytes(StandardCharsets.UTF_8))));
		byte[] expected = HEX.formatHex(hmac(signingKey(key, signature.day()), stringToSign))
			.getBytes(StandardCharsets.US_ASCII);
		byte[] provided = signature.signature().toLowerCase(Locale.ROOT).getBytes(StandardCharsets.US_ASCII);
		if (!MessageDigest.isEqual(expected, provided)) {
			throw new AuthenticationException(Failure.SIGNATURE_DOES_NOT_MATCH, MISMATCH);
		}
		return new Caller(key.accessKeyId(), key.accountId());
	}

	private static Signature fromHeader(String authorization, SignedRequest request) {
		String trimmed = authorization.trim();
		int space = trimmed.indexOf(' ');
		if (!ALGORITHM.equals((space < 0) ? trimmed : trimmed.substring(0, space))) {
			throw new AuthenticationException(Failure.INCOMPLETE_SIGNATURE,
					"Unsupported AWS 'algorithm': the Authorization header must use " + ALGORITHM + ".");
		}
		Map<String, String> parts = new HashMap<>();
		for (String part : ((space < 0) ? "" : trimmed.substring(space + 1)).split(",")) {
			if (part.isBlank()) {
				continue;
			}
			int equals = part.indexOf('=');
			if (equals < 0) {
				throw new AuthenticationException(Failure.INCOMPLETE_SIGNATURE,
						"A part of the Authorization header is not a valid key=value pair (missing equal-sign).");
			}
			parts.putIfAbsent(part.substring(0, equals).trim(), part.substring(equals + 1).trim());
		}
		String xAmzDate = firstHeader(request, "x-amz-date");
		String httpDate = firstHeader(request, "date");
		StringBuilder missing = new StringBuilder();
		for (String name : List.of("Credential", "Signature", "SignedHeaders")) {
			if (parts.getOrDefault(name, "").isEmpty()) {
				missing.append("Authorization header requires '").append(name).append("' parameter. ");
			}
		}
		if (xAmzDate == null && httpDate == null) {
			missing.append("Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. ");
		}
		if (!missing.isEmpty()) {
			throw new AuthenticationException(Failure.INCOMPLETE_SIGNATURE, missing.toString().trim());
		}
		Instant signedAt = (xAmzDate != null) ? parseAmzDate(xAmzDate) : parseHttpDate(httpDate);
		return Signature.of(parts.get("Credential"), parts.get("SignedHeaders"), parts.get("Signature"), signedAt,
				null);
	}

	private static Signature fromQuery(List<QueryParameter> query) {
		StringBuilder missing = new StringBuilder();
		for (String name : List.of("X-Amz-Algorithm", "X-Amz-Credential", "X-Amz-Date", "X-Amz-SignedHeaders")) {
			if (QueryParameter.find(query, name) == null) {
				missing.append("AWS query-string parameters must include '").append(name).append("'. ");
			}
		}
		if (!missing.isEmpty()) {
			throw new AuthenticationException(Failure.INCOMPLETE_SIGNATURE,
					missing + "Re-examine the query-string parameters.");
		}
		if (!ALGORITHM.equals(QueryParameter.find(query, "X-Amz-Algorithm"))) {
			throw new AuthenticationException(Failure.INCOMPLETE_SIGNATURE,
					"Unsupported AWS 'algorithm': X-Amz-Algorithm must be " + ALGORITHM + ".");
		}
		String expires = QueryParameter.find(query, "X-Amz-Expires");
		Duration validFor = null;
		if (expires != null) {
			try {
				long seconds = Long.parseLong(expires);
				if (seconds < 1 || seconds > MAX_EXPIRES_SECONDS) {
					throw new NumberFormatException();
				}
				validFor = Duration.ofSeconds(seconds);
			}
			catch (NumberFormatException ex) {
				throw new AuthenticationException(Failure.INCOMPLETE_SIGNATURE,
						"X-Amz-Expires must be a whole number of seconds from 1 to " + MAX_EXPIRES_SECONDS + ".");
			}
		}
		return Signature.of(QueryParameter.find(query, "X-Amz-Credential"),
				QueryParameter.find(query, "X-Amz-SignedHeaders"), QueryParameter.find(query, "X-Amz-Signature"),
				parseAmzDate(QueryParameter.find(query, "X-Amz-Date")), validFor);
	}

	private static Instant parseAmzDate(String value) {
		try {
			return Instant.from(AMZ_DATE.parse(value.trim()));
		}
		catch (DateTimeParseException ex) {
			throw new AuthenticationException(Failure.INCOMPLETE_SIGNATURE,
					"Date must be in ISO-8601 'basic format'. Got '" + value + "'.");
		}
	}

	private static Instant parseHttpDate(String value) {
		try {
			return Instant.from(DateTimeFormatter.RFC_1123_DATE_TIME.parse(value.trim()));
		}
		catch (DateTimeParseException ex) {
			throw new AuthenticationException(Failure.INCOMPLETE_SIGNATURE,
					"Date must be an RFC 1123 date. Got '" + value + "'.");
		}
	}

	/**
	 * Refuse a signature made more than 15 minutes before or after now, or a presigned
	 * one past its {@code X-Amz-Expires}.
	 */
	private void checkTime(Signature signature) {
		Instant now = this.clock.instant();
		if (signature.signedAt().isAfter(now.plus(SKEW))) {
			throw new AuthenticationException(Failure.REQUEST_EXPIRED,
					"Signature not yet current: " + signature.timestamp() + " is still later than "
							+ AMZ_DATE.format(now.plus(SKEW)) + " (" + AMZ_DATE.format(now) + " + 15 min.)");
		}
		if (signature.validFor() != null) {
			if (now.isAfter(signature.signedAt().plus(signature.validFor()))) {
				throw new AuthenticationException(Failure.REQUEST_EXPIRED, "Request has expired");
			}
		}
		else if (signature.signedAt().isBefore(now.minus(SKEW))) {
			throw new AuthenticationException(Failure.REQUEST_EXPIRED,
					"Signature expired: " + signature.timestamp() + " is now earlier than "
							+ AMZ_DATE.format(now.minus(SKEW)) + " (" + AMZ_DATE.format(now) + " - 15 min.)");
		}
	}

	private void checkScope(Signature signature) {
		if (!signature.scopeDate().equals(signature.day())) {
			throw new AuthenticationException(Failure.SIGNATURE_DOES_NOT_MATCH,
					"Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '"
							+ signature.scopeDate() + "' != '" + signature.day() + "', from '" + signature.timestamp()
							+ "'.");
		}
		if (!signature.scopeRegion().equals(this.region)) {
			throw new AuthenticationException(Failure.SIGNATURE_DOES_NOT_MATCH,
					"Credential should be scoped to a valid region, not '" + signature.scopeRegion() + "'.");
		}
		if (!signature.scopeService().equals(this.service)) {
			throw new AuthenticationException(Failure.SIGNATURE_DOES_NOT_MATCH,
					"Credential should be scoped to correct service: '" + this.service + "'.");
		}
		if (!signature.scopeTerminator().equals(TERMINATOR)) {
			throw new AuthenticationException(Failure.SIGNATURE_DOES_NOT_MATCH,
					"Credential should be scoped with a valid terminator: '" + TERMINATOR + "', not '"
							+ signature.scopeTerminator() + "'.");
		}
	}

	/**
	 * The body's SHA-256, or what {@code x-amz-content-sha256} declares: the body's hash
	 * again (refused when it is not) or {@code UNSIGNED-PAYLOAD}, which SDKs send when
	 * told not to sign the payload, and which leaves the body out of the signature.
	 */
	private static String payloadHash(SignedRequest request) {
		String bodyHash = HEX.formatHex(sha256(request.body()));
		String declared = firstHeader(request, "x-amz-content-sha256");
		if (declared == null) {
			return bodyHash;
		}
		declared = declared.trim();
		if (declared.equals(UNSIGNED_PAYLOAD) || declared.equalsIgnoreCase(bodyHash)) {
			return declared;
		}
		throw new AuthenticationException(Failure.SIGNATURE_DOES_NOT_MATCH, MISMATCH);
	}

	private byte[] signingKey(AccessKey key, String day) {
		SigningKey cached = this.signingKeys.get(key.accessKeyId());
		if (cached != null && cached.day().equals(day)) {
			return cached.key();
		}
		byte[] derived = hmac(("AWS4" + key.secretKey()).getBytes(StandardCharsets.UTF_8), day);
		for (String step : List.of(this.region, this.service, TERMINATOR)) {
			derived = hmac(derived, step);
		}
		this.signingKeys.put(key.accessKeyId(), new SigningKey(day, derived));
		return derived;
	}

	private static byte[] hmac(byte[] key, String data) {
		try {
			Mac mac = Mac.getInstance("HmacSHA256");
			mac.init(new SecretKeySpec(key, "HmacSHA256"));
			return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("HmacSHA256 is not available", ex);
		}
	}

	private static byte[] sha256(byte[] data) {
		try {
			return MessageDigest.getInstance("SHA-256").digest(data);
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("SHA-256 is not available", ex);
		}
	}

	private static String firstHeader(SignedRequest request, String name) {
		List<String> values = request.headers().get(name);
		return (values == null || values.isEmpty()) ? null : values.get(0);
	}

	/**
	 * What a request's signature claims, from its header or its query string.
	 *
	 * @param validFor a presigned request's {@code X-Amz-Expires}, or {@code null}
	 */
	private record Signature(String accessKeyId, String scopeDate, String scopeRegion, String scopeService,
			String scopeTerminator, List<String> signedHeaders, String signature, Instant signedAt, Duration validFor) {

		static Signature of(String credential, String signedHeaders, String signature, Instant signedAt,
				Duration validFor) {
			String[] scope = credential.split("/", -1);
			if (scope.length != 5) {
				throw new AuthenticationException(Failure.INCOMPLETE_SIGNATURE,
						"Credential must have exactly 5 slash-delimited elements, e.g. keyid/date/region/service/term.");
			}
			List<String> headers = new ArrayList<>();
			for (String header : signedHeaders.split(";")) {
				if (!header.isBlank()) {
					headers.add(header.trim().toLowerCase(Locale.ROOT));
				}
			}
			headers.sort(null);
			return new Signature(scope[0], scope[1], scope[2], scope[3], scope[4], List.copyOf(headers), signature,
					signedAt, validFor);
		}

		String timestamp() {
			return AMZ_DATE.format(this.signedAt);
		}

		String day() {
			return timestamp().substring(0, 8);
		}

	}

	private record SigningKey(String day, byte[] key) {
	}

}
