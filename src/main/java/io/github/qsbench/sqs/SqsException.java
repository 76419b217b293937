package io.github.qsbench.sqs;

/**
 * A request the SQS face refuses, answered as SQS answers: the error's status and
 * {@code {"__type":"com.amazonaws.sqs#<Code>","message":"..."}}. The message says what
 * was wrong in the client's terms and never carries exception text.
 */
final class SqsException extends RuntimeException {

	private final SqsError error;

	SqsException(SqsError error, String message) {
		super(message, null, false, false);
		this.error = error;
	}

	SqsError error() {
		return this.error;
	}

}
