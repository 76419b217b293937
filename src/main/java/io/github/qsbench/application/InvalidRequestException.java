package io.github.qsbench.application;

/**
 * A request the queue operations refuse before the core sees it: a bad queue name, a
 * number out of range, a batch of no or too many entries, a lease token this service
 * never hands out. Title and detail speak in the client's terms and never carry exception
 * text; each adapter answers it in its own protocol (the REST API with a 400
 * problem+json).
 */
public final class InvalidRequestException extends RuntimeException {

	private final String title;

	private final String detail;

	public InvalidRequestException(String title, String detail) {
		super(title + ": " + detail, null, false, false);
		this.title = title;
		this.detail = detail;
	}

	/** A number outside its range, named as the client named it. */
	public static InvalidRequestException outOfRange(String name, int min, int max) {
		return new InvalidRequestException("Invalid parameter",
				"'" + name + "' must be a whole number from " + min + " to " + max + ".");
	}

	public String title() {
		return this.title;
	}

	public String detail() {
		return this.detail;
	}

}
