package io.github.qsbench.rest;

import java.net.URI;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;

import io.github.qsbench.http.ServerRequestTimers;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.PreEncodedHttpField;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.ObjectWriter;

import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.ErrorResponse;

/**
 * How {@link HotRouteHandler} writes its answers on Jetty's core API: byte for byte what
 * Spring MVC writes for the same answer ({@link MessageController}), an answer as JSON, a
 * refusal as problem+json ({@link ApplicationProblems}), each timed as the servlet
 * stack's observation times it. It writes without blocking, from whichever thread has the
 * answer: the selector, a request thread, or the store's.
 */
final class HotAnswers {

	private static final Logger logger = LoggerFactory.getLogger(HotAnswers.class);

	private static final HttpField JSON = new PreEncodedHttpField(HttpHeader.CONTENT_TYPE, "application/json");

	private static final HttpField PROBLEM_JSON = new PreEncodedHttpField(HttpHeader.CONTENT_TYPE,
			"application/problem+json");

	private final ObjectWriter json;

	HotAnswers(ObjectWriter json) {
		this.json = json;
	}

	/** Writes an answer as Spring MVC would: status, headers, the body as JSON. */
	void write(ResponseEntity<?> answer, Response response, Callback callback, ServerRequestTimers timers, long start) {
		int status = answer.getStatusCode().value();
		response.setStatus(status);
		HttpFields.Mutable headers = response.getHeaders();
		answer.getHeaders().forEach((name, values) -> values.forEach(value -> headers.add(name, value)));
		Object body = answer.getBody();
		ByteBuffer content = null;
		if (body != null) {
			byte[] bytes = this.json.writeValueAsBytes(body);
			headers.add(JSON);
			headers.put(HttpHeader.CONTENT_LENGTH, bytes.length);
			content = ByteBuffer.wrap(bytes);
		}
		timers.record(status, start);
		response.write(true, content, callback);
	}

	/**
	 * Answers a refusal as problem+json, as Spring MVC's resolvers answer it
	 * ({@link ApplicationProblems}); anything else is a failure, answered 500 by the
	 * server's error handler.
	 */
	void refuse(RuntimeException ex, Request request, Response response, Callback callback, ServerRequestTimers timers,
			long start) {
		ErrorResponse problem = ApplicationProblems.of(ex);
		if (problem == null) {
			logger.error("Failed to answer {} {}", request.getMethod(), request.getHttpURI().getPath(), ex);
			timers.recordFailure(ex, start);
			Response.writeError(request, response, callback, ex);
			return;
		}
		int status = problem.getStatusCode().value();
		response.setStatus(status);
		HttpFields.Mutable headers = response.getHeaders();
		problem.getHeaders().forEach((name, values) -> values.forEach(value -> headers.add(name, value)));
		byte[] bytes = this.json.writeValueAsBytes(body(problem.getBody(), request.getHttpURI().getPath()));
		headers.add(PROBLEM_JSON);
		headers.put(HttpHeader.CONTENT_LENGTH, bytes.length);
		timers.record(status, start);
		response.write(true, ByteBuffer.wrap(bytes), callback);
	}

	/**
	 * A problem's members as Spring MVC writes them: the standard ones in the mapper's
	 * alphabetical order, those unset left out, the instance the path; then its
	 * properties, flattened.
	 */
	private static Map<String, Object> body(ProblemDetail problem, String path) {
		Map<String, Object> body = new LinkedHashMap<>();
		if (problem.getDetail() != null) {
			body.put("detail", problem.getDetail());
		}
		URI instance = problem.getInstance();
		body.put("instance", (instance != null) ? instance.toString() : path);
		body.put("status", problem.getStatus());
		if (problem.getTitle() != null) {
			body.put("title", problem.getTitle());
		}
		if (problem.getType() != null) {
			body.put("type", problem.getType().toString());
		}
		if (problem.getProperties() != null) {
			body.putAll(problem.getProperties());
		}
		return body;
	}

}
