package io.github.qsbench.security;

/**
 * One bearer token of the REST API and what it may do. {@link #toString()} leaves the
 * token out.
 *
 * @param token the secret a client sends as {@code Authorization: Bearer <token>}
 * @param scope what it allows
 */
public record RestToken(String token, Scope scope) {

	/** The shortest token accepted: a guessable token protects nothing. */
	static final int MIN_LENGTH = 16;

	public RestToken {
		if (token == null || token.length() < MIN_LENGTH) {
			throw new IllegalArgumentException(
					"a qs.security.rest.tokens[i].token must be at least " + MIN_LENGTH + " characters");
		}
		if (scope == null) {
			throw new IllegalArgumentException("a qs.security.rest.tokens[i].scope must be read-only or read-write");
		}
	}

	@Override
	public String toString() {
		return "RestToken[token=******, scope=" + this.scope + "]";
	}

	/** What a token allows. */
	public enum Scope {

		/** Reads: listing queues and their settings, browsing messages, metrics. */
		READ_ONLY,

		/** Everything, reads and every change (a poll leases, so it is a change). */
		READ_WRITE

	}

}
