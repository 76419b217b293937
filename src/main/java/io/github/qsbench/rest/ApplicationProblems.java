package io.github.qsbench.rest;

import io.github.qsbench.application.InvalidRequestException;
import io.github.qsbench.core.CapacityExceededException;
import io.swagger.v3.oas.annotations.Hidden;

import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * The application layer's refusals as problem details, for Spring MVC and for
 * {@link QueueFastPath} alike (it hands its exceptions to the same resolvers). Hidden
 * from the OpenAPI description, where each operation documents its own errors.
 */
@Hidden
@RestControllerAdvice
class ApplicationProblems {

	@ExceptionHandler
	ErrorResponse invalid(InvalidRequestException ex) {
		return ApiProblem.badRequest(ex.title(), ex.detail());
	}

	@ExceptionHandler
	ErrorResponse full(CapacityExceededException ex) {
		return ApiProblem.full(ex);
	}

}
