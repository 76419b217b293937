package io.github.qsbench.web;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import io.github.qsbench.config.QueueServiceProperties;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.CapacityExceededException;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.Lease;
import io.github.qsbench.core.Message;
import io.github.qsbench.core.QueueStats;
import io.github.qsbench.metrics.QueueMetrics;
import io.github.qsbench.web.BatchRequests.CompletionRequest;
import io.github.qsbench.web.LongPolls.Waiter;
import io.github.qsbench.web.MessageResponses.CompletionResult;
import io.github.qsbench.web.MessageResponses.CompletionResults;
import io.github.qsbench.web.MessageResponses.Delivered;
import io.github.qsbench.web.MessageResponses.DeliveredBatch;
import io.github.qsbench.web.MessageResponses.Pushed;
import io.github.qsbench.web.MessageResponses.PushedBatch;
import io.github.qsbench.web.MessageResponses.Queues;
import io.swagger.v3.oas.annotations.OpenAPIDefinition;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.info.Info;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;

/**
 * The queue API: push, poll (also long and in batches), complete by id (also in batches),
 * and queue listings. Annotated for the OpenAPI description at {@code /v3/api-docs};
 * every error answers {@code application/problem+json}.
 */
@RestController
@RequestMapping(path = "/queues", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "queues")
@OpenAPIDefinition(info = @Info(title = "queue-service", version = "1",
		description = "In-memory message queue. A polled message not completed within its lease is delivered again. "
				+ "Messages live in memory only."))
class QueueController {

	private static final String PROBLEM = "application/problem+json";

	private static final String QUEUE_NAME = "1 to 80 characters of A-Z a-z 0-9 _ -";

	private static final String QUEUE_PATTERN = "^" + RequestValidation.QUEUE_NAME_REGEX + "$";

	private static final String MAX = "Deliver up to this many messages (1 to 100), answered as {\"messages\":[...]}";

	/** The longest a long poll may wait, as SQS allows. */
	private static final int MAX_WAIT_SECONDS = 20;

	/**
	 * The servlet async timeout beyond a long poll's wait: a backstop only, since
	 * {@link LongPolls} answers every waiter when its wait ends.
	 */
	private static final long ASYNC_TIMEOUT_GRACE_MILLIS = 5_000;

	private final QueueServiceCore service;

	private final QueueMetrics metrics;

	private final LongPolls longPolls;

	private final int maxMessageBytes;

	private final BatchRequests batches;

	QueueController(QueueServiceCore service, QueueMetrics metrics, LongPolls longPolls,
			QueueServiceProperties properties) {
		this.service = service;
		this.metrics = metrics;
		this.longPolls = longPolls;
		this.maxMessageBytes = (int) properties.maxMessageSize().toBytes();
		this.batches = new BatchRequests(this.maxMessageBytes);
	}

	@PostMapping("/{queue}/messages")
	@Operation(summary = "Push a message; creates the queue if needed",
			requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
					description = "The message: non-empty text (UTF-8 unless the Content-Type declares a charset) "
							+ "up to qs.max-message-size (256 KiB by default)",
					content = @Content(mediaType = "text/plain", schema = @Schema(type = "string", minLength = 1))))
	@ApiResponse(responseCode = "201", description = "Accepted",
			headers = @Header(name = "Location", description = "The message", schema = @Schema(type = "string")))
	@ApiResponse(responseCode = "400", description = "Bad queue name, empty body, or bytes invalid in its charset",
			content = @Content(mediaType = PROBLEM, schema = @Schema(implementation = ProblemBody.class)))
	@ApiResponse(responseCode = "415", description = "Malformed Content-Type or unknown charset",
			content = @Content(mediaType = PROBLEM, schema = @Schema(implementation = ProblemBody.class)))
	@ApiResponse(responseCode = "413", description = "Body larger than qs.max-message-size",
			content = @Content(mediaType = PROBLEM, schema = @Schema(implementation = ProblemBody.class)))
	@ApiResponse(responseCode = "429", description = "A cap under qs.limits is reached; the problem names it",
			headers = @Header(name = "Retry-After", description = "Seconds", schema = @Schema(type = "integer")),
			content = @Content(mediaType = PROBLEM, schema = @Schema(implementation = ProblemBody.class)))
	ResponseEntity<Pushed> push(
			@PathVariable @Parameter(description = QUEUE_NAME, schema = @Schema(pattern = QUEUE_PATTERN)) String queue,
			HttpServletRequest request) throws IOException {
		RequestValidation.queueName(queue);
		Charset charset = RequestValidation.charset(request.getHeader(HttpHeaders.CONTENT_TYPE));
		byte[] body;
		try (InputStream in = request.getInputStream()) {
			body = RequestValidation.body(in, request.getContentLengthLong(), this.maxMessageBytes, charset);
		}
		Message message;
		try {
			message = this.service.push(queue, body);
		}
		catch (CapacityExceededException ex) {
			this.metrics.refused(ex.limit());
			throw ApiProblem.full(ex);
		}
		this.metrics.pushed(1);
		this.longPolls.pushed(queue);
		// a plain header: a valid name and an id need no escaping, and parsing a URI per
		// push costs more than the push
		return ResponseEntity.status(HttpStatus.CREATED)
			.header(HttpHeaders.LOCATION, "/queues/" + queue + "/messages/" + message.id())
			.body(Pushed.of(queue, message));
	}

	@PostMapping(path = "/{queue}/messages/batch", consumes = MediaType.APPLICATION_JSON_VALUE)
	@Operation(summary = "Push 1 to 100 messages at once, in order, all or none; creates the queue if needed",
			requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
					description = "The bodies: each non-empty, at most qs.max-message-size in UTF-8",
					content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
							schema = @Schema(implementation = BatchRequests.PushBatch.class))))
	@ApiResponse(responseCode = "201", description = "All accepted; the ids in push order")
	@ApiResponse(responseCode = "400",
			description = "Bad queue name, malformed batch, no or over 100 bodies, an empty body or one that is not text",
			content = @Content(mediaType = PROBLEM, schema = @Schema(implementation = ProblemBody.class)))
	@ApiResponse(responseCode = "413",
			description = "A body larger than qs.max-message-size, or the request larger than 100 of them plus 64 KiB",
			content = @Content(mediaType = PROBLEM, schema = @Schema(implementation = ProblemBody.class)))
	@ApiResponse(responseCode = "415", description = "Not application/json",
			content = @Content(mediaType = PROBLEM, schema = @Schema(implementation = ProblemBody.class)))
	@ApiResponse(responseCode = "429",
			description = "The batch would cross a cap under qs.limits; nothing was pushed. The problem names the cap",
			headers = @Header(name = "Retry-After", description = "Seconds", schema = @Schema(type = "integer")),
			content = @Content(mediaType = PROBLEM, schema = @Schema(implementation = ProblemBody.class)))
	ResponseEntity<PushedBatch> pushBatch(
			@PathVariable @Parameter(description = QUEUE_NAME, schema = @Schema(pattern = QUEUE_PATTERN)) String queue,
			HttpServletRequest request) throws IOException {
		RequestValidation.queueName(queue);
		List<byte[]> bodies;
		try (InputStream in = request.getInputStream()) {
			bodies = this.batches.bodies(in, request.getContentLengthLong());
		}
		List<Message> messages;
		try {
			messages = this.service.pushAll(queue, bodies);
		}
		catch (CapacityExceededException ex) {
			this.metrics.refused(ex.limit());
			throw ApiProblem.full(ex);
		}
		this.metrics.pushed(messages.size());
		this.longPolls.pushed(queue);
		return ResponseEntity.status(HttpStatus.CREATED).body(PushedBatch.of(queue, messages));
	}

	@GetMapping("/{queue}/messages")
	@Operation(
			summary = "Poll the first ready message, or up to max, leasing each to the caller; "
					+ "with wait, a long poll",
			description = "Without max: one message, its lease also as ETag. With max: {\"messages\":[...]}. "
					+ "With wait: answers as soon as a push makes a message ready, 204 when the wait ends with none.")
	@Parameter(name = "wait", in = ParameterIn.QUERY,
			description = "Long poll: seconds to wait for a message, 0 to 20 (none: answer at once)",
			schema = @Schema(type = "integer", minimum = "0", maximum = "20"))
	@ApiResponse(responseCode = "200",
			description = "Delivered; complete before the lease expires. "
					+ "One message without max, {\"messages\":[...]} (1 to max) with it",
			headers = @Header(name = "ETag",
					description = "Without max: the lease of this delivery, quoted; send it back in If-Match",
					schema = @Schema(type = "string")),
			content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
					schema = @Schema(anyOf = { Delivered.class, DeliveredBatch.class })))
	@ApiResponse(responseCode = "204", description = "Nothing ready (when the wait ended, for a long poll)",
			content = @Content)
	@ApiResponse(responseCode = "400", description = "Bad queue name, max or wait",
			content = @Content(mediaType = PROBLEM, schema = @Schema(implementation = ProblemBody.class)))
	ResponseEntity<?> poll(
			@PathVariable @Parameter(description = QUEUE_NAME, schema = @Schema(pattern = QUEUE_PATTERN)) String queue,
			@RequestParam(required = false) @Parameter(description = MAX,
					schema = @Schema(type = "integer", minimum = "1", maximum = "100")) String max) {
		RequestValidation.queueName(queue);
		Integer batch = maxMessages(max);
		return answer(queue, this.service.lease(queue, (batch != null) ? batch : 1), batch != null);
	}

	/**
	 * A long poll (documented with {@link #poll}: one operation in OpenAPI), for requests
	 * that {@link QueueFastPath} leaves to Spring MVC: as
	 * {@link #longPoll(String, String, String, Suspension)}, waiting in a
	 * {@link DeferredResult}.
	 */
	@GetMapping(path = "/{queue}/messages", params = "wait")
	@Operation(hidden = true)
	DeferredResult<ResponseEntity<?>> longPoll(@PathVariable String queue, @RequestParam(required = false) String max,
			@RequestParam String wait) {
		AtomicReference<DeferredResult<ResponseEntity<?>>> waiting = new AtomicReference<>();
		ResponseEntity<?> now = longPoll(queue, max, wait, (timeout, cancel) -> {
			DeferredResult<ResponseEntity<?>> result = new DeferredResult<>(timeout.toMillis());
			result.onTimeout(cancel);
			result.onError(error -> cancel.run());
			waiting.set(result);
			return result::setResult;
		});
		if (now == null) {
			return waiting.get();
		}
		DeferredResult<ResponseEntity<?>> answered = new DeferredResult<>();
		answered.setResult(now);
		return answered;
	}

	/**
	 * A long poll: answers at once when a message is ready or {@code wait} is zero, else
	 * waits without holding a thread: {@code suspension} puts the request in async mode,
	 * and {@link LongPolls} answers it when a push makes a message ready or the wait
	 * ends. The servlet's own async timeout is set a little beyond the wait, as a
	 * backstop only.
	 * @return the answer, or {@code null} if the poll waits: then it is answered through
	 * what {@code suspension} returned
	 */
	ResponseEntity<?> longPoll(String queue, String max, String wait, Suspension suspension) {
		RequestValidation.queueName(queue);
		int seconds = RequestValidation.number("wait", wait, 0, MAX_WAIT_SECONDS);
		Integer batch = maxMessages(max);
		int count = (batch != null) ? batch : 1;
		List<Lease> ready = this.service.lease(queue, count);
		if (!ready.isEmpty() || seconds == 0) {
			return answer(queue, ready, batch != null);
		}
		// set before the waiter registers, so before anything can answer it
		AtomicReference<Consumer<ResponseEntity<?>>> later = new AtomicReference<>();
		Waiter waiter = new Waiter(queue, count, leases -> later.get().accept(answer(queue, leases, batch != null)));
		later.set(suspension.suspend(Duration.ofSeconds(seconds).plusMillis(ASYNC_TIMEOUT_GRACE_MILLIS),
				() -> this.longPolls.close(waiter)));
		this.longPolls.await(waiter, Duration.ofSeconds(seconds));
		return null;
	}

	private static Integer maxMessages(String max) {
		return (max != null) ? RequestValidation.number("max", max, 1, BatchRequests.MAX_ENTRIES) : null;
	}

	/**
	 * The answer to a poll: 204 if nothing was leased, else the messages (or, for a poll
	 * without {@code max}, the one message with its lease as ETag). Never stored by a
	 * cache: a poll changes what the next one answers, and a cache revalidating a stored
	 * poll (If-None-Match) could be answered 304 for another message whose lease token
	 * happens to be the same.
	 */
	private ResponseEntity<?> answer(String queue, List<Lease> leases, boolean batch) {
		if (leases.isEmpty()) {
			this.metrics.emptyPoll();
			return ResponseEntity.noContent().cacheControl(CacheControl.noStore()).build();
		}
		this.metrics.delivered(leases);
		if (batch) {
			return ResponseEntity.ok().cacheControl(CacheControl.noStore()).body(DeliveredBatch.of(queue, leases));
		}
		Lease lease = leases.get(0);
		return ResponseEntity.ok()
			.cacheControl(CacheControl.noStore())
			.eTag(Leases.etag(lease))
			.body(Delivered.of(queue, lease));
	}

	/**
	 * A safe look: whether a message is ready, without leasing it. Without this mapping
	 * Spring would answer HEAD by running the GET, and a HEAD would take a message out of
	 * circulation for a lease.
	 */
	@RequestMapping(path = "/{queue}/messages", method = RequestMethod.HEAD)
	@Operation(summary = "Whether a message is ready, without polling it")
	@ApiResponse(responseCode = "200", description = "A message is ready", content = @Content)
	@ApiResponse(responseCode = "204", description = "Nothing ready", content = @Content)
	@ApiResponse(responseCode = "400", description = "Bad queue name", content = @Content)
	ResponseEntity<Void> peek(@PathVariable @Parameter(description = QUEUE_NAME,
			schema = @Schema(pattern = QUEUE_PATTERN)) String queue) {
		RequestValidation.queueName(queue);
		return this.service.hasReady(queue) ? ResponseEntity.ok().build() : ResponseEntity.noContent().build();
	}

	@DeleteMapping("/{queue}/messages/{id}")
	@Operation(summary = "Complete a delivered message so it is never delivered again")
	@ApiResponse(responseCode = "204", description = "Completed")
	@ApiResponse(responseCode = "400", description = "Bad queue name, malformed id or malformed If-Match",
			content = @Content(mediaType = PROBLEM, schema = @Schema(implementation = ProblemBody.class)))
	@ApiResponse(responseCode = "404", description = "No such message in that queue, or completed already",
			content = @Content(mediaType = PROBLEM, schema = @Schema(implementation = ProblemBody.class)))
	@ApiResponse(responseCode = "409", description = "The message was never delivered",
			content = @Content(mediaType = PROBLEM, schema = @Schema(implementation = ProblemBody.class)))
	@ApiResponse(responseCode = "412",
			description = "If-Match names a lease that is no longer the message's "
					+ "current delivery: it was delivered again since",
			content = @Content(mediaType = PROBLEM, schema = @Schema(implementation = ProblemBody.class)))
	ResponseEntity<Void> complete(
			@PathVariable @Parameter(description = QUEUE_NAME, schema = @Schema(pattern = QUEUE_PATTERN)) String queue,
			@PathVariable @Parameter(description = "A positive id as returned by a push",
					schema = @Schema(type = "integer", format = "int64", minimum = "1")) String id,
			@RequestHeader(name = HttpHeaders.IF_MATCH, required = false) @Parameter(
					description = "The poll's ETag: complete only if that delivery is still the current one",
					schema = @Schema(pattern = Leases.IF_MATCH_REGEX)) String ifMatch)
			throws HttpRequestMethodNotSupportedException {
		RequestValidation.queueName(queue);
		if (id.equals("batch") || id.equals("completions")) {
			// the batch resources, matched here only because they look like an id
			throw new HttpRequestMethodNotSupportedException(HttpMethod.DELETE.name(), List.of(HttpMethod.POST.name()));
		}
		long messageId = RequestValidation.messageId(id);
		int delivery = Leases.fromIfMatch(ifMatch, messageId);
		Completion completion = this.service.complete(queue, messageId, delivery);
		return switch (completion) {
			case COMPLETED -> {
				this.metrics.completed(1);
				yield ResponseEntity.noContent().build();
			}
			case NOT_FOUND -> throw ApiProblem.notFound("No such message", "Queue '" + queue + "' holds no message "
					+ messageId + ": it never existed there or was completed already.");
			case NOT_DELIVERED -> throw ApiProblem.conflict("Message not delivered",
					"Message " + messageId + " has not been polled yet; only a delivered message can be completed.");
			case STALE_LEASE -> throw ApiProblem.preconditionFailed("Lease no longer current", "Message " + messageId
					+ " was delivered again after the lease named in If-Match lapsed; its new holder completes it.");
		};
	}

	@PostMapping(path = "/{queue}/messages/completions", consumes = MediaType.APPLICATION_JSON_VALUE)
	@Operation(summary = "Complete 1 to 100 delivered messages at once",
			description = "Each entry is completed as a DELETE of its id would be (with If-Match when it names a lease); "
					+ "the results say, per entry and in order, the status that DELETE would have answered",
			requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
					content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
							schema = @Schema(implementation = BatchRequests.CompletionBatch.class))))
	@ApiResponse(responseCode = "200",
			description = "Every entry tried; each result is 204 completed, 404 no such message, "
					+ "409 never delivered, or 412 its lease is no longer current")
	@ApiResponse(responseCode = "400",
			description = "Bad queue name, malformed batch or lease, no or over 100 entries; nothing was completed",
			content = @Content(mediaType = PROBLEM, schema = @Schema(implementation = ProblemBody.class)))
	@ApiResponse(responseCode = "413", description = "Request larger than the batch limit",
			content = @Content(mediaType = PROBLEM, schema = @Schema(implementation = ProblemBody.class)))
	@ApiResponse(responseCode = "415", description = "Not application/json",
			content = @Content(mediaType = PROBLEM, schema = @Schema(implementation = ProblemBody.class)))
	ResponseEntity<CompletionResults> completeBatch(
			@PathVariable @Parameter(description = QUEUE_NAME, schema = @Schema(pattern = QUEUE_PATTERN)) String queue,
			HttpServletRequest request) throws IOException {
		RequestValidation.queueName(queue);
		List<CompletionRequest> entries;
		try (InputStream in = request.getInputStream()) {
			entries = this.batches.completions(in, request.getContentLengthLong());
		}
		List<CompletionResult> results = new ArrayList<>(entries.size());
		int completed = 0;
		for (CompletionRequest entry : entries) {
			Completion completion = this.service.complete(queue, entry.id(), entry.delivery());
			if (completion == Completion.COMPLETED) {
				completed++;
			}
			results.add(CompletionResult.of(entry.id(), completion));
		}
		this.metrics.completed(completed);
		return ResponseEntity.ok(new CompletionResults(results));
	}

	@GetMapping
	@Operation(summary = "Every queue with its ready and in-flight counts")
	Queues queues() {
		return new Queues(this.service.queues());
	}

	@GetMapping("/{queue}")
	@Operation(summary = "One queue's ready and in-flight counts")
	@ApiResponse(responseCode = "200", description = "The queue exists")
	@ApiResponse(responseCode = "400", description = "Bad queue name",
			content = @Content(mediaType = PROBLEM, schema = @Schema(implementation = ProblemBody.class)))
	@ApiResponse(responseCode = "404", description = "No such queue (never pushed to, or emptied and removed)",
			content = @Content(mediaType = PROBLEM, schema = @Schema(implementation = ProblemBody.class)))
	QueueStats queue(@PathVariable @Parameter(description = QUEUE_NAME,
			schema = @Schema(pattern = QUEUE_PATTERN)) String queue) {
		RequestValidation.queueName(queue);
		return this.service.queue(queue)
			.orElseThrow(() -> ApiProblem.notFound("No such queue",
					"Queue '" + queue + "' does not exist: it was never pushed to, or it was emptied and removed."));
	}

	/**
	 * How a long poll that has to wait is answered later: set up by whoever serves the
	 * request (Spring MVC with a {@link DeferredResult}, {@link QueueFastPath} with the
	 * servlet's async mode).
	 */
	@FunctionalInterface
	interface Suspension {

		/**
		 * Called once, on the request's thread, before the poll starts waiting.
		 * @param timeout the request's async timeout: the wait plus a grace
		 * @param cancel answers the poll with nothing unless it was answered already: for
		 * the request's own timeout and errors
		 * @return what answers the request, called once from whichever thread answers the
		 * waiter (a push, the wait's timer, shutdown, or this one)
		 */
		Consumer<ResponseEntity<?>> suspend(Duration timeout, Runnable cancel);

	}

}
