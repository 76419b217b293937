package io.github.qsbench.sqs;

import static org.eclipse.jetty.util.thread.Invocable.InvocationType.NON_BLOCKING;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Set;
import java.util.function.Consumer;

import io.github.qsbench.http.SelectorRoute;
import io.github.qsbench.http.ServerRequestTimers;
import io.github.qsbench.http.SuspendedRequests;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.PreEncodedHttpField;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Promise;
import tools.jackson.databind.node.ObjectNode;

/**
 * The SQS face's message actions (send, receive, delete, change visibility, and their
 * batches) in the AWS JSON 1.0 protocol, answered on the selector that read them, as the
 * REST hot routes are: the body read without blocking, then checked, parsed and answered
 * by {@link SqsFace} as its servlet filter answers it, the answer written through Jetty's
 * callback. A receive that waits returns at once and is answered from the thread that
 * finds its messages. Everything else (the queue actions, the query protocol, a body of
 * unknown length or over the cap) goes on to the filter.
 */
public final class SqsSelectorRoute implements SelectorRoute {

	private static final Set<String> ACTIONS = Set.of("SendMessage", "SendMessageBatch", "ReceiveMessage",
			"DeleteMessage", "DeleteMessageBatch", "ChangeMessageVisibility", "ChangeMessageVisibilityBatch");

	private static final PreEncodedHttpField CONTENT_TYPE = new PreEncodedHttpField(HttpHeader.CONTENT_TYPE,
			SqsFace.CONTENT_TYPE);

	private final SqsFace face;

	private final ServerRequestTimers timers;

	private final SuspendedRequests suspended;

	SqsSelectorRoute(SqsFace face, ServerRequestTimers timers, SuspendedRequests suspended) {
		this.face = face;
		this.timers = timers;
		this.suspended = suspended;
	}

	@Override
	public boolean handle(Request request, Response response, Callback callback, long start) {
		HttpFields headers = request.getHeaders();
		String target = headers.get(SqsFace.TARGET);
		if (target == null || !"POST".equals(request.getMethod()) || !"/".equals(request.getHttpURI().getPath())
				|| !target.startsWith(SqsFace.TARGET_PREFIX)
				|| !ACTIONS.contains(target.substring(SqsFace.TARGET_PREFIX.length()))) {
			return false;
		}
		int max = this.face.maxRequestBytes();
		long length = request.getLength();
		if (length < 0 || length > max || headers.contains(HttpHeader.TRANSFER_ENCODING)) {
			// the filter reads it as a stream, or refuses it naming the cap
			return false;
		}
		String contentType = headers.get(HttpHeader.CONTENT_TYPE);
		Content.Source.asByteArrayAsync(request, max, Promise.Invocable.from(NON_BLOCKING, (body, failure) -> {
			if (failure != null) {
				this.timers.recordFailure(failure, start);
				Response.writeError(request, response, callback, failure);
				return;
			}
			answer(target, contentType, body, request, response, callback, start);
		}));
		return true;
	}

	private void answer(String target, String contentType, byte[] body, Request request, Response response,
			Callback callback, long start) {
		ObjectNode answer;
		try {
			answer = this.face.answer(SqsFace.action(target, contentType), body, SqsHttp.of(request),
					(timeout, end) -> suspend(request, response, callback, start, timeout, end));
		}
		catch (RuntimeException ex) {
			SqsException error = SqsException.answering(ex, target);
			response.getHeaders().put(SqsFace.QUERY_ERROR, error.error().queryError());
			write(response, callback, error.error().status(), this.face.error(error.error(), error.getMessage()),
					start);
			return;
		}
		if (answer != null) {
			write(response, callback, 200, answer, start);
		}
	}

	/** Suspends a receive that waits, as {@link SuspendedRequests#suspend} sets out. */
	private Consumer<ObjectNode> suspend(Request request, Response response, Callback callback, long start,
			Duration timeout, Runnable end) {
		return this.suspended.suspend(request, callback, timeout, end,
				(answer, done) -> write(response, done, 200, answer, start));
	}

	private void write(Response response, Callback callback, int status, ObjectNode answer, long start) {
		byte[] bytes = this.face.bytes(answer);
		response.setStatus(status);
		HttpFields.Mutable headers = response.getHeaders();
		headers.add(CONTENT_TYPE);
		headers.put(HttpHeader.CONTENT_LENGTH, bytes.length);
		this.timers.record(status, start);
		response.write(true, ByteBuffer.wrap(bytes), callback);
	}

}
