package io.github.qsbench.web;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.qsbench.core.Lease;
import io.github.qsbench.core.QueueServiceCore;

/**
 * Lease tokens: the opaque string a poll hands out for one delivery (JSON {@code lease},
 * header {@code ETag}) and a completion may name ({@code If-Match}, or {@code lease} in a
 * completions batch). Today it is the message's id and the delivery's number, so no two
 * deliveries of any messages share a token (a cache or client comparing entity tags never
 * mistakes one message's lease for another's); clients must not rely on its form.
 */
final class Leases {

	/** What a token looks like today, for the OpenAPI description. */
	static final String TOKEN_REGEX = "^[1-9][0-9]{0,18}\\.[1-9][0-9]{0,8}$";

	/**
	 * An {@code If-Match} this API accepts: one lease as a strong entity tag, or
	 * {@code *}.
	 */
	static final String IF_MATCH_REGEX = "^(\\*|\"[1-9][0-9]{0,18}\\.[1-9][0-9]{0,8}\")$";

	private static final Pattern TOKEN = Pattern.compile(TOKEN_REGEX);

	private static final Pattern QUOTED = Pattern.compile("\"([1-9][0-9]{0,18}\\.[1-9][0-9]{0,8})\"");

	/**
	 * A delivery no message ever has, for a lease of another message: its completion is
	 * refused like a stale lease's ({@code 412}).
	 */
	private static final int OTHER_MESSAGE = -1;

	private Leases() {
	}

	static String token(Lease lease) {
		return lease.message().id() + "." + lease.delivery();
	}

	static String etag(Lease lease) {
		return "\"" + token(lease) + "\"";
	}

	/**
	 * The delivery of message {@code id} that an {@code If-Match} header names:
	 * {@link QueueServiceCore#ANY_DELIVERY} without the header or for {@code *}.
	 * @throws ApiProblem 400 if it is not one strong entity tag of a lease
	 */
	static int fromIfMatch(String ifMatch, long id) {
		if (ifMatch == null || ifMatch.equals("*")) {
			return QueueServiceCore.ANY_DELIVERY;
		}
		Matcher matcher = QUOTED.matcher(ifMatch);
		if (!matcher.matches()) {
			throw invalid();
		}
		return delivery(matcher.group(1), id);
	}

	/**
	 * The delivery of message {@code id} that a lease token in a batch names:
	 * {@link QueueServiceCore#ANY_DELIVERY} when absent.
	 * @throws ApiProblem 400 if it is not a token this service hands out
	 */
	static int fromToken(String token, long id) {
		if (token == null) {
			return QueueServiceCore.ANY_DELIVERY;
		}
		if (!TOKEN.matcher(token).matches()) {
			throw invalid();
		}
		return delivery(token, id);
	}

	private static int delivery(String token, long id) {
		int dot = token.indexOf('.');
		try {
			if (Long.parseLong(token, 0, dot, 10) != id) {
				return OTHER_MESSAGE;
			}
			return Integer.parseInt(token, dot + 1, token.length(), 10);
		}
		catch (NumberFormatException overflow) {
			throw invalid();
		}
	}

	private static ApiProblem invalid() {
		return ApiProblem.badRequest("Invalid lease",
				"A lease is the value of a poll's 'lease' field; If-Match takes it as one quoted entity tag, "
						+ "the poll's ETag.");
	}

}
