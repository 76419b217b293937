package io.github.qsbench.web;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/**
 * A request the API refuses, answered as {@code application/problem+json} (RFC 9457) by Spring's
 * problem-details handling. The detail says what was wrong in the client's own terms and never
 * carries exception text.
 */
final class ApiProblem extends ErrorResponseException {

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

	static ApiProblem tooLarge(String detail) {
		return new ApiProblem(HttpStatus.CONTENT_TOO_LARGE, "Message too large", detail);
	}

}
