package io.github.qsbench.security;

import java.util.regex.Pattern;

/**
 * The policy language's wildcards, compiled once to a regex: {@code *} any run of
 * characters, {@code ?} any one character, everything else literal.
 */
final class Wildcards {

	private Wildcards() {
	}

	/** For action names and {@code StringLike} values. */
	static Pattern pattern(String wildcards, int flags) {
		return compile(wildcards, false, flags);
	}

	/**
	 * For ARNs in {@code Resource}, as IAM matches them: wildcards stay within a segment
	 * (the parts between colons), except a {@code *} that ends a segment, which "can
	 * expand to match beyond the colon boundaries" (IAM JSON policy elements: Resource,
	 * "Using wildcards in resource ARNs").
	 */
	static Pattern arn(String wildcards) {
		return compile(wildcards, true, 0);
	}

	private static Pattern compile(String wildcards, boolean segments, int flags) {
		StringBuilder regex = new StringBuilder();
		StringBuilder literal = new StringBuilder();
		for (int i = 0; i < wildcards.length(); i++) {
			char c = wildcards.charAt(i);
			if (c != '*' && c != '?') {
				literal.append(c);
				continue;
			}
			if (!literal.isEmpty()) {
				regex.append(Pattern.quote(literal.toString()));
				literal.setLength(0);
			}
			boolean endsSegment = i + 1 == wildcards.length() || wildcards.charAt(i + 1) == ':';
			if (c == '*') {
				regex.append((!segments || endsSegment) ? ".*" : "[^:]*");
			}
			else {
				regex.append(segments ? "[^:]" : ".");
			}
		}
		if (!literal.isEmpty()) {
			regex.append(Pattern.quote(literal.toString()));
		}
		return Pattern.compile(regex.toString(), flags | Pattern.DOTALL);
	}

}
