package io.github.qsbench.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

/**
 * The REST API's bearer tokens: which scope, if any, a presented token carries. Tokens
 * are compared by their SHA-256 digests with {@link MessageDigest#isEqual}, every
 * configured one each time, so neither a token's length nor how much of it matched shows
 * in the time an answer takes.
 */
public final class RestTokens {

	private final List<Digested> tokens;

	public RestTokens(List<RestToken> tokens) {
		this.tokens = tokens.stream().map(token -> new Digested(digest(token.token()), token.scope())).toList();
	}

	/** Whether any token is configured: none configured, none asked. */
	public boolean required() {
		return !this.tokens.isEmpty();
	}

	/**
	 * The scope of the token a request presents, or {@code null} for none or an unknown
	 * one.
	 * @param authorization the {@code Authorization} header, or {@code null}
	 */
	public RestToken.Scope scope(String authorization) {
		if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
			return null;
		}
		return scopeOfToken(authorization.substring(7).strip());
	}

	/**
	 * The scope of a token given bare (an event stream's {@code access_token}), or
	 * {@code null}.
	 */
	public RestToken.Scope scopeOfToken(String token) {
		if (token == null || token.isEmpty()) {
			return null;
		}
		byte[] presented = digest(token);
		RestToken.Scope found = null;
		for (Digested candidate : this.tokens) {
			if (MessageDigest.isEqual(candidate.digest(), presented)) {
				found = candidate.scope();
			}
		}
		return found;
	}

	private static byte[] digest(String token) {
		try {
			return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("every JDK has SHA-256", ex);
		}
	}

	private record Digested(byte[] digest, RestToken.Scope scope) {
	}

}
