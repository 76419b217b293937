package io.github.qsbench.sqs;

import java.io.IOException;

import io.github.qsbench.http.AnsweringFilter;
import io.github.qsbench.http.AsyncAnswers;
import io.github.qsbench.http.SuspendedRequests;
import io.github.qsbench.http.RequestJson;
import io.github.qsbench.http.ServerRequestTimers;
import io.github.qsbench.security.Caller;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The SQS face: {@code POST /} with {@code X-Amz-Target: AmazonSQS.<Action>} and a body
 * in the AWS JSON 1.0 protocol, which current AWS SDKs speak. It reads the envelope,
 * hands the request to the action its name picks ({@link SqsActions}), and writes the
 * answer or the SQS error ({@code {"__type":"com.amazonaws.sqs#<Code>","message":"..."}}
 * with the header {@code x-amzn-query-error: <legacy code>;Sender}). A request without
 * that header in the older query protocol (form-encoded {@code Action=...}, on {@code /}
 * or a queue URL) is handed to {@link QueryProtocol}, onto the same actions; a JSON one
 * without it is answered {@code UnknownOperationException}. Signatures and queue policies
 * are checked when {@code qs.security.sigv4.enabled} ({@link SqsAccess}), before the
 * request's members are read; otherwise credentials are accepted unchecked.
 *
 * <p>
 * A servlet filter on {@code /} and on the queue URLs' paths, like the REST fast path on
 * {@code /queues/*}: a request in neither protocol (the live page's {@code GET /}) passes
 * on untouched, and an SQS request skips Spring MVC's dispatch, which would cost more
 * than its queue operation. A receive that waits uses the servlet's async mode; its
 * answer is written by this filter on the async dispatch, so the thread that found its
 * messages never writes to another client's socket. It times what it answers in
 * {@code http.server.requests} ({@code POST /}), as the fast path does, a waiting receive
 * from its arrival to its answer.
 */
final class SqsFace extends AnsweringFilter {

	static final String CONTENT_TYPE = "application/x-amz-json-1.0";

	static final String TARGET = "X-Amz-Target";

	static final String QUERY_ERROR = "x-amzn-query-error";

	static final String TARGET_PREFIX = "AmazonSQS.";

	/**
	 * What SQS's requests may carry beside the bodies, whose JSON escapes take up to six
	 * bytes a byte.
	 */
	private static final int JSON_OVERHEAD_BYTES = 64 * 1024;

	/**
	 * How many messages at the cap a request may carry: a batch of
	 * {@value Batches#MAX_ENTRIES}, each at {@code qs.max-message-size}, so that a batch
	 * over SQS's total is read and answered {@code BatchRequestTooLong} by its action;
	 * also one message whose JSON escapes take six bytes a byte.
	 */
	private static final int MAX_REQUEST_MESSAGES = Math.max(Batches.MAX_ENTRIES, 6);

	private final SqsActions actions;

	private final JsonMapper mapper;

	private final int maxRequestBytes;

	private final ServerRequestTimers timers;

	private final AsyncAnswers<ObjectNode> waits;

	private final QueryProtocol query;

	private final SqsAccess access;

	SqsFace(SqsActions actions, int maxMessageBytes, ServerRequestTimers timers, SuspendedRequests suspended,
			QueryProtocol query, SqsAccess access) {
		this.actions = actions;
		this.access = access;
		this.query = query;
		this.timers = timers;
		this.waits = new AsyncAnswers<>(suspended, (answer, response) -> write(response, 200, answer), timers);
		this.maxRequestBytes = (int) Math.min(Integer.MAX_VALUE - 8,
				(long) MAX_REQUEST_MESSAGES * maxMessageBytes + JSON_OVERHEAD_BYTES);
		// any string as long as the request, so that a body over the cap is refused by
		// the face's own check, which names the cap
		this.mapper = RequestJson.mapper(this.maxRequestBytes);
	}

	@Override
	protected void answer(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws IOException, ServletException {
		long start = System.nanoTime();
		String target = request.getHeader(TARGET);
		if (target == null && QueryProtocol.speaks(request)) {
			this.query.answer(request, response, start);
			return;
		}
		if (target == null && isJson(request)) {
			error(response, SqsError.UNKNOWN_OPERATION, "The request names no operation: X-Amz-Target is missing.");
			this.timers.record(response.getStatus(), start);
			return;
		}
		if (target == null || !"POST".equals(request.getMethod())) {
			chain.doFilter(request, response);
			return;
		}
		ObjectNode answer = null;
		try {
			answer = answer(target, request, response, start);
		}
		catch (RuntimeException ex) {
			SqsException error = SqsException.answering(ex, target);
			error(response, error.error(), error.getMessage());
		}
		if (answer != null) {
			write(response, 200, answer);
		}
		if (!request.isAsyncStarted()) {
			this.timers.record(response.getStatus(), start);
		}
	}

	/** A {@code POST} in the AWS JSON 1.0 protocol: SQS's, whatever its target. */
	private static boolean isJson(HttpServletRequest request) {
		String contentType = request.getContentType();
		return "POST".equals(request.getMethod()) && contentType != null
				&& contentType.regionMatches(true, 0, CONTENT_TYPE, 0, CONTENT_TYPE.length());
	}

	/** The action's answer, or {@code null} for a receive that waits. */
	private ObjectNode answer(String target, HttpServletRequest request, HttpServletResponse response, long start)
			throws IOException {
		String action = action(target, request.getContentType());
		byte[] body = SqsRequest.body(request, this.maxRequestBytes);
		return answer(action, body, SqsHttp.of(request),
				(timeout, end) -> this.waits.suspend(request, response, start, timeout, end)::answer);
	}

	/**
	 * The action an {@code X-Amz-Target} names, for a request of the JSON protocol.
	 * @throws SqsException for another target or content type
	 */
	static String action(String target, String contentType) {
		if (!target.startsWith(TARGET_PREFIX)) {
			throw SqsError.INVALID_ACTION.exception("X-Amz-Target must be AmazonSQS.<Action>, was " + target + ".");
		}
		if (contentType == null || !contentType.startsWith(CONTENT_TYPE)) {
			throw SqsError.INVALID_PARAMETER_VALUE
				.exception("Only the AWS JSON 1.0 protocol is served: Content-Type " + CONTENT_TYPE + ".");
		}
		return target.substring(TARGET_PREFIX.length());
	}

	/**
	 * The answer to one request of the JSON protocol, its body read whole, whichever
	 * server path read it: checked, parsed and handed to its action.
	 * @return the answer, or {@code null} for a receive that waits, answered through the
	 * suspension
	 */
	ObjectNode answer(String action, byte[] body, SqsHttp http, SqsAction.Suspension suspension) {
		Caller caller = this.access.authenticate(http, body);
		SqsAction handler = this.actions.action(action);
		SqsRequest sqs = parse(body);
		this.access.authorize(caller, action, sqs, http);
		return handler.answer(new SqsAction.Call(sqs, http, suspension));
	}

	int maxRequestBytes() {
		return this.maxRequestBytes;
	}

	byte[] bytes(ObjectNode answer) {
		return this.mapper.writeValueAsBytes(answer);
	}

	ObjectNode error(SqsError error, String message) {
		return this.mapper.createObjectNode().put("__type", error.type()).put("message", message);
	}

	private SqsRequest parse(byte[] bytes) {
		JsonNode members;
		try {
			members = this.mapper.readTree(bytes);
		}
		catch (JacksonException ex) {
			throw malformed();
		}
		if (members == null || !members.isObject()) {
			throw malformed();
		}
		return new SqsRequest(members);
	}

	private static SqsException malformed() {
		return SqsError.INVALID_PARAMETER_VALUE.exception("The request body must be one JSON object.");
	}

	private void write(HttpServletResponse response, int status, ObjectNode body) throws IOException {
		response.setStatus(status);
		response.setContentType(CONTENT_TYPE);
		this.mapper.writeValue(response.getOutputStream(), body);
	}

	private void error(HttpServletResponse response, SqsError error, String message) throws IOException {
		response.setHeader(QUERY_ERROR, error.queryError());
		write(response, error.status(), error(error, message));
	}

}
