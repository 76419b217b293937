package io.github.qsbench.application;

import java.util.regex.Pattern;

import io.github.qsbench.core.Lease;
import io.github.qsbench.core.QueueServiceCore;

/**
 * Lease tokens: the opaque string a poll hands out for one delivery and a completion may
 * name, whatever the protocol carries it in (the REST API's JSON {@code lease} and
 * {@code ETag}). Today it is the message's id and the delivery's number, so no two
 * deliveries of any messages share a token (a cache or client comparing entity tags never
 * mistakes one message's lease for another's); clients must not rely on its form.
 */
public final class LeaseTokens {

	/** What a token looks like today, for API descriptions. */
	public static final String TOKEN_REGEX = "[1-9][0-9]{0,18}\\.[1-9][0-9]{0,8}";

	private static final Pattern TOKEN = Pattern.compile(TOKEN_REGEX);

	/**
	 * A delivery no message ever has, for a lease of another message: its completion is
	 * refused like a stale lease's.
	 */
	private static final int OTHER_MESSAGE = -1;

	private LeaseTokens() {
	}

	public static String token(Lease lease) {
		return lease.message().id() + "." + lease.delivery();
	}

	/**
	 * The delivery of message {@code id} that a token names:
	 * {@link QueueServiceCore#ANY_DELIVERY} without one.
	 * @throws InvalidRequestException if it is not a token this service hands out
	 */
	public static int delivery(String token, long id) {
		if (token == null) {
			return QueueServiceCore.ANY_DELIVERY;
		}
		if (!TOKEN.matcher(token).matches()) {
			throw invalid();
		}
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

	private static InvalidRequestException invalid() {
		return new InvalidRequestException("Invalid lease",
				"A lease is the token a poll answered for one delivery, as it was answered.");
	}

}
