package io.github.qsbench.rest;

import io.github.qsbench.application.QueueNames;
import io.github.qsbench.http.AnsweringFilter;
import io.github.qsbench.http.AsyncAnswer;
import io.github.qsbench.http.AsyncAnswers;
import io.github.qsbench.http.ServerRequestTimers;
import io.github.qsbench.http.SuspendedRequests;
import java.io.IOException;
import java.time.Duration;
import java.util.List;

import io.github.qsbench.application.Limits;
import io.github.qsbench.application.Received;
import io.github.qsbench.application.messages.LongPoll;
import io.github.qsbench.application.messages.MessageOperations;
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
 * long poll) and complete. An adapter like {@link MessageController}: it calls the same
 * {@link MessageOperations} and answers with the same {@link QueueAnswers}, but skips
 * MVC's dispatch and matches the segments of {@link Routes} by hand; anything it does not
 * take goes on to Spring MVC unchanged. What it takes, how it answers errors and times
 * itself: docs/design/rest-fast-path.md.
 */
final class QueueFastPath extends AnsweringFilter {

	private static final String QUEUES = Routes.QUEUES + "/";

	private static final String MESSAGES = Routes.MESSAGES_SEGMENT;

	private final MessageOperations operations;

	private final ObjectWriter json;

	private final HandlerExceptionResolver exceptionResolver;

	private final AsyncAnswers<ResponseEntity<?>> waits;

	private final ServerRequestTimers pushes;

	private final ServerRequestTimers polls;

	private final ServerRequestTimers completions;

	QueueFastPath(MessageOperations operations, JsonMapper mapper, HandlerExceptionResolver exceptionResolver,
			MeterRegistry registry, SuspendedRequests suspended) {
		this.operations = operations;
		this.json = mapper.writer();
		this.exceptionResolver = exceptionResolver;
		this.pushes = new ServerRequestTimers(registry, "POST", Routes.MESSAGES_PATTERN);
		this.polls = new ServerRequestTimers(registry, "GET", Routes.MESSAGES_PATTERN);
		this.completions = new ServerRequestTimers(registry, "DELETE", Routes.MESSAGE_PATTERN);
		this.waits = new AsyncAnswers<>(suspended, this::write, this.polls);
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
		String method = request.getMethod();
		boolean messages = idStart == uri.length();
		// a push in JSON form (with attributes) is the controller's
		boolean collection = messages
				&& (("POST".equals(method) && !isJson(request.getContentType())) || "GET".equals(method));
		boolean message = !messages && "DELETE".equals(method) && uri.charAt(idStart) == '/';
		String query = request.getQueryString();
		PollQuery poll = (query != null && collection && "GET".equals(method)) ? PollQuery.parse(query) : null;
		if ((!collection && !message) || (query != null && poll == null)) {
			chain.doFilter(request, response);
			return;
		}
		String queue = uri.substring(nameStart, nameEnd);
		long id = message ? RequestValidation.parseMessageId(uri.substring(idStart + 1)) : 0;
		if (!QueueNames.isQueueName(queue) || id < 0 || request.getHeader(HttpHeaders.IF_NONE_MATCH) != null
				|| request.getHeader(HttpHeaders.IF_MODIFIED_SINCE) != null) {
			chain.doFilter(request, response);
			return;
		}
		if (message) {
			serve(request, response, this.completions, start, () -> QueueAnswers.completed(queue, id, this.operations
				.complete(queue, id, LeaseETags.fromIfMatch(request.getHeader(HttpHeaders.IF_MATCH)))));
		}
		else if ("POST".equals(method)) {
			serve(request, response, this.pushes, start, () -> QueueAnswers.pushed(queue, this.operations.push(queue,
					RequestValidation.body(request, this.operations.maxMessageBytes(queue)))));
		}
		else if (poll == null || poll.waitSeconds() == null) {
			serve(request, response, this.polls, start, () -> {
				Integer batch = RequestValidation.maxMessages((poll != null) ? poll.max() : null);
				Integer lease = RequestValidation.leaseSeconds((poll != null) ? poll.leaseSeconds() : null);
				return QueueAnswers.polled(queue, this.operations.lease(queue, (batch != null) ? batch : 1, lease),
						batch != null);
			});
		}
		else {
			serve(request, response, this.polls, start, () -> longPoll(request, response, start, queue, poll));
		}
	}

	/**
	 * A long poll: answered at once when a message is ready or its wait is zero, else
	 * suspended until the application layer answers it.
	 * @return the answer, or {@code null} if the poll waits
	 */
	private ResponseEntity<?> longPoll(HttpServletRequest request, HttpServletResponse response, long start,
			String queue, PollQuery query) {
		Duration wait = RequestValidation.waitSeconds(query.waitSeconds());
		Integer batch = RequestValidation.maxMessages(query.max());
		LongPoll poll = this.operations.awaitLease(queue, (batch != null) ? batch : 1, wait,
				RequestValidation.leaseSeconds(query.leaseSeconds()));
		List<Received> now = poll.getNow(null);
		if (now != null) {
			return QueueAnswers.polled(queue, now, batch != null);
		}
		suspend(request, response, start, Limits.asyncTimeout(wait), poll, queue, batch != null);
		return null;
	}

	/**
	 * Runs the call and writes its answer, or leaves the request to be answered later
	 * when the call answers {@code null} (a long poll that waits); an exception is
	 * answered by Spring's resolvers, as through MVC.
	 */
	private void serve(HttpServletRequest request, HttpServletResponse response, ServerRequestTimers timers, long start,
			Call call) throws IOException, ServletException {
		try {
			ResponseEntity<?> answer = call.answer();
			if (answer == null) {
				return;
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
	 * Puts a long poll that has to wait in the servlet's async mode until it is answered:
	 * its answer comes back to this filter on the async dispatch (see
	 * {@link AsyncAnswer}).
	 */
	private void suspend(HttpServletRequest request, HttpServletResponse response, long start, Duration timeout,
			LongPoll poll, String queue, boolean batch) {
		AsyncAnswer<ResponseEntity<?>> waiting = this.waits.suspend(request, response, start, timeout, poll::end);
		poll.thenAccept(leases -> waiting.answer(QueueAnswers.polled(queue, leases, batch)));
	}

	/**
	 * Whether the client takes what the API produces without negotiation: JSON for an
	 * answer, problem+json for an error.
	 */
	private static boolean plainAccept(HttpServletRequest request) {
		String accept = request.getHeader(HttpHeaders.ACCEPT);
		return accept == null || accept.equals(MediaType.ALL_VALUE) || accept.equals(MediaType.APPLICATION_JSON_VALUE);
	}

	private void write(ResponseEntity<?> answer, HttpServletResponse response) throws IOException {
		QueueAnswers.write(answer, response, this.json);
	}

	/** The call that answers a request. */
	@FunctionalInterface
	private interface Call {

		ResponseEntity<?> answer() throws IOException, ServletException;

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
