package io.github.qsbench.rest;

import io.github.qsbench.application.InvalidRequestException;
import io.github.qsbench.application.queues.MoveTaskException;
import io.github.qsbench.core.CapacityExceededException;
import io.github.qsbench.http.StoreFailureLog;
import io.swagger.v3.oas.annotations.Hidden;

import org.springframework.dao.DataAccessException;
import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * The application layer's refusals, and its store's failures, as problem details, for
 * Spring MVC and for {@link HotRouteHandler} alike ({@link #of}). Hidden from the OpenAPI
 * description, where each operation documents its own errors.
 */
@Hidden
@RestControllerAdvice
class ApplicationProblems {

	@ExceptionHandler
	ErrorResponse invalid(InvalidRequestException ex) {
		return ApiProblem.badRequest(ex.title(), ex.detail());
	}

	/**
	 * A move task refused: a queue or task that does not exist is a 404; a queue that is
	 * no dead-letter queue, or a task that runs (or does not) where the request needs the
	 * other, a 409: the request is well-formed, the state refuses it.
	 */
	@ExceptionHandler
	ErrorResponse moveTask(MoveTaskException ex) {
		return switch (ex.reason()) {
			case NO_SUCH_SOURCE -> ApiProblem.notFound("No such queue", ex.detail());
			case NO_SUCH_TASK -> ApiProblem.notFound("No such task", ex.detail());
			case NO_SUCH_DESTINATION -> ApiProblem.notFound("No such queue", ex.detail());
			case NOT_A_DEAD_LETTER_QUEUE -> ApiProblem.conflict("Not a dead-letter queue", ex.detail());
			case ALREADY_RUNNING -> ApiProblem.conflict("Task running", ex.detail());
			case NOT_RUNNING -> ApiProblem.conflict("Task not running", ex.detail());
		};
	}

	@ExceptionHandler
	ErrorResponse full(CapacityExceededException ex) {
		return ApiProblem.full(ex);
	}

	@ExceptionHandler
	ErrorResponse storeFailed(DataAccessException ex) {
		return storeUnavailable(ex);
	}

	/** A 503 for the client; for the operator, the store's own words. */
	private static ErrorResponse storeUnavailable(DataAccessException ex) {
		StoreFailureLog.failed("a REST request", ex);
		return ApiProblem.storeUnavailable(ex);
	}

	/**
	 * The problem an exception of the hot routes answers, as Spring MVC's resolvers would
	 * answer it through this class.
	 * @return the problem, or {@code null} for an exception that is none of the API's
	 * refusals (a failure: 500)
	 */
	static ErrorResponse of(Throwable ex) {
		if (ex instanceof ErrorResponse problem) {
			return problem;
		}
		if (ex instanceof InvalidRequestException invalid) {
			return ApiProblem.badRequest(invalid.title(), invalid.detail());
		}
		if (ex instanceof CapacityExceededException full) {
			return ApiProblem.full(full);
		}
		if (ex instanceof DataAccessException failed) {
			return storeUnavailable(failed);
		}
		return null;
	}

}
