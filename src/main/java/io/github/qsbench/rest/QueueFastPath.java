package io.github.qsbench.rest;

import io.github.qsbench.application.QueueNames;
import io.github.qsbench.http.AnsweringFilter;
import io.github.qsbench.http.AsyncAnswers;
import io.github.qsbench.http.ServerRequestTimers;
import io.github.qsbench.http.SuspendedRequests;
import java.io.IOException;

import io.github.qsbench.rest.HotRoutes.Route;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import tools.jackson.databind.ObjectWriter;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.servlet.HandlerExceptionResolver;

/**
 * The lean path for the requests producers and consumers repeat: plain push, poll (also a
 * long poll) and complete. It matches a request against the table of {@link HotRoutes} by
 * hand, skipping MVC's dispatch, and calls the same handlers as
 * {@link MessageController}'s mappings; anything it does not take goes on to Spring MVC
 * unchanged. What it takes, how it answers errors and times itself:
 * docs/design/rest-fast-path.md.
 */
final class QueueFastPath extends AnsweringFilter {

	private static final String QUEUES = Routes.QUEUES + "/";

	private static final String MESSAGES = Routes.MESSAGES_SEGMENT;

	private final HotRoutes routes;

	private final HandlerExceptionResolver exceptionResolver;

	/** Per {@link Route}, by its ordinal. */
	private final ServerRequestTimers[] timers;

	private final ObjectWriter json;

	private final AsyncAnswers<ResponseEntity<?>> waits;

	QueueFastPath(HotRoutes routes, JsonMapper mapper, HandlerExceptionResolver exceptionResolver,
			MeterRegistry registry, SuspendedRequests suspended) {
		this.routes = routes;
		this.exceptionResolver = exceptionResolver;
		Route[] table = Route.values();
		this.timers = new ServerRequestTimers[table.length];
		for (Route route : table) {
			this.timers[route.ordinal()] = new ServerRequestTimers(registry, route.method(), route.pattern());
		}
		this.json = mapper.writer();
		this.waits = new AsyncAnswers<>(suspended,
				(answer, response) -> QueueAnswers.write(answer, response, this.json),
				this.timers[Route.POLL.ordinal()]);
	}

	@Override
	protected void answer(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws IOException, ServletException {
		long start = System.nanoTime();
		String uri = request.getRequestURI();
		int base = request.getContextPath().length();
		if (!uri.startsWith(QUEUES, base) || !plainAccept(request)) {
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
		boolean messages = idStart == uri.length();
		Route route = (messages || uri.charAt(idStart) == '/') ? Route.match(request.getMethod(), !messages) : null;
		String query = request.getQueryString();
		PollQuery poll = (query != null && route == Route.POLL) ? PollQuery.parse(query) : null;
		// a push in JSON form (with attributes) is the controller's
		if (route == null || (route == Route.PUSH && isJson(request.getContentType()))
				|| (query != null && poll == null)) {
			chain.doFilter(request, response);
			return;
		}
		String queue = uri.substring(nameStart, nameEnd);
		long id = messages ? 0 : RequestValidation.parseMessageId(uri.substring(idStart + 1));
		if (!QueueNames.isQueueName(queue) || id < 0 || request.getHeader(HttpHeaders.IF_NONE_MATCH) != null
				|| request.getHeader(HttpHeaders.IF_MODIFIED_SINCE) != null) {
			chain.doFilter(request, response);
			return;
		}
		ServerRequestTimers timers = this.timers[route.ordinal()];
		try {
			ResponseEntity<?> answer = switch (route) {
				case PUSH -> this.routes.push(queue, null, null, request);
				case POLL -> (poll != null)
						? this.routes.poll(queue, poll.max(), poll.waitSeconds(), poll.leaseSeconds(), request,
								response, start, this.waits)
						: this.routes.poll(queue, null, null, null, request, response, start, this.waits);
				case COMPLETE -> this.routes.complete(queue, id, request.getHeader(HttpHeaders.IF_MATCH));
			};
			if (answer == null) {
				// a long poll that waits: answered on its async dispatch, and timed then
				return;
			}
			QueueAnswers.write(answer, response, this.json);
		}
		catch (Exception ex) {
			// answered by Spring's resolvers, as through MVC
			if (this.exceptionResolver.resolveException(request, response, null, ex) == null) {
				timers.recordFailure(ex, start);
				throw ex;
			}
		}
		timers.record(response.getStatus(), start);
	}

	/**
	 * Whether the client takes what the API produces without negotiation: JSON for an
	 * answer, problem+json for an error.
	 */
	private static boolean plainAccept(HttpServletRequest request) {
		String accept = request.getHeader(HttpHeaders.ACCEPT);
		return accept == null || accept.equals(MediaType.ALL_VALUE) || accept.equals(MediaType.APPLICATION_JSON_VALUE);
	}

	/**
	 * Whether the body is a push's JSON form: {@code application/json}, with parameters
	 * or none, as the controller's {@code consumes} matches it.
	 */
	private static boolean isJson(String contentType) {
		int length = MediaType.APPLICATION_JSON_VALUE.length();
		if (contentType == null || !contentType.regionMatches(true, 0, MediaType.APPLICATION_JSON_VALUE, 0, length)) {
			return false;
		}
		if (contentType.length() == length) {
			return true;
		}
		char next = contentType.charAt(length);
		return next == ';' || next == ' ' || next == '\t';
	}

	/**
	 * The query string of a poll this path takes: {@code max}, {@code wait} and
	 * {@code lease}, each at most once, as plain digits, and nothing else. Anything else
	 * (another parameter, a repeated or percent-encoded one) goes to Spring MVC, which
	 * decodes and binds it.
	 */
	record PollQuery(String max, String waitSeconds, String leaseSeconds) {

		static PollQuery parse(String query) {
			String max = null;
			String wait = null;
			String lease = null;
			int from = 0;
			while (from <= query.length()) {
				int end = query.indexOf('&', from);
				if (end < 0) {
					end = query.length();
				}
				int equals = query.indexOf('=', from);
				if (equals < 0 || equals >= end || !digits(query, equals + 1, end)) {
					return null;
				}
				String value = query.substring(equals + 1, end);
				if (max == null && query.startsWith("max=", from) && equals == from + 3) {
					max = value;
				}
				else if (wait == null && query.startsWith("wait=", from) && equals == from + 4) {
					wait = value;
				}
				else if (lease == null && query.startsWith("lease=", from) && equals == from + 5) {
					lease = value;
				}
				else {
					return null;
				}
				from = end + 1;
			}
			return new PollQuery(max, wait, lease);
		}

		private static boolean digits(String text, int from, int to) {
			if (from == to || to - from > 9) {
				return false;
			}
			for (int i = from; i < to; i++) {
				char c = text.charAt(i);
				if (c < '0' || c > '9') {
					return false;
				}
			}
			return true;
		}

	}

}
