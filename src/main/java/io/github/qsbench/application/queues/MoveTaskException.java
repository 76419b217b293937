package io.github.qsbench.application.queues;

import io.github.qsbench.application.InvalidRequestException;

/**
 * A move task request refused for what the queues or tasks are now (a request malformed
 * in itself is an {@link InvalidRequestException}); each adapter answers the
 * {@link Reason} in its protocol.
 */
public final class MoveTaskException extends RuntimeException {

	private final Reason reason;

	MoveTaskException(Reason reason, String detail) {
		super(detail, null, false, false);
		this.reason = reason;
	}

	public Reason reason() {
		return this.reason;
	}

	/** The client's terms: what was wrong, never exception text. */
	public String detail() {
		return getMessage();
	}

	/** Why a move task request was refused. */
	public enum Reason {

		/** The source queue does not exist. */
		NO_SUCH_SOURCE,

		/** The destination queue does not exist. */
		NO_SUCH_DESTINATION,

		/** The source is no queue's dead-letter queue. */
		NOT_A_DEAD_LETTER_QUEUE,

		/** A task is running (or cancelling) on the source already. */
		ALREADY_RUNNING,

		/** No task has that handle (it never did, or it was forgotten). */
		NO_SUCH_TASK,

		/** The task has ended: only a running task can be cancelled. */
		NOT_RUNNING

	}

}
