package io.github.qsbench.rest;

/**
 * The query string of a push this path takes: {@code group} (a fair queue's message
 * group, as {@link PlainQuery#TOKEN}) and {@code delay} (plain digits), each at most
 * once, and nothing else ({@link PlainQuery}). Read by {@link HotRouteHandler}: a grouped
 * push taken there costs no pass through Spring MVC.
 */
record PushQuery(String group, String delaySeconds) {

	private static final String[] NAMES = { "group", "delay" };

	private static final PlainQuery.Value[] VALUES = { PlainQuery.TOKEN, PlainQuery.DIGITS };

	static PushQuery parse(String query) {
		String[] values = PlainQuery.parse(query, NAMES, VALUES);
		return (values != null) ? new PushQuery(values[0], values[1]) : null;
	}

}
