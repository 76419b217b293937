package io.github.qsbench.http;

import io.swagger.v3.oas.annotations.Hidden;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;

import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Answers errors that never reached a controller (rejected by the servlet container, such
 * as a malformed URL) as problem details too, with the container's status and no
 * exception text. A client that requests the error path itself gets 404: to it,
 * {@code /error} is not a resource of the API.
 */
@RestController
@Hidden
class ProblemErrorController implements ErrorController {

	static final String NO_SUCH_RESOURCE = "No such resource.";

	@RequestMapping("${server.error.path:/error}")
	ResponseEntity<ProblemDetail> error(HttpServletRequest request) {
		if (request.getDispatcherType() != DispatcherType.ERROR) {
			return answer(ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, NO_SUCH_RESOURCE));
		}
		Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
		HttpStatus status = (code instanceof Integer value) ? HttpStatus.resolve(value) : null;
		if (status == null || !status.isError()) {
			status = HttpStatus.INTERNAL_SERVER_ERROR;
		}
		ProblemDetail problem = ProblemDetail.forStatus(status);
		if (status.is4xxClientError()) {
			problem.setDetail(ProblemErrorHandler.DETAIL);
		}
		return answer(problem);
	}

	private static ResponseEntity<ProblemDetail> answer(ProblemDetail problem) {
		return ResponseEntity.status(problem.getStatus()).contentType(MediaType.APPLICATION_PROBLEM_JSON).body(problem);
	}

}
