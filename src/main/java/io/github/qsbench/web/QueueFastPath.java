package io.github.qsbench.web;

import java.io.IOException;

import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import tools.jackson.databind.ObjectWriter;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.servlet.HandlerExceptionResolver;

/**
 * The lean path for the three requests producers and consumers repeat: push ({@code POST
 * /queues/{queue}/messages}), poll ({@code GET} of the same) and complete ({@code DELETE
 * /queues/{queue}/messages/{id}}). It calls the same {@link QueueController} methods that
 * Spring MVC would, so what a request does and answers is decided in one place; what it
 * skips is MVC's dispatch around them: matching the path against every mapping, resolving
 * arguments, negotiating the content type and choosing a message converter, which cost
 * several times the queue operation (see docs/request-path-profile.md).
 *
 * <p>
 * It takes only plain requests: a valid queue name and id as raw path segments (nothing
 * percent-encoded), no query string, an {@code Accept} of nothing, {@code *}{@code /*} or
 * {@code application/json}, and no conditional-GET header. Everything else goes on to
 * Spring MVC unchanged, which answers it exactly as before. An error the controller
 * raises (a bad body, a full queue, an unknown id) is answered by Spring's own exception
 * resolvers, so it is the same {@code application/problem+json} as through MVC.
 *
 * <p>
 * It runs first among the filters and times what it answers itself, in the same
 * {@code http.server.requests} series as the observation filter's (see
 * {@link ServerRequestTimers}): an observation per request, with its context, key values,
 * handler chain and two meter lookups, cost more than the request's own work.
 */
final class QueueFastPath extends HttpFilter {

	private static final String QUEUES = "/queues/";

	private static final String MESSAGES = "/messages";

	static final String MESSAGES_PATTERN = "/queues/{queue}/messages";

	static final String MESSAGE_PATTERN = "/queues/{queue}/messages/{id}";

	private final QueueController controller;

	private final ObjectWriter json;

	private final HandlerExceptionResolver exceptionResolver;

	private final ServerRequestTimers pushes;

	private final ServerRequestTimers polls;

	private final ServerRequestTimers completions;

	QueueFastPath(QueueController controller, JsonMapper mapper, HandlerExceptionResolver exceptionResolver,
			MeterRegistry registry) {
		this.controller = controller;
		this.json = mapper.writer();
		this.exceptionResolver = exceptionResolver;
		this.pushes = new ServerRequestTimers(registry, "POST", MESSAGES_PATTERN);
		this.polls = new ServerRequestTimers(registry, "GET", MESSAGES_PATTERN);
		this.completions = new ServerRequestTimers(registry, "DELETE", MESSAGE_PATTERN);
	}

	@Override
	protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws IOException, ServletException {
		long start = System.nanoTime();
		String uri = request.getRequestURI();
		int base = request.getContextPath().length();
		if (!uri.startsWith(QUEUES, base) || request.getQueryString() != null || !plainAccept(request)) {
			chain.doFilter(request, response);
			return;
		}
		int nameStart = base + QUEUES.length();
		int nameEnd = uri.indexOf('/', nameStart);
		if (nameEnd < 0 || !uri.startsWith(MESSAGES, nameEnd)) {
			chain.doFilter(request, response);
			return;
		}
		int idStart = nameEnd + MESSAGES.length();
		String method = request.getMethod();
		boolean messages = idStart == uri.length();
		boolean collection = messages && ("POST".equals(method) || "GET".equals(method));
		boolean message = !messages && "DELETE".equals(method) && uri.charAt(idStart) == '/';
		if (!collection && !message) {
			chain.doFilter(request, response);
			return;
		}
		String queue = uri.substring(nameStart, nameEnd);
		String id = message ? uri.substring(idStart + 1) : null;
		if (!RequestValidation.isQueueName(queue) || (message && RequestValidation.parseMessageId(id) < 0)
				|| request.getHeader(HttpHeaders.IF_NONE_MATCH) != null
				|| request.getHeader(HttpHeaders.IF_MODIFIED_SINCE) != null) {
			chain.doFilter(request, response);
			return;
		}
		boolean push = "POST".equals(method);
		ServerRequestTimers timers = message ? this.completions : (push ? this.pushes : this.polls);
		try {
			ResponseEntity<?> answer;
			if (message) {
				answer = this.controller.complete(queue, id, request.getHeader(HttpHeaders.IF_MATCH));
			}
			else if (push) {
				answer = this.controller.push(queue, request);
			}
			else {
				answer = this.controller.poll(queue, null);
			}
			write(answer, response);
		}
		catch (Exception ex) {
			if (this.exceptionResolver.resolveException(request, response, null, ex) == null) {
				timers.recordFailure(ex, start);
				throw ex;
			}
		}
		timers.record(response.getStatus(), start);
	}

	/**
	 * Whether the client takes what the controller produces without negotiation: JSON for
	 * an answer, problem+json for an error.
	 */
	private static boolean plainAccept(HttpServletRequest request) {
		String accept = request.getHeader(HttpHeaders.ACCEPT);
		return accept == null || accept.equals(MediaType.ALL_VALUE) || accept.equals(MediaType.APPLICATION_JSON_VALUE);
	}

	/**
	 * Writes status, headers and the JSON body as Spring MVC would, closing the stream so
	 * that Tomcat sends a {@code Content-Length} instead of chunks.
	 */
	private void write(ResponseEntity<?> answer, HttpServletResponse response) throws IOException {
		response.setStatus(answer.getStatusCode().value());
		answer.getHeaders().forEach((name, values) -> values.forEach(value -> response.addHeader(name, value)));
		Object body = answer.getBody();
		if (body != null) {
			response.setContentType(MediaType.APPLICATION_JSON_VALUE);
			this.json.writeValue(response.getOutputStream(), body);
		}
	}

}
