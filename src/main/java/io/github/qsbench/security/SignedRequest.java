package io.github.qsbench.security;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One HTTP request as it arrived: what SigV4 covers.
 *
 * @param method the HTTP method, such as {@code POST}
 * @param rawPath the request URI's path as received (still percent-encoded), e.g.
 * {@code "/"} or {@code "/000000000000/my-queue"}
 * @param rawQuery the query string as received (still percent-encoded), or {@code null}
 * @param headers names in lower case, each with its values in arrival order
 * @param body the body bytes (empty array when none)
 */
public record SignedRequest(String method, String rawPath, String rawQuery, Map<String, List<String>> headers,
		byte[] body) {

	public SignedRequest {
		Objects.requireNonNull(method, "method");
		Objects.requireNonNull(rawPath, "rawPath");
		headers = (headers != null) ? headers : Map.of();
		body = (body != null) ? body : new byte[0];
	}

}
