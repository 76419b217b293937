package io.github.qsbench.web;

import java.util.regex.Pattern;

import io.github.qsbench.core.AbstractMessage;

/**
 * Lease tokens: the opaque string a poll hands out for one delivery (JSON {@code lease},
 * header {@code ETag}) and a completion may name in {@code If-Match}. Today it is the
 * delivery's number; clients must not rely on that.
 */
final class Leases {

	/** What a token looks like today, for the OpenAPI description. */
	static final String TOKEN_REGEX = "^[1-9][0-9]{0,8}$";

	private static final Pattern TOKEN = Pattern.compile(TOKEN_REGEX);

	private static final Pattern QUOTED = Pattern.compile("\"([1-9][0-9]{0,8})\"");

	private Leases() {
	}

	static String token(int delivery) {
		return Integer.toString(delivery);
	}

	static String etag(int delivery) {
		return "\"" + token(delivery) + "\"";
	}

	/**
	 * The delivery an {@code If-Match} header names: {@link AbstractMessage#ANY_DELIVERY}
	 * without the header or for {@code *}.
	 * @throws ApiProblem 400 if it is not one strong entity tag
	 */
	static int fromIfMatch(String ifMatch) {
		if (ifMatch == null || ifMatch.strip().equals("*")) {
			return AbstractMessage.ANY_DELIVERY;
		}
		var matcher = QUOTED.matcher(ifMatch.strip());
		if (!matcher.matches()) {
			throw invalid();
		}
		return Integer.parseInt(matcher.group(1));
	}

	/**
	 * The delivery a lease token in a batch names: {@link AbstractMessage#ANY_DELIVERY}
	 * when absent.
	 * @throws ApiProblem 400 if it is not a token this service hands out
	 */
	static int fromToken(String token) {
		if (token == null) {
			return AbstractMessage.ANY_DELIVERY;
		}
		if (!TOKEN.matcher(token).matches()) {
			throw invalid();
		}
		return Integer.parseInt(token);
	}

	private static ApiProblem invalid() {
		return ApiProblem.badRequest("Invalid lease",
				"A lease is the value of a poll's 'lease' field; If-Match takes it as one quoted entity tag, "
						+ "the poll's ETag.");
	}

}
