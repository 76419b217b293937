package io.github.qsbench.rest;

import io.github.qsbench.core.Capacity;
import io.github.qsbench.core.CapacityExceededException;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/**
 * A request the API refuses, answered as {@code application/problem+json} (RFC 9457) by
 * Spring's problem-details handling. The detail says what was wrong in the client's own
 * terms and never carries exception text.
 */
final class ApiProblem extends ErrorResponseException {

	private static final String RETRY_AFTER_SECONDS = "1";

	private ApiProblem(HttpStatus status, String title, String detail) {
		super(status, problem(status, title, detail), null);
	}

	private static ProblemDetail problem(HttpStatus status, String title, String detail) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
		problem.setTitle(title);
		return problem;
	}

	static ApiProblem badRequest(String title, String detail) {
		return new ApiProblem(HttpStatus.BAD_REQUEST, title, detail);
	}

	static ApiProblem notFound(String title, String detail) {
		return new ApiProblem(HttpStatus.NOT_FOUND, title, detail);
	}

	static ApiProblem conflict(String title, String detail) {
		return new ApiProblem(HttpStatus.CONFLICT, title, detail);
	}

	static ApiProblem preconditionRequired(String title, String detail) {
		return new ApiProblem(HttpStatus.PRECONDITION_REQUIRED, title, detail);
	}

	static ApiProblem preconditionFailed(String title, String detail) {
		return new ApiProblem(HttpStatus.PRECONDITION_FAILED, title, detail);
	}

	/**
	 * A cap is reached: the client should retry once consumers have completed messages.
	 */
	static ApiProblem full(CapacityExceededException ex) {
		String cap = (ex.limit() == Capacity.Limit.STORE_MEMORY) ? "Redis's maxmemory"
				: "The cap qs.limits." + ex.limit().property() + " (" + ex.max() + ")";
		ApiProblem problem = new ApiProblem(HttpStatus.TOO_MANY_REQUESTS, "Queue service full",
				cap + " is reached; retry once consumers have completed messages.");
		problem.getBody().setProperty("limit", ex.limit().property());
		problem.getBody().setProperty("max", ex.max());
		problem.getHeaders().set(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS);
		return problem;
	}

	/**
	 * The queue store (Redis) failed a request: it did not answer in time, could not be
	 * reached, or refused it (a replica promoted, too few replicas to write). Retrying is
	 * the client's way through, as from SQS's {@code ServiceUnavailable}; what the
	 * request may have changed before it failed is said (Redis may still run a call it
	 * read), since a push retried may then be stored twice.
	 */
	static ApiProblem storeUnavailable(DataAccessException ex) {
		String what = (ex instanceof QueryTimeoutException) ? "did not answer in time"
				: (ex instanceof DataAccessResourceFailureException) ? "could not be reached" : "refused the request";
		ApiProblem problem = new ApiProblem(HttpStatus.SERVICE_UNAVAILABLE, "Queue store unavailable",
				"The queue store " + what + "; retry. A push that failed so may have been stored, and be stored "
						+ "twice when retried; a poll may have leased a message, which comes back when its lease ends.");
		problem.getHeaders().set(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS);
		return problem;
	}

	static ApiProblem unsupportedMediaType(String detail) {
		return new ApiProblem(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Unsupported Media Type", detail);
	}

	static ApiProblem tooLarge(String detail) {
		return tooLarge("Message too large", detail);
	}

	static ApiProblem tooLarge(String title, String detail) {
		return new ApiProblem(HttpStatus.CONTENT_TOO_LARGE, title, detail);
	}

}
