package io.github.qsbench.rest;

import io.github.qsbench.application.queues.MessageMoveTask;
import io.github.qsbench.application.queues.MessageMoveTasks;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A dead-letter queue's move tasks, which {@code POST /queues/{queue}/redrive} with
 * {@code Prefer: respond-async} starts ({@link QueueController#redrive}): listed newest
 * first, shown, cancelled. An adapter onto {@link MessageMoveTasks}; its refusals are
 * answered by {@link ApplicationProblems}.
 */
@RestController
@RequestMapping(path = Routes.QUEUES, produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "queues")
class RedriveTaskController {

	private static final String QUEUE_NAME = "The dead-letter queue";

	private static final String TASK = "The task's handle, as the Location of its start names it";

	private final MessageMoveTasks tasks;

	RedriveTaskController(MessageMoveTasks tasks) {
		this.tasks = tasks;
	}

	@GetMapping(Routes.REDRIVE_TASKS)
	@Operation(summary = "A dead-letter queue's move tasks, newest first",
			description = "The last " + MessageMoveTasks.MAX_LISTED + " are kept, in this instance.")
	@ApiResponse(responseCode = "200", description = "{\"tasks\":[...]}")
	@ApiResponse(responseCode = "400", description = "Bad queue name or max")
	@ApiResponse(responseCode = "404", description = "No such queue")
	MoveTaskView.Tasks list(
			@PathVariable @Parameter(description = QUEUE_NAME,
					schema = @Schema(pattern = QueueController.QUEUE_PATTERN)) String queue,
			@RequestParam(required = false) @Parameter(
					description = "List up to this many (default and most " + MessageMoveTasks.MAX_LISTED + ")",
					schema = @Schema(type = "integer", minimum = "1",
							maximum = "" + MessageMoveTasks.MAX_LISTED)) String max) {
		int count = (max != null) ? RequestValidation.number("max", max, 1, MessageMoveTasks.MAX_LISTED)
				: MessageMoveTasks.MAX_LISTED;
		return MoveTaskView.Tasks.of(this.tasks.list(queue, count));
	}

	@GetMapping(Routes.REDRIVE_TASK)
	@Operation(summary = "One move task: its status, what it moved and has to move, why it failed")
	@ApiResponse(responseCode = "200", description = "The task")
	@ApiResponse(responseCode = "404", description = "No such task on this queue")
	MoveTaskView task(@PathVariable @Parameter(description = QUEUE_NAME) String queue,
			@PathVariable @Parameter(description = TASK) String task) {
		return MoveTaskView.of(ofQueue(queue, task));
	}

	@DeleteMapping(Routes.REDRIVE_TASK)
	@Operation(summary = "Cancel a running move task",
			description = "It stops between two moves: CANCELLING now, CANCELLED at its next step; what it "
					+ "moved stays moved, the rest stays in the dead-letter queue.")
	@ApiResponse(responseCode = "200", description = "The task as the cancel left it")
	@ApiResponse(responseCode = "404", description = "No such task on this queue")
	@ApiResponse(responseCode = "409", description = "The task is not running")
	MoveTaskView cancel(@PathVariable @Parameter(description = QUEUE_NAME) String queue,
			@PathVariable @Parameter(description = TASK) String task) {
		return MoveTaskView.of(this.tasks.cancel(ofQueue(queue, task).handle()));
	}

	private MessageMoveTask ofQueue(String queue, String handle) {
		return this.tasks.task(handle)
			.filter(task -> task.source().equals(queue))
			.orElseThrow(() -> ApiProblem.notFound("No such task", "Queue '" + queue + "' has no move task '" + handle
					+ "' (the last " + MessageMoveTasks.MAX_LISTED + " of each queue are kept)."));
	}

}
