package io.github.qsbench.rest;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.time.InstantSource;
import java.util.List;

import io.github.qsbench.application.InvalidRequestException;
import io.github.qsbench.application.Limits;
import io.github.qsbench.application.PeekedMessage;
import io.github.qsbench.application.QueueNames;
import io.github.qsbench.application.messages.MessageOperations;
import io.github.qsbench.application.queues.DeadLetterPolicy;
import io.github.qsbench.application.queues.MessageMoveTask;
import io.github.qsbench.application.queues.MessageMoveTasks;
import io.github.qsbench.application.queues.QueueOperations;
import io.github.qsbench.application.queues.QueueSettings;
import io.github.qsbench.core.QueueStats;
import io.github.qsbench.rest.MessageResponses.QueueView;
import io.github.qsbench.rest.MessageResponses.Queues;
import io.github.qsbench.rest.MessageResponses.Redriven;
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

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The queues of the queue API through Spring MVC: list them, show one, create or change
 * one with settings, purge, delete, and redrive its dead letters (at once, or by a move
 * task). An adapter, as {@link MessageController} is for the messages. Annotated, with
 * it, for the OpenAPI description at {@code /v3/api-docs}; every error answers
 * {@code application/problem+json}.
 */
@RestController
@RequestMapping(path = Routes.QUEUES, produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "queues")
@OpenAPIDefinition(info = @Info(title = "queue-service", version = "1",
		description = "A message queue, in memory or, with the redis strategy, in Redis. A polled message not "
				+ "completed within its lease is delivered again. Every error answers application/problem+json."))
class QueueController {

	static final String QUEUE_NAME = "1 to 80 characters of A-Z a-z 0-9 _ -";

	static final String QUEUE_PATTERN = "^" + QueueNames.QUEUE_NAME_REGEX + "$";

	private static final String RESPOND_ASYNC = "respond-async";

	private final QueueOperations operations;

	/** For a queue's head message and the service's message size cap. */
	private final MessageOperations messages;

	private final InstantSource clock;

	private final QueueJsonRequests json;

	/** Starts the redrives asked for with {@code Prefer: respond-async}. */
	private final MessageMoveTasks tasks;

	QueueController(QueueOperations operations, MessageOperations messages, MessageMoveTasks tasks,
			InstantSource clock) {
		this.operations = operations;
		this.messages = messages;
		this.clock = clock;
		this.tasks = tasks;
		this.json = new QueueJsonRequests(messages.maxMessageBytes());
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
		QueueJsonRequests.Redrive redrive;
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
