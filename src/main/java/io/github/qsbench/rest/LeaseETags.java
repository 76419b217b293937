package io.github.qsbench.rest;

import io.github.qsbench.application.InvalidRequestException;
import io.github.qsbench.application.LeaseTokens;
import io.github.qsbench.core.Lease;

/**
 * A {@link Lease}'s token ({@link LeaseTokens}) as an HTTP entity tag: a poll's
 * {@code ETag} is its lease quoted, and a completion's {@code If-Match} names one quoted
 * lease, or {@code *}.
 */
final class LeaseETags {

	/**
	 * An {@code If-Match} this API accepts: one lease as a strong entity tag, or
	 * {@code *}.
	 */
	static final String IF_MATCH_REGEX = "^(\\*|\"" + LeaseTokens.TOKEN_REGEX + "\")$";

	private LeaseETags() {
	}

	static String etag(Lease lease) {
		return "\"" + LeaseTokens.token(lease) + "\"";
	}

	/**
	 * The lease token an {@code If-Match} header names: {@code null} (any delivery)
	 * without the header or for {@code *}; the token itself is checked by the application
	 * layer.
	 * @throws InvalidRequestException if it is not one strong entity tag
	 */
	static String fromIfMatch(String ifMatch) {
		if (ifMatch == null || ifMatch.equals("*")) {
			return null;
		}
		int length = ifMatch.length();
		if (length < 2 || ifMatch.charAt(0) != '"' || ifMatch.charAt(length - 1) != '"') {
			throw new InvalidRequestException("Invalid lease",
					"If-Match takes a lease as one quoted entity tag, the poll's ETag, or *.");
		}
		return ifMatch.substring(1, length - 1);
	}

}
