package io.github.qsbench.application;

import java.time.Duration;

/**
 * The service's fixed limits, in one place for the application layer, both faces and the
 * OpenAPI text (hence compile-time constants). The queue operations refuse what is out of
 * range; a face checks a value against the same limit where its protocol wants its own
 * error (an SQS member, a REST query parameter). The largest message is configured
 * ({@code qs.max-message-size}, SQS's {@link #MAX_MESSAGE_BYTES} by default), not fixed,
 * and a queue may take less (its own {@code maxMessageBytes}).
 */
public final class Limits {

	/** Entries a batch may carry, and messages one poll may lease. */
	public static final int MAX_BATCH = 100;

	/** The longest a poll may wait for a message, as SQS allows. */
	public static final int MAX_WAIT_SECONDS = 20;

	/** The longest lease, SQS's longest visibility timeout. */
	public static final int MAX_LEASE_SECONDS = 43_200;

	/** The longest delay, as in SQS. */
	public static final int MAX_DELAY_SECONDS = 900;

	/** The shortest retention, as in SQS. */
	public static final int MIN_RETENTION_SECONDS = 60;

	/** The longest retention (14 days), as in SQS. */
	public static final int MAX_RETENTION_SECONDS = 1_209_600;

	/**
	 * SQS's largest message since 2025, body and attributes: 1 MiB, the default of
	 * {@code qs.max-message-size}.
	 */
	public static final int MAX_MESSAGE_BYTES = 1_048_576;

	/** The smallest largest message a queue may set, SQS's least MaximumMessageSize. */
	public static final int MIN_MESSAGE_BYTES = 1024;

	/**
	 * How long a face keeps a waiting poll suspended beyond its wait: a backstop only,
	 * since the long polls answer every waiter when its wait ends.
	 */
	public static final Duration ASYNC_GRACE = Duration.ofSeconds(5);

	private Limits() {
	}

	/** How long a face lets a long poll of {@code wait} stay suspended. */
	public static Duration asyncTimeout(Duration wait) {
		return wait.plus(ASYNC_GRACE);
	}

}
