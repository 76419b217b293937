package io.github.qsbench.security;

/**
 * A queue policy that is not accepted, and why: the message names the offending element
 * and is shown to the client (as an {@code InvalidAttributeValue}).
 */
public final class PolicyException extends IllegalArgumentException {

	public PolicyException(String message) {
		super(message);
	}

}
