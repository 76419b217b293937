package io.github.qsbench.rest;

import io.github.qsbench.application.QueueNames;
import io.github.qsbench.http.AsyncAnswer;
import io.github.qsbench.http.AsyncAnswers;
import io.github.qsbench.http.SuspendedRequests;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.github.qsbench.application.PeekedMessage;
import io.github.qsbench.application.InvalidRequestException;
import io.github.qsbench.application.Limits;
import io.github.qsbench.application.MessageAttributes;
import io.github.qsbench.application.OutgoingMessage;
import io.github.qsbench.application.Received;
import io.github.qsbench.application.messages.LongPoll;
import io.github.qsbench.application.messages.MessageOperations.ToComplete;
import io.github.qsbench.application.messages.MessageOperations;
import io.github.qsbench.application.queues.DeadLetterPolicy;
import io.github.qsbench.application.queues.MessageMoveTask;
import io.github.qsbench.application.queues.MessageMoveTasks;
import io.github.qsbench.application.queues.QueueOperations;
import io.github.qsbench.application.queues.QueueSettings;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.QueueStats;
import io.github.qsbench.rest.MessageResponses.BrowsedBatch;
import io.github.qsbench.rest.MessageResponses.CompletionResult;
import io.github.qsbench.rest.MessageResponses.CompletionResults;
import io.github.qsbench.rest.MessageResponses.Delivered;
import io.github.qsbench.rest.MessageResponses.DeliveredBatch;
import io.github.qsbench.rest.MessageResponses.Pushed;
import io.github.qsbench.rest.MessageResponses.PushedBatch;
import io.github.qsbench.rest.MessageResponses.QueueView;
import io.github.qsbench.rest.MessageResponses.Queues;
import io.github.qsbench.rest.MessageResponses.Redriven;
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
import jakarta.servlet.http.HttpServletResponse;
import tools.jackson.databind.ObjectWriter;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The queue API through Spring MVC: push, poll (also long and in batches), complete by id
 * (also in batches), and queue listings. An adapter: it reads what the request carries,
 * calls {@link MessageOperations} and {@link QueueOperations} and answers with
 * {@link QueueAnswers}, as {@link QueueFastPath} does for the plain requests it takes
 * first. Annotated for the OpenAPI description at {@code /v3/api-docs}; every error
 * answers {@code application/problem+json}.
 */
@RestController
@RequestMapping(path = Routes.QUEUES, produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "queues")
@OpenAPIDefinition(info = @Info(title = "queue-service", version = "1",
		description = "A message queue, in memory or, with the redis strategy, in Redis. A polled message not "
				+ "completed within its lease is delivered again. Every error answers application/problem+json."))
class QueueController {

	private static final String QUEUE_NAME = "1 to 80 characters of A-Z a-z 0-9 _ -";

	static final String QUEUE_PATTERN = "^" + QueueNames.QUEUE_NAME_REGEX + "$";

	private static final String MAX = "Deliver up to this many messages (1 to " + Limits.MAX_BATCH
			+ "), answered as {\"messages\":[...]}";

	private static final String RESPOND_ASYNC = "respond-async";

	private static final String DELAY = "Seconds before the message may be delivered, 0 to " + Limits.MAX_DELAY_SECONDS
			+ " (none: the queue's delay)";

	private static final String GROUP = "The message group (SQS's MessageGroupId: 1 to 128 of ASCII's letters, digits "
			+ "and punctuation): on a standard queue the tenant of a fair queue (a noisy tenant's backlog is delivered "
			+ "after the quiet tenants' messages), on a FIFO queue its group (required there); in JSON form, the body's "
			+ "group field or this, not two different ones";

	private final MessageOperations messages;

	private final QueueOperations operations;

	private final InstantSource clock;

	private final JsonRequests json;

	/** Starts the redrives asked for with {@code Prefer: respond-async}. */
	private final MessageMoveTasks tasks;

	private final AsyncAnswers<ResponseEntity<?>> waits;

	QueueController(MessageOperations messages, QueueOperations operations, SuspendedRequests suspended,
			JsonMapper mapper, MessageMoveTasks tasks, InstantSource clock) {
		this.messages = messages;
		this.operations = operations;
		this.clock = clock;
		this.tasks = tasks;
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
									schema = @Schema(implementation = JsonRequests.PushMessage.class)) }))
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
		String checked = RequestValidation.group(group);
		byte[] body = RequestValidation.body(request, this.messages.maxMessageBytes(queue));
		return QueueAnswers.pushed(queue,
				this.messages.send(queue, new OutgoingMessage(body, MessageAttributes.NONE, checked, null),
						RequestValidation.delaySeconds(delay)));
	}

	/**
	 * A push in JSON form, with attributes (documented with {@link #push}: one operation
	 * in OpenAPI).
	 */
	@PostMapping(path = Routes.MESSAGES, consumes = MediaType.APPLICATION_JSON_VALUE)
	@Operation(hidden = true)
	ResponseEntity<Pushed> pushJson(@PathVariable String queue, @RequestParam(required = false) String delay,
			@RequestParam(required = false) String group, HttpServletRequest request) throws IOException {
		String checked = RequestValidation.group(group);
		OutgoingMessage message;
		try (InputStream in = request.getInputStream()) {
			message = this.json.message(in, request.getContentLengthLong(), this.messages.maxMessageBytes(queue));
		}
		if (checked != null && message.group() == null) {
			message = new OutgoingMessage(message.body(), message.attributes(), checked, message.deduplicationId());
		}
		else if (checked != null && !checked.equals(message.group())) {
			throw new InvalidRequestException("Two groups",
					"The group parameter and the body's group field name different groups; give one.");
		}
		return QueueAnswers.pushed(queue, this.messages.send(queue, message, RequestValidation.delaySeconds(delay)));
	}

	@PostMapping(path = Routes.BATCH, consumes = MediaType.APPLICATION_JSON_VALUE)
	@Operation(
			summary = "Push 1 to " + Limits.MAX_BATCH
					+ " messages at once, in order, all or none; creates the queue if needed",
			requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
					description = "The bodies: each non-empty, at most the queue's maxMessageBytes in UTF-8",
					content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
							schema = @Schema(implementation = JsonRequests.PushBatch.class))))
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
		List<OutgoingMessage> messages;
		try (InputStream in = request.getInputStream()) {
			messages = this.json.messages(in, request.getContentLengthLong(), this.messages.maxMessageBytes(queue));
		}
		return QueueAnswers.pushed(queue,
				this.messages.sendAll(queue, messages, RequestValidation.delaySeconds(delay)));
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
		Integer batch = RequestValidation.maxMessages(max);
		return QueueAnswers.polled(queue,
				this.messages.lease(queue, (batch != null) ? batch : 1, RequestValidation.leaseSeconds(lease)),
				batch != null);
	}

	/**
	 * A long poll (documented with {@link #poll}: one operation in OpenAPI), for requests
	 * that {@link QueueFastPath} leaves to Spring MVC: answered at once when a message is
	 * ready or {@code wait} is zero, else suspended as the fast path suspends its own
	 * ({@link AsyncAnswers}), holding no thread; its answer is written on the async
	 * dispatch, which comes back to the fast path's filter, and timed by Spring's
	 * observation filter, which this request passed.
	 * @return the answer, or {@code null} when the poll waits
	 */
	@GetMapping(path = Routes.MESSAGES, params = { "wait", "!peek" })
	@Operation(hidden = true)
	ResponseEntity<?> longPoll(@PathVariable String queue, @RequestParam(required = false) String max,
			@RequestParam String wait, @RequestParam(required = false) String lease, HttpServletRequest request,
			HttpServletResponse response) {
		Duration seconds = RequestValidation.waitSeconds(wait);
		Integer batch = RequestValidation.maxMessages(max);
		LongPoll poll = this.messages.awaitLease(queue, (batch != null) ? batch : 1, seconds,
				RequestValidation.leaseSeconds(lease));
		List<Received> now = poll.getNow(null);
		if (now != null) {
			return QueueAnswers.polled(queue, now, batch != null);
		}
		AsyncAnswer<ResponseEntity<?>> waiting = this.waits.suspend(request, response, System.nanoTime(),
				Limits.asyncTimeout(seconds), poll::end);
		poll.thenAccept(leases -> waiting.answer(QueueAnswers.polled(queue, leases, batch != null)));
		return null;
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

	@DeleteMapping(Routes.MESSAGES)
	@Operation(summary = "Purge: remove every message of the queue, ready or in flight",
			description = "Messages pushed while the purge runs may be removed too, as in SQS. "
					+ "A consumer holding a purged message gets 404 when it completes it.")
	@ApiResponse(responseCode = "204", description = "Purged (also when the queue held nothing)")
	@ApiResponse(responseCode = "400", description = "Bad queue name")
	ResponseEntity<Void> purge(@PathVariable @Parameter(description = QUEUE_NAME,
			schema = @Schema(pattern = QUEUE_PATTERN)) String queue) {
		this.operations.purge(queue);
		return ResponseEntity.noContent().build();
	}

	@DeleteMapping(Routes.QUEUE)
	@Operation(summary = "Delete a queue and its messages",
			description = "A queue created by a push goes when empty anyway; this also ends one that was created "
					+ "explicitly (SQS CreateQueue).")
	@ApiResponse(responseCode = "204", description = "Deleted")
	@ApiResponse(responseCode = "400", description = "Bad queue name")
	@ApiResponse(responseCode = "404", description = "No such queue")
	ResponseEntity<Void> deleteQueue(@PathVariable @Parameter(description = QUEUE_NAME,
			schema = @Schema(pattern = QUEUE_PATTERN)) String queue) {
		if (!this.operations.deleteQueue(queue)) {
			throw noSuchQueue(queue);
		}
		return ResponseEntity.noContent().build();
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
		if (id.equals(Routes.BATCH_SEGMENT) || id.equals(Routes.COMPLETIONS_SEGMENT)) {
			// the batch resources, matched here only because they look like an id
			throw new HttpRequestMethodNotSupportedException(HttpMethod.DELETE.name(), List.of(HttpMethod.POST.name()));
		}
		long messageId = RequestValidation.messageId(id);
		return QueueAnswers.completed(queue, messageId,
				this.messages.complete(queue, messageId, LeaseETags.fromIfMatch(ifMatch)));
	}

	@PatchMapping(path = Routes.MESSAGE, consumes = MediaType.APPLICATION_JSON_VALUE)
	@Operation(summary = "Change the lease of a delivered message: extend it, or end it at once",
			description = "The lease named in If-Match ends leaseSeconds from now (0: the message is ready again at "
					+ "once, for the next poll); the lease token stays the same, so the holder completes with it as "
					+ "before. SQS's ChangeMessageVisibility.",
			requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
					content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
							schema = @Schema(implementation = JsonRequests.LeaseChangeBody.class))))
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
		if (id.equals(Routes.BATCH_SEGMENT) || id.equals(Routes.COMPLETIONS_SEGMENT)) {
			// the batch resources, matched here only because they look like an id
			throw new HttpRequestMethodNotSupportedException(HttpMethod.PATCH.name(), List.of(HttpMethod.POST.name()));
		}
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
							schema = @Schema(implementation = JsonRequests.CompletionBatch.class))))
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
		List<ToComplete> entries;
		try (InputStream in = request.getInputStream()) {
			entries = this.json.completions(in, request.getContentLengthLong());
		}
		List<Completion> completions = this.messages.completeAll(queue, entries);
		List<CompletionResult> results = new ArrayList<>(entries.size());
		for (int i = 0; i < entries.size(); i++) {
			results.add(CompletionResult.of(entries.get(i).id(), completions.get(i)));
		}
		return ResponseEntity.ok(new CompletionResults(results));
	}

	@GetMapping
	@Operation(summary = "Every queue, created explicitly (empty or not) or holding messages, with its counts")
	Queues queues() {
		return new Queues(this.operations.queues());
	}

	@GetMapping(Routes.QUEUE)
	@Operation(summary = "One queue: its counts, its settings, whether it was created explicitly, the queues "
			+ "whose dead-letter queue it is (deadLetterSources, left out when none), and for a standard queue "
			+ "whose messages carry groups SQS's five fair-queue counts (fair, left out otherwise)")
	@ApiResponse(responseCode = "200", description = "The queue exists")
	@ApiResponse(responseCode = "400", description = "Bad queue name")
	@ApiResponse(responseCode = "404",
			description = "No such queue (never created nor pushed to, or emptied and removed, or deleted)")
	QueueView queue(@PathVariable @Parameter(description = QUEUE_NAME,
			schema = @Schema(pattern = QUEUE_PATTERN)) String queue) {
		QueueStats stats = this.operations.queue(queue).orElse(null);
		boolean explicit = this.operations.isExplicit(queue);
		if (stats == null && !explicit) {
			throw noSuchQueue(queue);
		}
		return view(queue, stats, explicit);
	}

	@PutMapping(path = Routes.QUEUE, consumes = MediaType.APPLICATION_JSON_VALUE)
	@Operation(summary = "Create a queue with settings, or change its settings",
			description = "A queue created here stays, empty or not, until deleted; one created by its first push "
					+ "is removed when empty. Fields left out keep their value. maxDeliveries (1 to "
					+ DeadLetterPolicy.MAX_DELIVERIES + ") and "
					+ "deadLetterQueue (an existing queue created here, or null for none) come together. "
					+ "leaseSeconds (0 to " + Limits.MAX_LEASE_SECONDS + "), delaySeconds (0 to "
					+ Limits.MAX_DELAY_SECONDS + ") and retentionSeconds (" + Limits.MIN_RETENTION_SECONDS + " to "
					+ Limits.MAX_RETENTION_SECONDS + ") "
					+ "are the queue's own lease, delay and retention, in place of the service's; "
					+ "maxMessageBytes (" + Limits.MIN_MESSAGE_BYTES + " to qs.max-message-size) the largest "
					+ "message it takes. tags are merged into the queue's (null removes one).",
			requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(
					content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
							schema = @Schema(implementation = OpenApiBodies.SettingsBody.class))))
	@ApiResponse(responseCode = "201", description = "Created")
	@ApiResponse(responseCode = "200", description = "Settings changed")
	@ApiResponse(responseCode = "400", description = "Bad queue name or settings")
	@ApiResponse(responseCode = "415", description = "Not application/json")
	@ApiResponse(responseCode = "429", description = "qs.limits.max-queues queues were created already")
	ResponseEntity<QueueView> configure(
			@PathVariable @Parameter(description = QUEUE_NAME, schema = @Schema(pattern = QUEUE_PATTERN)) String queue,
			HttpServletRequest request) throws IOException {
		QueueSettings.Change change;
		try (InputStream in = request.getInputStream()) {
			change = this.json.settings(in, request.getContentLengthLong());
		}
		boolean created = this.operations.configure(queue, change);
		QueueView view = view(queue, this.operations.queue(queue).orElse(null), true);
		return ResponseEntity.status(created ? HttpStatus.CREATED : HttpStatus.OK).body(view);
	}

	private QueueView view(String queue, QueueStats stats, boolean explicit) {
		List<PeekedMessage> head = (stats != null && stats.ready() + stats.inflight() + stats.delayed() > 0)
				? this.messages.peek(queue, 1) : List.of();
		return QueueView.of(queue, stats, head, this.clock.instant(), this.operations.settings(queue), explicit,
				this.operations.deadLetterSources(queue),
				this.operations.hasGroups(queue) ? this.operations.quietCounts(queue) : null);
	}

	@PostMapping(Routes.REDRIVE)
	@Operation(summary = "Move dead letters back to the queues they came from, or all to one queue",
			description = "Up to max (all if left out) messages leave this dead-letter queue, each as it was in "
					+ "its source: body and attributes, not yet delivered. At once, answered with how many moved; "
					+ "or, with Prefer: respond-async or a maxPerSecond (and no max, which asks for a move at "
					+ "once), by a move task in the background (SQS's StartMessageMoveTask): answered 202 with "
					+ "the task, its Location to follow it, at most maxPerSecond a second, one task per "
					+ "dead-letter queue.",
			requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = false,
					content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
							schema = @Schema(implementation = OpenApiBodies.RedriveBody.class))))
	@ApiResponse(responseCode = "200", description = "{\"moved\":n}",
			content = @Content(schema = @Schema(implementation = Redriven.class)))
	@ApiResponse(responseCode = "202", description = "A move task started (Prefer: respond-async)",
			headers = { @Header(name = "Location", description = "The task", schema = @Schema(type = "string")),
					@Header(name = "Preference-Applied", schema = @Schema(type = "string")) },
			content = @Content(schema = @Schema(implementation = MoveTaskView.class)))
	@ApiResponse(responseCode = "400", description = "Bad queue name, to, max or maxPerSecond")
	@ApiResponse(responseCode = "404", description = "For a task: no such queue, or no such destination")
	@ApiResponse(responseCode = "409",
			description = "For a task: not a dead-letter queue, or one is running on this queue already")
	ResponseEntity<?> redrive(
			@PathVariable @Parameter(description = QUEUE_NAME, schema = @Schema(pattern = QUEUE_PATTERN)) String queue,
			@RequestHeader(name = "Prefer", required = false) @Parameter(
					description = "respond-async: start a move task instead of moving at once") String prefer,
			HttpServletRequest request) throws IOException {
		JsonRequests.Redrive redrive;
		try (InputStream in = request.getInputStream()) {
			redrive = this.json.redrive(in, request.getContentLengthLong());
		}
		if (redrive.maxPerSecond() != null
				&& (redrive.maxPerSecond() < 1 || redrive.maxPerSecond() > MessageMoveTasks.MAX_PER_SECOND)) {
			throw InvalidRequestException.outOfRange("maxPerSecond", 1, MessageMoveTasks.MAX_PER_SECOND);
		}
		// a move task moves all the queue holds, so a max asks for a redrive at once (a
		// preference the server may decline, RFC 7240); a pace asks for a task
		if (redrive.max() == null && (respondAsync(prefer) || redrive.maxPerSecond() != null)) {
			MessageMoveTask task = this.tasks.start(queue, redrive.to(), redrive.maxPerSecond());
			return ResponseEntity.accepted()
				.location(URI.create(Routes.redriveTask(queue, task.handle())))
				.header("Preference-Applied", RESPOND_ASYNC)
				.body(MoveTaskView.of(task));
		}
		return ResponseEntity.ok(new Redriven(this.operations.redrive(queue, redrive.to(),
				(redrive.max() != null) ? redrive.max() : Integer.MAX_VALUE)));
	}

	/** Whether a {@code Prefer} header (RFC 7240) asks for {@code respond-async}. */
	private static boolean respondAsync(String prefer) {
		if (prefer == null) {
			return false;
		}
		for (String preference : prefer.split(",")) {
			String token = preference.strip();
			int parameters = token.indexOf(';');
			if (RESPOND_ASYNC.equalsIgnoreCase((parameters < 0) ? token : token.substring(0, parameters).strip())) {
				return true;
			}
		}
		return false;
	}

	private static ApiProblem noSuchQueue(String queue) {
		return ApiProblem.notFound("No such queue",
				"Queue '" + queue + "' does not exist: it was never pushed to, or it was emptied and removed.");
	}

}
