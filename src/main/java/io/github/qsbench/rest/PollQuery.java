package io.github.qsbench.rest;

/**
 * The query string of a poll this path takes: {@code max}, {@code wait} and
 * {@code lease}, each at most once, as plain digits, and nothing else. Anything else
 * (another parameter, a repeated or percent-encoded one) goes to Spring MVC, which
 * decodes and binds it. Read by {@link HotRouteHandler}.
 */
record PollQuery(String max, String waitSeconds, String leaseSeconds) {

	static PollQuery parse(String query) {
		String max = null;
		String wait = null;
		String lease = null;
		int from = 0;
		while (from <= query.length()) {
			int end = query.indexOf('&', from);
			if (end < 0) {
				end = query.length();
			}
			int equals = query.indexOf('=', from);
			if (equals < 0 || equals >= end || !digits(query, equals + 1, end)) {
				return null;
			}
			String value = query.substring(equals + 1, end);
			if (max == null && query.startsWith("max=", from) && equals == from + 3) {
				max = value;
			}
			else if (wait == null && query.startsWith("wait=", from) && equals == from + 4) {
				wait = value;
			}
			else if (lease == null && query.startsWith("lease=", from) && equals == from + 5) {
				lease = value;
			}
			else {
				return null;
			}
			from = end + 1;
		}
		return new PollQuery(max, wait, lease);
	}

	private static boolean digits(String text, int from, int to) {
		if (from == to || to - from > 9) {
			return false;
		}
		for (int i = from; i < to; i++) {
			char c = text.charAt(i);
			if (c < '0' || c > '9') {
				return false;
			}
		}
		return true;
	}

}
