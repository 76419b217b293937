package io.github.qsbench.rest;

import java.util.function.IntPredicate;

/**
 * A query string as {@link HotRouteHandler} takes it: named parameters, each at most
 * once, whose values need no decoding. Anything else (another parameter, a repeated one,
 * a value with a character that a query encodes or that this path does not take) goes to
 * Spring MVC, which decodes and binds it.
 */
final class PlainQuery {

	/** A parameter's value as this path takes it, between {@code from} and {@code to}. */
	@FunctionalInterface
	interface Value {

		boolean accepts(String query, int from, int to);

	}

	/** 1 to 9 digits. */
	static final Value DIGITS = (query, from, to) -> from < to && to - from <= 9
			&& every(query, from, to, PlainQuery::digit);

	/**
	 * 1 to 128 of the characters a URI never encodes (letters, digits and {@code -._~}):
	 * a message group as such a client writes it.
	 */
	static final Value TOKEN = (query, from, to) -> from < to && to - from <= 128 && every(query, from, to,
			c -> digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || "-._~".indexOf(c) >= 0);

	private PlainQuery() {
	}

	/**
	 * The values of {@code names} in that order ({@code null} for one absent), or
	 * {@code null} if the query is not one this path takes.
	 * @param values what each name's value must be
	 */
	static String[] parse(String query, String[] names, Value[] values) {
		String[] found = new String[names.length];
		int from = 0;
		while (from <= query.length()) {
			int end = query.indexOf('&', from);
			if (end < 0) {
				end = query.length();
			}
			int equals = query.indexOf('=', from);
			if (equals < 0 || equals >= end) {
				return null;
			}
			int name = indexOf(names, query, from, equals);
			if (name < 0 || found[name] != null || !values[name].accepts(query, equals + 1, end)) {
				return null;
			}
			found[name] = query.substring(equals + 1, end);
			from = end + 1;
		}
		return found;
	}

	private static int indexOf(String[] names, String query, int from, int to) {
		for (int i = 0; i < names.length; i++) {
			if (names[i].length() == to - from && query.startsWith(names[i], from)) {
				return i;
			}
		}
		return -1;
	}

	private static boolean every(String text, int from, int to, IntPredicate accepted) {
		for (int i = from; i < to; i++) {
			if (!accepted.test(text.charAt(i))) {
				return false;
			}
		}
		return true;
	}

	private static boolean digit(int c) {
		return c >= '0' && c <= '9';
	}

}
