package io.github.qsbench.rest;

import io.github.qsbench.http.AsyncAnswers;
import io.github.qsbench.http.SuspendedRequests;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;

import io.github.qsbench.application.Limits;
import io.github.qsbench.application.OutgoingMessage;
import io.github.qsbench.application.messages.MessageOperations;
import io.github.qsbench.rest.MessageResponses.BrowsedBatch;
import io.github.qsbench.rest.MessageResponses.CompletionResults;
import io.github.qsbench.rest.MessageResponses.Delivered;
import io.github.qsbench.rest.MessageResponses.DeliveredBatch;
import io.github.qsbench.rest.MessageResponses.Pushed;
import io.github.qsbench.rest.MessageResponses.PushedBatch;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import tools.jackson.databind.ObjectWriter;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The message path of the queue API through Spring MVC, and its OpenAPI description: push
 * (also in JSON form and in batches), poll (also long and in batches), look, browse,
 * complete by id (also in batches) and change a lease. An adapter: it reads what the
 * request carries, calls {@link MessageOperations} and answers with {@link QueueAnswers};
 * push, poll, long poll and complete are the {@link HotRoutes}' handlers, which
 * {@link HotRouteHandler} calls for the plain requests it takes first. Every error
 * answers {@code application/problem+json}.
 */
@RestController
@RequestMapping(path = Routes.QUEUES, produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "queues")
class MessageController {

	private static final String QUEUE_NAME = QueueController.QUEUE_NAME;

	private static final String QUEUE_PATTERN = QueueController.QUEUE_PATTERN;

	private static final String MAX = "Deliver up to this many messages (1 to " + Limits.MAX_BATCH
			+ "), answered as {\"messages\":[...]}";

	private static final String DELAY = "Seconds before the message may be delivered, 0 to " + Limits.MAX_DELAY_SECONDS
			+ " (none: the queue's delay)";

	private static final String GROUP = "The message group (SQS's MessageGroupId: 1 to 128 of ASCII's letters, digits "
			+ "and punctuation): on a standard queue the tenant of a fair queue (a noisy tenant's backlog is delivered "
			+ "after the quiet tenants' messages), on a FIFO queue its group (required there); in JSON form, the body's "
			+ "group field or this, not two different ones";

	private final MessageOperations messages;

	/** Push, poll, long poll and complete, as the fast path answers them. */
	private final HotRoutes routes;

	private final JsonRequests json;

	private final AsyncAnswers<ResponseEntity<?>> waits;

	MessageController(MessageOperations messages, HotRoutes routes, SuspendedRequests suspended, JsonMapper mapper) {
		this.messages = messages;
		this.routes = routes;
		ObjectWriter writer = mapper.writer();
		this.waits = new AsyncAnswers<>(suspended, (answer, response) -> QueueAnswers.write(answer, response, writer),
				null);
		this.json = new JsonRequests(messages.maxMessageBytes());
	}

	@PostMapping(Routes.MESSAGES)
	@Operation(summary = "Push a message; creates the queue if needed",
			requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
					description = "The message: non-empty text (UTF-8 unless the Content-Type declares a charset) "
							+ "up to the queue's maxMessageBytes (qs.max-message-size, 1 MiB by default, unless the "
							+ "queue has its own), its bytes as sent whatever the content "
							+ "type (a form or multipart body too); or, as application/json, "
							+ "{\"body\",\"attributes\",\"group\"} with up to 10 typed attributes",
					content = { @Content(mediaType = "text/plain", schema = @Schema(type = "string", minLength = 1)),
							@Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
									schema = @Schema(implementation = OpenApiBodies.PushMessage.class)) }))
	@ApiResponse(responseCode = "201", description = "Accepted",
			headers = @Header(name = "Location", description = "The message", schema = @Schema(type = "string")))
	@ApiResponse(responseCode = "400",
			description = "Bad queue name or delay, empty body, or bytes invalid in its charset")
	@ApiResponse(responseCode = "415", description = "Malformed Content-Type or unknown charset")
	@ApiResponse(responseCode = "413", description = "Body larger than the queue's maxMessageBytes")
	@ApiResponse(responseCode = "429", description = "A cap under qs.limits is reached; the problem names it",
			headers = @Header(name = "Retry-After", description = "Seconds", schema = @Schema(type = "integer")))
	ResponseEntity<Pushed> push(
			@PathVariable @Parameter(description = QUEUE_NAME, schema = @Schema(pattern = QUEUE_PATTERN)) String queue,
			@RequestParam(required = false) @Parameter(description = DELAY,
					schema = @Schema(type = "integer", minimum = "0",
							maximum = "" + Limits.MAX_DELAY_SECONDS)) String delay,
			@RequestParam(required = false) @Parameter(description = GROUP,
					schema = @Schema(type = "string", pattern = OutgoingMessage.ID_PATTERN)) String group,
			HttpServletRequest request) throws IOException {
		return this.routes.push(queue, delay, group, request);
	}

	/**
	 * A push in JSON form, with attributes (documented with {@link #push}: one operation
	 * in OpenAPI).
	 */
	@PostMapping(path = Routes.MESSAGES, consumes = MediaType.APPLICATION_JSON_VALUE)
	@Operation(hidden = true)
	ResponseEntity<Pushed> pushJson(@PathVariable String queue, @RequestParam(required = false) String delay,
			@RequestParam(required = false) String group, HttpServletRequest request) throws IOException {
		try (InputStream in = request.getInputStream()) {
			return this.routes.pushJson(queue, delay, group, in, request.getContentLengthLong());
		}
	}

	@PostMapping(path = Routes.BATCH, consumes = MediaType.APPLICATION_JSON_VALUE)
	@Operation(
			summary = "Push 1 to " + Limits.MAX_BATCH
					+ " messages at once, in order, all or none; creates the queue if needed",
			requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
					description = "The bodies: each non-empty, at most the queue's maxMessageBytes in UTF-8",
					content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
							schema = @Schema(implementation = OpenApiBodies.PushBatch.class))))
	@ApiResponse(responseCode = "201", description = "All accepted; the ids in push order")
	@ApiResponse(responseCode = "400",
			description = "Bad queue name or delay, malformed batch, no or over " + Limits.MAX_BATCH
					+ " bodies, an empty body or one " + "that is not text")
	@ApiResponse(responseCode = "413",
			description = "A body larger than the queue's maxMessageBytes, or the request larger than "
					+ Limits.MAX_BATCH + " of them plus 64 KiB")
	@ApiResponse(responseCode = "415", description = "Not application/json")
	@ApiResponse(responseCode = "429",
			description = "The batch would cross a cap under qs.limits; nothing was pushed. The problem names the cap",
			headers = @Header(name = "Retry-After", description = "Seconds", schema = @Schema(type = "integer")))
	ResponseEntity<PushedBatch> pushBatch(
			@PathVariable @Parameter(description = QUEUE_NAME, schema = @Schema(pattern = QUEUE_PATTERN)) String queue,
			@RequestParam(required = false) @Parameter(description = DELAY,
					schema = @Schema(type = "integer", minimum = "0",
							maximum = "" + Limits.MAX_DELAY_SECONDS)) String delay,
			HttpServletRequest request) throws IOException {
		try (InputStream in = request.getInputStream()) {
			return this.routes.pushBatch(queue, delay, in, request.getContentLengthLong());
		}
	}

	@GetMapping(Routes.MESSAGES)
	@Operation(
			summary = "Poll the first ready message, or up to max, leasing each to the caller; "
					+ "with wait, a long poll",
			description = "Without max: one message, its lease also as ETag. With max: {\"messages\":[...]}. "
					+ "With wait: answers as soon as a push makes a message ready, 204 when the wait ends with none.")
	@Parameter(name = "wait", in = ParameterIn.QUERY,
			description = "Long poll: seconds to wait for a message, 0 to " + Limits.MAX_WAIT_SECONDS
					+ " (none: answer at once)",
			schema = @Schema(type = "integer", minimum = "0", maximum = "" + Limits.MAX_WAIT_SECONDS))
	@ApiResponse(responseCode = "200",
			description = "Delivered; complete before the lease expires. "
					+ "One message without max, {\"messages\":[...]} (1 to max) with it; "
					+ "with peek, a browse: {\"messages\":[...]} as they are, nothing leased",
			headers = @Header(name = "ETag",
					description = "Without max: the lease of this delivery, quoted; send it back in If-Match",
					schema = @Schema(type = "string")),
			content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
					schema = @Schema(anyOf = { Delivered.class, DeliveredBatch.class, BrowsedBatch.class })))
	@ApiResponse(responseCode = "204", description = "Nothing ready (when the wait ended, for a long poll)",
			content = @Content)
	@ApiResponse(responseCode = "400", description = "Bad queue name, max, wait or lease")
	ResponseEntity<?> poll(
			@PathVariable @Parameter(description = QUEUE_NAME, schema = @Schema(pattern = QUEUE_PATTERN)) String queue,
			@RequestParam(required = false) @Parameter(description = MAX,
					schema = @Schema(type = "integer", minimum = "1", maximum = "" + Limits.MAX_BATCH)) String max,
			@RequestParam(required = false) @Parameter(
					description = "Seconds the delivered messages stay leased, 0 to " + Limits.MAX_LEASE_SECONDS + " "
							+ "(0: ready again at once; none: the queue's lease)",
					schema = @Schema(type = "integer", minimum = "0",
							maximum = "" + Limits.MAX_LEASE_SECONDS)) String lease) {
		return this.routes.poll(queue, max, null, lease, null);
	}

	/**
	 * A long poll (documented with {@link #poll}: one operation in OpenAPI), for requests
	 * that {@link HotRouteHandler} leaves to Spring MVC: suspended in the servlet's async
	 * mode when it waits; its answer is written on the async dispatch, which comes back
	 * to {@link FastPathConfiguration.AsyncQueueAnswers}, and timed by Spring's
	 * observation filter, which this request passed.
	 * @return the answer, or {@code null} when the poll waits
	 */
	@GetMapping(path = Routes.MESSAGES, params = { "wait", "!peek" })
	@Operation(hidden = true)
	ResponseEntity<?> longPoll(@PathVariable String queue, @RequestParam(required = false) String max,
			@RequestParam String wait, @RequestParam(required = false) String lease, HttpServletRequest request,
			HttpServletResponse response) {
		long start = System.nanoTime();
		return this.routes.poll(queue, max, wait, lease,
				(timeout, end) -> this.waits.suspend(request, response, start, timeout, end)::answer);
	}

	/**
	 * A safe look: whether a message is ready, without leasing it. Without this mapping
	 * Spring would answer HEAD by running the GET, and a HEAD would take a message out of
	 * circulation for a lease.
	 */
	@RequestMapping(path = Routes.MESSAGES, method = RequestMethod.HEAD)
	@Operation(summary = "Whether a message is ready, without polling it")
	@ApiResponse(responseCode = "200", description = "A message is ready", content = @Content)
	@ApiResponse(responseCode = "204", description = "Nothing ready", content = @Content)
	@ApiResponse(responseCode = "400", description = "Bad queue name")
	ResponseEntity<Void> peek(@PathVariable @Parameter(description = QUEUE_NAME,
			schema = @Schema(pattern = QUEUE_PATTERN)) String queue) {
		return this.messages.hasReady(queue) ? ResponseEntity.ok().build() : ResponseEntity.noContent().build();
	}

	@GetMapping(path = Routes.MESSAGES, params = "peek")
	@Operation(summary = "Browse: up to peek messages from the head with their state, leasing nothing",
			description = "Messages not completed, in the order polls would take them: those whose lease lapsed "
					+ "and ready ones, and those in flight, with state ready or inflight and their delivery count. "
					+ "With peek, max, wait and lease are checked but not used: a browse leases nothing and never waits.")
	@ApiResponse(responseCode = "200", description = "{\"messages\":[...]}, empty if the queue holds none")
	@ApiResponse(responseCode = "400", description = "Bad queue name or peek")
	BrowsedBatch browse(
			@PathVariable @Parameter(description = QUEUE_NAME, schema = @Schema(pattern = QUEUE_PATTERN)) String queue,
			@RequestParam(required = false) @Parameter(
					description = "How many messages to show, 1 to " + Limits.MAX_BATCH,
					schema = @Schema(type = "integer", minimum = "1", maximum = "" + Limits.MAX_BATCH)) String peek,
			@RequestParam @Parameter(hidden = true) Map<String, String> query) {
		RequestValidation.pollParametersBesideBrowse(query);
		return BrowsedBatch.of(queue, this.messages.peek(queue, RequestValidation.peekCount(peek)));
	}

	@DeleteMapping(Routes.MESSAGE)
	@Operation(summary = "Complete a delivered message so it is never delivered again")
	@ApiResponse(responseCode = "204", description = "Completed")
	@ApiResponse(responseCode = "400", description = "Bad queue name, malformed id or malformed If-Match")
	@ApiResponse(responseCode = "404", description = "No such message in that queue, or completed already")
	@ApiResponse(responseCode = "409", description = "The message was never delivered")
	@ApiResponse(responseCode = "412", description = "If-Match names a lease that is no longer the message's "
			+ "current delivery: it was delivered again since")
	ResponseEntity<Void> complete(
			@PathVariable @Parameter(description = QUEUE_NAME, schema = @Schema(pattern = QUEUE_PATTERN)) String queue,
			@PathVariable @Parameter(description = "A positive id as returned by a push",
					schema = @Schema(type = "integer", format = "int64", minimum = "1")) String id,
			@RequestHeader(name = HttpHeaders.IF_MATCH, required = false) @Parameter(
					description = "The poll's ETag: complete only if that delivery is still the current one",
					schema = @Schema(pattern = LeaseETags.IF_MATCH_REGEX)) String ifMatch)
			throws HttpRequestMethodNotSupportedException {
		refuseOnBatchResource(id, HttpMethod.DELETE);
		return this.routes.complete(queue, RequestValidation.messageId(id), ifMatch);
	}

	@PatchMapping(path = Routes.MESSAGE, consumes = MediaType.APPLICATION_JSON_VALUE)
	@Operation(summary = "Change the lease of a delivered message: extend it, or end it at once",
			description = "The lease named in If-Match ends leaseSeconds from now (0: the message is ready again at "
					+ "once, for the next poll); the lease token stays the same, so the holder completes with it as "
					+ "before. SQS's ChangeMessageVisibility.",
			requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
					content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
							schema = @Schema(implementation = OpenApiBodies.LeaseChangeBody.class))))
	@ApiResponse(responseCode = "204", description = "Changed")
	@ApiResponse(responseCode = "400", description = "Bad queue name, id, If-Match or body, or a lease out of range")
	@ApiResponse(responseCode = "404", description = "No such message in that queue, or completed already")
	@ApiResponse(responseCode = "409", description = "The message was never delivered")
	@ApiResponse(responseCode = "412",
			description = "If-Match names a lease that is no longer the message's current delivery")
	@ApiResponse(responseCode = "415", description = "Not application/json")
	@ApiResponse(responseCode = "428", description = "No If-Match: a lease change names the lease it changes")
	ResponseEntity<Void> changeLease(
			@PathVariable @Parameter(description = QUEUE_NAME, schema = @Schema(pattern = QUEUE_PATTERN)) String queue,
			@PathVariable @Parameter(description = "A positive id as returned by a push",
					schema = @Schema(type = "integer", format = "int64", minimum = "1")) String id,
			@RequestHeader(name = HttpHeaders.IF_MATCH, required = false) @Parameter(required = true,
					description = "The poll's ETag: the lease to change (* for the current delivery's)",
					schema = @Schema(pattern = LeaseETags.IF_MATCH_REGEX)) String ifMatch,
			HttpServletRequest request) throws IOException, HttpRequestMethodNotSupportedException {
		refuseOnBatchResource(id, HttpMethod.PATCH);
		long messageId = RequestValidation.messageId(id);
		if (ifMatch == null) {
			throw ApiProblem.preconditionRequired("Lease required",
					"A lease change names the lease it changes in If-Match: the poll's ETag.");
		}
		int leaseSeconds;
		try (InputStream in = request.getInputStream()) {
			leaseSeconds = this.json.leaseChange(in, request.getContentLengthLong());
		}
		return QueueAnswers.leaseChanged(queue, messageId,
				this.messages.changeLease(queue, messageId, LeaseETags.fromIfMatch(ifMatch), leaseSeconds));
	}

	@PostMapping(path = Routes.COMPLETIONS, consumes = MediaType.APPLICATION_JSON_VALUE)
	@Operation(summary = "Complete 1 to " + Limits.MAX_BATCH + " delivered messages at once",
			description = "Each entry is completed as a DELETE of its id would be (with If-Match when it names a lease); "
					+ "the results say, per entry and in order, the status that DELETE would have answered",
			requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
					content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
							schema = @Schema(implementation = OpenApiBodies.CompletionBatch.class))))
	@ApiResponse(responseCode = "200",
			description = "Every entry tried; each result is 204 completed, 404 no such message, "
					+ "409 never delivered, or 412 its lease is no longer current")
	@ApiResponse(responseCode = "400",
			description = "Bad queue name, malformed batch or lease, no or over " + Limits.MAX_BATCH
					+ " entries; nothing was completed")
	@ApiResponse(responseCode = "413", description = "Request larger than the batch limit")
	@ApiResponse(responseCode = "415", description = "Not application/json")
	ResponseEntity<CompletionResults> completeBatch(
			@PathVariable @Parameter(description = QUEUE_NAME, schema = @Schema(pattern = QUEUE_PATTERN)) String queue,
			HttpServletRequest request) throws IOException {
		try (InputStream in = request.getInputStream()) {
			return this.routes.completeBatch(queue, in, request.getContentLengthLong());
		}
	}

	/**
	 * Refuses {@code method} on the batch resources, which the message mappings match
	 * only because their last segment looks like an id: they take {@code POST} alone.
	 */
	private static void refuseOnBatchResource(String id, HttpMethod method)
			throws HttpRequestMethodNotSupportedException {
		if (id.equals(Routes.BATCH_SEGMENT) || id.equals(Routes.COMPLETIONS_SEGMENT)) {
			throw new HttpRequestMethodNotSupportedException(method.name(), List.of(HttpMethod.POST.name()));
		}
	}

}
