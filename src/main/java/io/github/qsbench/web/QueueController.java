package io.github.qsbench.web;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.util.List;

import io.github.qsbench.config.QueueServiceProperties;
import io.github.qsbench.core.AbstractQS;
import io.github.qsbench.core.CapacityExceededException;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.Lease;
import io.github.qsbench.core.Message;
import io.github.qsbench.core.QueueStats;
import io.github.qsbench.metrics.QueueMetrics;
import io.github.qsbench.web.MessageResponses.Delivered;
import io.github.qsbench.web.MessageResponses.Pushed;
import io.github.qsbench.web.MessageResponses.Queues;
import io.swagger.v3.oas.annotations.OpenAPIDefinition;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.info.Info;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RestController;

/**
 * The queue API: push, poll, complete by id, and queue listings. Annotated for the
 * OpenAPI description at {@code /v3/api-docs}; every error answers
 * {@code application/problem+json}.
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

	private final AbstractQS<?> service;

	private final QueueMetrics metrics;

	private final int maxMessageBytes;

	QueueController(AbstractQS<?> service, QueueMetrics metrics, QueueServiceProperties properties) {
		this.service = service;
		this.metrics = metrics;
		this.maxMessageBytes = (int) properties.maxMessageSize().toBytes();
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
		String body;
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
		this.metrics.pushed();
		// a plain header: a valid name and an id need no escaping, and parsing a URI per
		// push costs more than the push
		return ResponseEntity.status(HttpStatus.CREATED)
			.header(HttpHeaders.LOCATION, "/queues/" + queue + "/messages/" + message.id())
			.body(Pushed.of(message));
	}

	@GetMapping("/{queue}/messages")
	@Operation(summary = "Poll the first ready message, leasing it to the caller")
	@ApiResponse(responseCode = "200", description = "Delivered; complete it before its lease expires",
			headers = @Header(name = "ETag",
					description = "The lease of this delivery, quoted; send it back in If-Match",
					schema = @Schema(type = "string")))
	@ApiResponse(responseCode = "204", description = "Nothing ready", content = @Content)
	@ApiResponse(responseCode = "400", description = "Bad queue name",
			content = @Content(mediaType = PROBLEM, schema = @Schema(implementation = ProblemBody.class)))
	ResponseEntity<Delivered> poll(@PathVariable @Parameter(description = QUEUE_NAME,
			schema = @Schema(pattern = QUEUE_PATTERN)) String queue) {
		RequestValidation.queueName(queue);
		List<Lease> leases = this.service.lease(queue, 1);
		if (leases.isEmpty()) {
			this.metrics.emptyPoll();
			return ResponseEntity.noContent().build();
		}
		Lease lease = leases.get(0);
		this.metrics.delivered(lease);
		return ResponseEntity.ok().eTag(Leases.etag(lease.delivery())).body(Delivered.of(lease));
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
					description = "The poll's ETag: complete only if that delivery is still the current one") String ifMatch) {
		RequestValidation.queueName(queue);
		long messageId = RequestValidation.messageId(id);
		int delivery = Leases.fromIfMatch(ifMatch);
		Completion completion = this.service.complete(queue, messageId, delivery);
		return switch (completion) {
			case COMPLETED -> {
				this.metrics.completed();
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

}
