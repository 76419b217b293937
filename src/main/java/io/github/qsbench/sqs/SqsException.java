package io.github.qsbench.sqs;

import io.github.qsbench.application.InvalidRequestException;
import io.github.qsbench.core.CapacityExceededException;
import io.github.qsbench.http.StoreFailureLog;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.dao.DataAccessException;

/**
 * A request the SQS face refuses, answered as SQS answers: the error's status and
 * {@code {"__type":"com.amazonaws.sqs#<Code>","message":"..."}} (or the query protocol's
 * error document). The message says what was wrong in the client's terms and never
 * carries exception text.
 */
final class SqsException extends RuntimeException {

	private static final Logger logger = LoggerFactory.getLogger(SqsException.class);

	private final SqsError error;

	SqsException(SqsError error, String message) {
		super(message, null, false, false);
		this.error = error;
	}

	SqsError error() {
		return this.error;
	}

	/**
	 * What either protocol answers for a failure out of an action: SQS's own errors as
	 * they are, the application's refusals as SQS's errors of the same meaning, the
	 * store's failures as {@code ServiceUnavailable}, and anything else as
	 * {@code InternalError}, logged.
	 * @param action the action, for the log
	 */
	static SqsException answering(RuntimeException failure, String action) {
		if (failure instanceof SqsException sqs) {
			return sqs;
		}
		if (failure instanceof InvalidRequestException invalid) {
			return SqsError.INVALID_PARAMETER_VALUE.exception(invalid.detail());
		}
		if (failure instanceof CapacityExceededException cap) {
			return SqsError.OVER_LIMIT
				.exception("A cap is reached (" + cap.limit().property() + ", " + cap.max() + "): nothing was sent.");
		}
		if (failure instanceof DataAccessException store) {
			StoreFailureLog.failed("SQS action " + action, store);
			return SqsError.SERVICE_UNAVAILABLE.exception("The queue store did not serve the request; retry. A "
					+ "message sent so may have been stored, and be stored twice when retried; a receive may have "
					+ "leased messages, which come back when their visibility timeout ends.");
		}
		logger.error("SQS action {} failed", action, failure);
		return SqsError.INTERNAL_ERROR.exception("The service failed to process the request.");
	}

}
