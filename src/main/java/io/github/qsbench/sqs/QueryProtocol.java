package io.github.qsbench.sqs;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

import io.github.qsbench.http.AsyncAnswer;
import io.github.qsbench.http.AsyncAnswers;
import io.github.qsbench.http.ServerRequestTimers;
import io.github.qsbench.http.SuspendedRequests;
import io.github.qsbench.security.Caller;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import tools.jackson.databind.node.ObjectNode;

/**
 * The query protocol, SQS's before AWS JSON 1.0 and what the AWS SDK for Java v1 (to
 * 1.12.583), the JMS library on it, Spring Cloud AWS 2.x and botocore before 1.34 speak:
 * {@code Action=<Action>&Version=2012-11-05&...} form-encoded in a {@code POST} (or in a
 * {@code GET}'s query string) to {@code /} or to a queue URL, answered with SQS's XML
 * documents. A thin envelope onto the same actions as the JSON face ({@link SqsActions}):
 * the form's flattened members are translated into the JSON members the actions read, and
 * their answers into XML, by SQS's own model of the protocol ({@link QueryModel},
 * {@link QueryTranslation}); the queue of a request sent to a queue URL without a
 * {@code QueueUrl} member is its path's. Errors are SQS's error documents with the
 * protocol's codes ({@code AWS.SimpleQueueService.NonExistentQueue}) and the statuses the
 * JSON face answers. Signatures, in a header or in the query string (a presigned URL),
 * and queue policies are checked as on the JSON face ({@link SqsAccess}).
 *
 * <p>
 * Called by the SQS face's filter ({@link SqsFace}) for each request without
 * {@code X-Amz-Target}; a receive that waits answers on the async dispatch, which the
 * filter hands to the answer's writer here. Timed in {@code http.server.requests} under
 * the URI {@code /}, queue URLs included (a tag per queue would be unbounded).
 */
final class QueryProtocol {

	static final String CONTENT_TYPE = "application/x-www-form-urlencoded";

	private static final String ANSWER_TYPE = "text/xml;charset=UTF-8";

	private static final String REQUEST_ID = "x-amzn-RequestId";

	/** What a request may carry beside its bodies, each byte of which takes three. */
	private static final int FORM_OVERHEAD_BYTES = 64 * 1024;

	private final SqsActions actions;

	private final SqsAccess access;

	private final QueryModel model;

	private final QueryTranslation translation;

	private final QueueUrls urls;

	private final int maxRequestBytes;

	private final ServerRequestTimers postTimers;

	private final ServerRequestTimers getTimers;

	private final AsyncAnswers<Answer> postWaits;

	private final AsyncAnswers<Answer> getWaits;

	/**
	 * @throws IllegalStateException if an action the JSON face serves has no shapes in
	 * the model: every action must be served over both protocols
	 */
	QueryProtocol(SqsActions actions, QueueUrls urls, int maxMessageBytes, MeterRegistry registry,
			SuspendedRequests suspended, SqsAccess access) {
		this.actions = actions;
		this.access = access;
		this.model = QueryModel.load();
		this.translation = new QueryTranslation(this.model);
		this.urls = urls;
		this.maxRequestBytes = (int) Math.min(Integer.MAX_VALUE - 8, 3L * maxMessageBytes + FORM_OVERHEAD_BYTES);
		this.postTimers = new ServerRequestTimers(registry, "POST", "/");
		this.getTimers = new ServerRequestTimers(registry, "GET", "/");
		AsyncAnswers.Writer<Answer> writer = (answer, response) -> write(response, 200, answer.requestId(),
				this.translation.answer(answer.operation(), answer.answer(), answer.requestId()));
		this.postWaits = new AsyncAnswers<>(suspended, writer, this.postTimers);
		this.getWaits = new AsyncAnswers<>(suspended, writer, this.getTimers);
		for (String action : actions.names()) {
			if (this.model.operation(action) == null) {
				throw new IllegalStateException("The SQS action " + action
						+ " has no shapes in the query-protocol model " + QueryModel.RESOURCE);
			}
		}
	}

	/**
	 * Whether the request speaks this protocol: a form {@code POST}, or a {@code GET}
	 * whose query string names an {@code Action}.
	 */
	static boolean speaks(HttpServletRequest request) {
		String method = request.getMethod();
		if ("POST".equals(method)) {
			String type = request.getContentType();
			return type != null && type.regionMatches(true, 0, CONTENT_TYPE, 0, CONTENT_TYPE.length());
		}
		String query = request.getQueryString();
		return "GET".equals(method) && query != null && (query.startsWith("Action=") || query.contains("&Action="));
	}

	/**
	 * Answers a request that {@link #speaks} this protocol, now or, for a receive that
	 * waits, on the async dispatch.
	 * @param start when it arrived ({@link System#nanoTime()}), for its timer
	 */
	void answer(HttpServletRequest request, HttpServletResponse response, long start) throws IOException {
		String requestId = requestId();
		boolean get = "GET".equals(request.getMethod());
		String action = null;
		SqsHttp http = SqsHttp.of(request);
		try {
			byte[] body = "GET".equals(request.getMethod()) ? new byte[0]
					: SqsRequest.body(request, this.maxRequestBytes);
			Caller caller = this.access.authenticate(http, body);
			NavigableMap<String, String> form = form(request, body);
			action = form.get("Action");
			if (action == null) {
				throw SqsError.MISSING_ACTION.exception("The request must contain the parameter Action.");
			}
			SqsAction handler = this.actions.action(action);
			QueryModel.Operation operation = this.model.operation(action);
			if (!form.containsKey("QueueUrl") && !"/".equals(request.getRequestURI())) {
				form.put("QueueUrl", this.urls.requested(http));
			}
			SqsRequest members = new SqsRequest(this.translation.members(operation, form));
			this.access.authorize(caller, action, members, http);
			ObjectNode answer = handler.answer(new SqsAction.Call(members, http, (timeout, end) -> {
				AsyncAnswer<Answer> later = (get ? this.getWaits : this.postWaits).suspend(request, response, start,
						timeout, end);
				return json -> later.answer(new Answer(operation, json, requestId));
			}));
			if (answer != null) {
				write(response, 200, requestId, this.translation.answer(operation, answer, requestId));
			}
		}
		catch (RuntimeException ex) {
			SqsException error = SqsException.answering(ex, action);
			write(response, error.error().status(), requestId,
					this.translation.error(error.error(), error.getMessage(), requestId));
		}
		if (!request.isAsyncStarted()) {
			(get ? this.getTimers : this.postTimers).record(response.getStatus(), start);
		}
	}

	/**
	 * The parameters of the query string and of the body, decoded as UTF-8; of a name
	 * given twice, the first.
	 * @throws SqsException {@code InvalidParameterValue} for an escape that does not
	 * decode
	 */
	private static NavigableMap<String, String> form(HttpServletRequest request, byte[] body) {
		NavigableMap<String, String> form = new TreeMap<>();
		if (request.getQueryString() != null) {
			decode(request.getQueryString(), form);
		}
		decode(new String(body, StandardCharsets.UTF_8), form);
		return form;
	}

	private static void decode(String encoded, NavigableMap<String, String> form) {
		int start = 0;
		while (start <= encoded.length()) {
			int end = encoded.indexOf('&', start);
			if (end < 0) {
				end = encoded.length();
			}
			if (end > start) {
				int equals = encoded.indexOf('=', start);
				try {
					if (equals < 0 || equals > end) {
						form.putIfAbsent(URLDecoder.decode(encoded.substring(start, end), StandardCharsets.UTF_8), "");
					}
					else {
						form.putIfAbsent(URLDecoder.decode(encoded.substring(start, equals), StandardCharsets.UTF_8),
								URLDecoder.decode(encoded.substring(equals + 1, end), StandardCharsets.UTF_8));
					}
				}
				catch (IllegalArgumentException ex) {
					throw SqsError.INVALID_PARAMETER_VALUE
						.exception("The request is not form-encoded: a % escape does not decode.");
				}
			}
			start = end + 1;
		}
	}

	private static void write(HttpServletResponse response, int status, String requestId, byte[] xml)
			throws IOException {
		response.setStatus(status);
		response.setContentType(ANSWER_TYPE);
		response.setHeader(REQUEST_ID, requestId);
		response.setContentLength(xml.length);
		response.getOutputStream().write(xml);
	}

	/** A random (version 4) UUID, without the contention of a shared secure random. */
	private static String requestId() {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		return new UUID((random.nextLong() & ~0xF000L) | 0x4000L,
				(random.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L)
			.toString();
	}

	/** The answer of a receive that waited, written on the async dispatch. */
	private record Answer(QueryModel.Operation operation, ObjectNode answer, String requestId) {
	}

}
