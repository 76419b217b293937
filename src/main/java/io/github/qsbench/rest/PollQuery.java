package io.github.qsbench.rest;

/**
 * The query string of a poll this path takes: {@code max}, {@code wait} and
 * {@code lease}, each at most once, as plain digits, and nothing else
 * ({@link PlainQuery}). Read by {@link HotRouteHandler}.
 */
record PollQuery(String max, String waitSeconds, String leaseSeconds) {

	private static final String[] NAMES = { "max", "wait", "lease" };

	private static final PlainQuery.Value[] VALUES = { PlainQuery.DIGITS, PlainQuery.DIGITS, PlainQuery.DIGITS };

	static PollQuery parse(String query) {
		String[] values = PlainQuery.parse(query, NAMES, VALUES);
		return (values != null) ? new PollQuery(values[0], values[1], values[2]) : null;
	}

}
