package io.github.qsbench.rest;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import io.github.qsbench.application.InvalidRequestException;
import io.github.qsbench.application.Limits;
import io.github.qsbench.application.MessageAttributes;
import io.github.qsbench.application.OutgoingMessage;
import io.github.qsbench.application.Received;
import io.github.qsbench.application.Sent;
import io.github.qsbench.application.messages.AsyncMessageOperations;
import io.github.qsbench.application.messages.LongPoll;
import io.github.qsbench.application.messages.MessageOperations;
import io.github.qsbench.application.messages.MessageOperations.BatchEntry;
import io.github.qsbench.core.Completion;
import io.github.qsbench.rest.MessageResponses.CompletionResult;
import io.github.qsbench.rest.MessageResponses.CompletionResults;
import io.github.qsbench.rest.MessageResponses.Pushed;
import io.github.qsbench.rest.MessageResponses.PushedBatch;
import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.ResponseEntity;

/**
 * The hot routes of the queue API, each implemented once: push (plain or in JSON form),
 * poll (also long), complete, and the batches of pushes and completions. {@link Route} is
 * their table (method and pattern); {@link HotRouteHandler} matches a request against it
 * by hand and {@link MessageController}'s mappings, which describe the routes in OpenAPI,
 * map the same {@link Routes} paths; both call the handlers here with what they read from
 * the request. Why this shape: docs/design/hot-route-handler.md.
 */
final class HotRoutes {

	private final MessageOperations operations;

	private final AsyncMessageOperations async;

	private final JsonRequests json;

	HotRoutes(MessageOperations operations) {
		this.operations = operations;
		this.async = operations.async();
		this.json = new JsonRequests(operations.maxMessageBytes());
	}

	/**
	 * Push: the body's bytes as one message.
	 * @param delay the {@code delay} parameter, {@code null} when absent
	 * @param group the {@code group} parameter, {@code null} when absent
	 */
	ResponseEntity<Pushed> push(String queue, String delay, String group, HttpServletRequest request)
			throws IOException {
		String checked = RequestValidation.group(group);
		return push(queue, delay, checked, RequestValidation.body(request, maxMessageBytes(queue)));
	}

	/**
	 * Push: {@code body} (read and checked by {@link RequestValidation}) as one message.
	 * @param group the checked {@code group} parameter, {@code null} when absent
	 */
	ResponseEntity<Pushed> push(String queue, String delay, String group, byte[] body) {
		return QueueAnswers.pushed(queue, this.operations.send(queue,
				new OutgoingMessage(body, MessageAttributes.NONE, group, null), RequestValidation.delaySeconds(delay)));
	}

	/**
	 * Push in JSON form, with attributes, a group and a deduplication id.
	 * @param group the {@code group} parameter, {@code null} when absent
	 * @param length the declared length of {@code in}, -1 when unknown
	 */
	ResponseEntity<Pushed> pushJson(String queue, String delay, String group, InputStream in, long length)
			throws IOException {
		String checked = RequestValidation.group(group);
		OutgoingMessage message = this.json.message(in, length, maxMessageBytes(queue));
		if (checked != null && message.group() == null) {
			message = new OutgoingMessage(message.body(), message.attributes(), checked, message.deduplicationId());
		}
		else if (checked != null && !checked.equals(message.group())) {
			throw new InvalidRequestException("Two groups",
					"The group parameter and the body's group field name different groups; give one.");
		}
		return QueueAnswers.pushed(queue, this.operations.send(queue, message, RequestValidation.delaySeconds(delay)));
	}

	/**
	 * Push a batch, all or none.
	 * @param length the declared length of {@code in}, -1 when unknown
	 */
	ResponseEntity<PushedBatch> pushBatch(String queue, String delay, InputStream in, long length) throws IOException {
		List<OutgoingMessage> messages = this.json.messages(in, length, maxMessageBytes(queue));
		return QueueAnswers.pushed(queue,
				this.operations.sendAll(queue, messages, RequestValidation.delaySeconds(delay)));
	}

	/**
	 * Complete a batch, each entry as its own {@code DELETE} would be.
	 * @param length the declared length of {@code in}, -1 when unknown
	 */
	ResponseEntity<CompletionResults> completeBatch(String queue, InputStream in, long length) throws IOException {
		List<BatchEntry> entries = this.json.completions(in, length);
		return completed(entries, this.operations.completeAll(queue, entries));
	}

	private static ResponseEntity<CompletionResults> completed(List<BatchEntry> entries, List<Completion> completions) {
		List<CompletionResult> results = new ArrayList<>(entries.size());
		for (int i = 0; i < entries.size(); i++) {
			results.add(CompletionResult.of(entries.get(i).id(), completions.get(i)));
		}
		return ResponseEntity.ok(new CompletionResults(results));
	}

	/**
	 * Whether {@link #pushAsync}, {@link #pollAsync}, {@link #completeAsync},
	 * {@link #pushBatchAsync} and {@link #completeBatchAsync} serve the queue: a store
	 * across the network and a plain queue ({@link AsyncMessageOperations#answers}).
	 */
	boolean answersAsync(String queue) {
		return this.async.answers(queue);
	}

	/**
	 * {@link #push(String, String, String, byte[])} without a delay, answered when the
	 * store answers, on its thread; {@code null} when the message has a group and the
	 * queue is not yet known to have groups ({@link AsyncMessageOperations#sendAll}),
	 * which the caller then serves with {@link #push} on a thread that may wait.
	 * @param group the checked {@code group} parameter, {@code null} when absent
	 */
	CompletableFuture<ResponseEntity<Pushed>> pushAsync(String queue, String group, byte[] body) {
		if (group == null) {
			return this.async.push(queue, body).thenApply(sent -> QueueAnswers.pushed(queue, sent));
		}
		CompletableFuture<List<Sent>> sent = this.async.sendAll(queue,
				List.of(new OutgoingMessage(body, MessageAttributes.NONE, group, null)));
		return (sent != null) ? sent.thenApply(pushed -> QueueAnswers.pushed(queue, pushed.get(0))) : null;
	}

	/**
	 * {@link #poll}, answered when the store answers, on its thread; with {@code wait}, a
	 * long poll's first look: the answer when messages are ready or the wait is zero,
	 * {@code null} when none is, and the caller then serves the request with
	 * {@link #poll} on a thread that may wait (it looks again, then waits).
	 * @param max the {@code max} parameter, {@code null} when absent
	 * @param wait the {@code wait} parameter, {@code null} when absent (not a long poll)
	 * @param lease the {@code lease} parameter, {@code null} when absent
	 */
	CompletableFuture<ResponseEntity<?>> pollAsync(String queue, String max, String wait, String lease) {
		// validated in poll's order, so that a request with several bad parameters is
		// told the same one
		Duration seconds = (wait != null) ? RequestValidation.waitSeconds(wait) : Duration.ZERO;
		Integer batch = RequestValidation.maxMessages(max);
		return this.async.lease(queue, (batch != null) ? batch : 1, seconds, RequestValidation.leaseSeconds(lease))
			.thenApply(leases -> (leases.isEmpty() && !seconds.isZero()) ? null
					: QueueAnswers.polled(queue, leases, batch != null));
	}

	/**
	 * {@link #pushBatch} without a delay, answered when the store answers, on its thread;
	 * {@code null} when the batch has a message with a group and the queue is not yet
	 * known to have groups, which the caller then serves with {@link #pushBatch} on a
	 * thread that may wait.
	 */
	CompletableFuture<ResponseEntity<PushedBatch>> pushBatchAsync(String queue, byte[] body) throws IOException {
		List<OutgoingMessage> messages = this.json.messages(new ByteArrayInputStream(body), body.length,
				maxMessageBytes(queue));
		CompletableFuture<List<Sent>> sent = this.async.sendAll(queue, messages);
		return (sent != null) ? sent.thenApply(pushed -> QueueAnswers.pushed(queue, pushed)) : null;
	}

	/** {@link #completeBatch}, answered when the store answers, on its thread. */
	CompletableFuture<ResponseEntity<CompletionResults>> completeBatchAsync(String queue, byte[] body)
			throws IOException {
		List<BatchEntry> entries = this.json.completions(new ByteArrayInputStream(body), body.length);
		return this.async.completeAll(queue, entries).thenApply(outcomes -> completed(entries, outcomes));
	}

	/** {@link #complete}, answered when the store answers, on its thread. */
	CompletableFuture<ResponseEntity<Void>> completeAsync(String queue, long id, String ifMatch) {
		return this.async.complete(queue, id, LeaseETags.fromIfMatch(ifMatch))
			.thenApply(completion -> QueueAnswers.completed(queue, id, completion));
	}

	/** The largest body a push to {@code queue} may carry. */
	int maxMessageBytes(String queue) {
		return this.operations.maxMessageBytes(queue);
	}

	/**
	 * Poll, and with {@code wait} a long poll: answered at once when a message is ready
	 * or the wait is zero, else suspended by {@code waits} (holding no thread) until the
	 * application layer answers it.
	 * @param max the {@code max} parameter, {@code null} when absent
	 * @param wait the {@code wait} parameter, {@code null} when absent (not a long poll)
	 * @param lease the {@code lease} parameter, {@code null} when absent
	 * @param waits the adapter's way to suspend the request and write its answer later
	 * @return the answer, or {@code null} when the poll waits
	 */
	ResponseEntity<?> poll(String queue, String max, String wait, String lease, Waits waits) {
		if (wait == null) {
			Integer batch = RequestValidation.maxMessages(max);
			return QueueAnswers.polled(queue,
					this.operations.lease(queue, (batch != null) ? batch : 1, RequestValidation.leaseSeconds(lease)),
					batch != null);
		}
		// checked in this order, so that a request with several bad parameters is told
		// the same one it always was
		Duration seconds = RequestValidation.waitSeconds(wait);
		Integer batch = RequestValidation.maxMessages(max);
		LongPoll poll = this.operations.awaitLease(queue, (batch != null) ? batch : 1, seconds,
				RequestValidation.leaseSeconds(lease));
		List<Received> now = poll.getNow(null);
		if (now != null) {
			return QueueAnswers.polled(queue, now, batch != null);
		}
		Consumer<ResponseEntity<?>> waiting = waits.suspend(Limits.asyncTimeout(seconds), poll::end);
		poll.thenAccept(leases -> waiting.accept(QueueAnswers.polled(queue, leases, batch != null)));
		return null;
	}

	/** How an adapter suspends a long poll until its answer is found. */
	@FunctionalInterface
	interface Waits {

		/**
		 * Suspends the request, holding no thread.
		 * @param timeout the adapter's own deadline, a backstop: the wait plus a grace
		 * @param end ends the wait, answering it with nothing unless it was answered
		 * already: called at the deadline and when the connection fails
		 * @return takes the answer, from any thread, and has it written
		 */
		Consumer<ResponseEntity<?>> suspend(Duration timeout, Runnable end);

	}

	/**
	 * Complete one message, with the lease named in {@code If-Match} when there is one.
	 * @param ifMatch the {@code If-Match} header, {@code null} when absent
	 */
	ResponseEntity<Void> complete(String queue, long id, String ifMatch) {
		return QueueAnswers.completed(queue, id, this.operations.complete(queue, id, LeaseETags.fromIfMatch(ifMatch)));
	}

	/**
	 * The route table: each hot route's method and pattern (under {@link Routes#QUEUES}),
	 * which {@link HotRouteHandler} matches and times requests with
	 * ({@code http.server.requests}'s {@code method} and {@code uri}, as Spring MVC tags
	 * the same mapping). {@link MessageController} maps the same paths, named by their
	 * {@link Routes} constants since an annotation takes only constants.
	 */
	enum Route {

		/** {@link HotRoutes#push}, and {@link HotRoutes#pushJson} for a JSON body. */
		PUSH("POST", Routes.MESSAGES),

		/** {@link HotRoutes#poll}, also long. */
		POLL("GET", Routes.MESSAGES),

		/** {@link HotRoutes#complete}. */
		COMPLETE("DELETE", Routes.MESSAGE),

		/** {@link HotRoutes#pushBatch}. */
		PUSH_BATCH("POST", Routes.BATCH),

		/** {@link HotRoutes#completeBatch}. */
		COMPLETE_BATCH("POST", Routes.COMPLETIONS);

		private static final Route[] ALL = values();

		private static final String BATCH_TAIL = "/" + Routes.BATCH_SEGMENT;

		private static final String COMPLETIONS_TAIL = "/" + Routes.COMPLETIONS_SEGMENT;

		private final String method;

		/** Its path under {@link Routes#QUEUES}, one of the {@link Routes} constants. */
		private final String path;

		private final String pattern;

		Route(String method, String path) {
			this.method = method;
			this.path = path;
			this.pattern = Routes.QUEUES + path;
		}

		String method() {
			return this.method;
		}

		/** The full pattern, as {@code http.server.requests} tags it. */
		String pattern() {
			return this.pattern;
		}

		/** Whether the path ends with a message's id ({@code /{id}}). */
		boolean namesMessage() {
			return this == COMPLETE;
		}

		/** Whether the request carries a body: a push or a batch. */
		boolean carriesBody() {
			return this == PUSH || this == PUSH_BATCH || this == COMPLETE_BATCH;
		}

		/**
		 * The route for a request's method and what its path holds from
		 * {@code tailStart}, after a queue's {@code /messages}: nothing, {@code /batch},
		 * {@code /completions} or {@code /{id}}.
		 * @return the route, or {@code null} when none matches
		 */
		static Route match(String method, String requestPath, int tailStart) {
			String path = (tailStart == requestPath.length()) ? Routes.MESSAGES
					: endsWith(requestPath, tailStart, BATCH_TAIL) ? Routes.BATCH
							: endsWith(requestPath, tailStart, COMPLETIONS_TAIL) ? Routes.COMPLETIONS : Routes.MESSAGE;
			for (Route route : ALL) {
				if (route.path.equals(path) && route.method.equals(method)) {
					return route;
				}
			}
			return null;
		}

		private static boolean endsWith(String path, int from, String tail) {
			return path.length() - from == tail.length() && path.startsWith(tail, from);
		}

	}

}
