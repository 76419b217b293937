package io.github.qsbench.security;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The parts of SigV4's canonical request that are rebuilt from what arrived: the path,
 * the query and the signed headers, each as AWS's services other than S3 canonicalise
 * them ({@link SigV4Verifier}).
 */
final class CanonicalRequest {

	private static final HexFormat UPPER_HEX = HexFormat.of().withUpperCase();

	private CanonicalRequest() {
	}

	/**
	 * The path as signed for services other than S3: dot segments and empty segments
	 * removed (as botocore does, and AWS's SigV4 test suite expects), then every byte
	 * outside the unreserved set and {@code /} percent-encoded, so an escape the client
	 * sent is encoded a second time ({@code %20} becomes {@code %2520}).
	 */
	static String uri(String rawPath) {
		Deque<String> segments = new ArrayDeque<>();
		for (String segment : rawPath.split("/")) {
			if (segment.equals("..")) {
				segments.pollLast();
			}
			else if (!segment.isEmpty() && !segment.equals(".")) {
				segments.addLast(segment);
			}
		}
		StringBuilder path = new StringBuilder("/").append(String.join("/", segments));
		if (rawPath.endsWith("/") && !segments.isEmpty()) {
			path.append('/');
		}
		return encode(path.toString().getBytes(StandardCharsets.UTF_8), true);
	}

	static String query(List<QueryParameter> query) {
		return query.stream()
			.sorted(Comparator.comparing(QueryParameter::encodedName).thenComparing(QueryParameter::encodedValue))
			.map((parameter) -> parameter.encodedName() + "=" + parameter.encodedValue())
			.collect(Collectors.joining("&"));
	}

	/**
	 * Each signed header as {@code name:values}, its values trimmed, inner runs of
	 * whitespace collapsed to one space, and joined with commas; one a line, the last
	 * line ending too.
	 */
	static String headers(SignedRequest request, List<String> signedHeaders) {
		StringBuilder headers = new StringBuilder();
		for (String name : signedHeaders) {
			List<String> values = request.headers().getOrDefault(name, List.of());
			headers.append(name)
				.append(':')
				.append(values.stream()
					.map((value) -> value.trim().replaceAll("[ \\t\\n\\x0B\\f\\r]+", " "))
					.collect(Collectors.joining(",")))
				.append('\n');
		}
		return headers.toString();
	}

	/**
	 * Percent-encode every byte outside RFC 3986's unreserved set (and {@code /} when
	 * asked to keep it), with upper-case hex digits.
	 */
	static String encode(byte[] bytes, boolean keepSlash) {
		StringBuilder encoded = new StringBuilder(bytes.length);
		for (byte b : bytes) {
			char c = (char) (b & 0xFF);
			if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_'
					|| c == '.' || c == '~' || (keepSlash && c == '/')) {
				encoded.append(c);
			}
			else {
				encoded.append('%').append(UPPER_HEX.toHexDigits(b));
			}
		}
		return encoded.toString();
	}

	/**
	 * Percent-decode to bytes; a {@code %} not followed by two hex digits stays as it is.
	 */
	static byte[] decode(String raw) {
		ByteArrayOutputStream decoded = new ByteArrayOutputStream(raw.length());
		byte[] bytes = raw.getBytes(StandardCharsets.UTF_8);
		for (int i = 0; i < bytes.length; i++) {
			int high = (bytes[i] == '%' && i + 2 < bytes.length) ? Character.digit(bytes[i + 1], 16) : -1;
			int low = (high >= 0) ? Character.digit(bytes[i + 2], 16) : -1;
			if (low >= 0) {
				decoded.write(high * 16 + low);
				i += 2;
			}
			else {
				decoded.write(bytes[i]);
			}
		}
		return decoded.toByteArray();
	}

	/**
	 * One query parameter: decoded for lookups, encoded again for the canonical query.
	 */
	record QueryParameter(String name, String value, String encodedName, String encodedValue) {

		/**
		 * The parameters in order, a missing {@code =} read as an empty value, those with
		 * an empty name left out (the AWS SDK for Java does not sign them).
		 */
		static List<QueryParameter> parse(String rawQuery) {
			List<QueryParameter> parameters = new ArrayList<>();
			if (rawQuery == null) {
				return parameters;
			}
			for (String pair : rawQuery.split("&")) {
				int equals = pair.indexOf('=');
				byte[] name = decode((equals < 0) ? pair : pair.substring(0, equals));
				byte[] value = decode((equals < 0) ? "" : pair.substring(equals + 1));
				if (name.length > 0) {
					parameters.add(new QueryParameter(new String(name, StandardCharsets.UTF_8),
							new String(value, StandardCharsets.UTF_8), encode(name, false), encode(value, false)));
				}
			}
			return parameters;
		}

		static String find(List<QueryParameter> parameters, String name) {
			return parameters.stream()
				.filter((parameter) -> parameter.name().equals(name))
				.map(QueryParameter::value)
				.findFirst()
				.orElse(null);
		}

	}

}
