package io.github.qsbench.rest;

import java.time.Instant;
import java.util.List;

import io.github.qsbench.application.queues.MessageMoveTask;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * A message move task as the REST API shows it: SQS's {@code ListMessageMoveTasks} entry
 * in this API's words.
 *
 * @param started when it started, ISO-8601 by the service's clock
 */
@Schema(name = "MoveTask")
record MoveTaskView(String handle, String source,
		@Schema(nullable = true, description = "null: each message back to the queue it came from") String destination,
		@Schema(nullable = true, description = "null: as fast as it goes") Integer maxPerSecond,
		@Schema(allowableValues = {
				"RUNNING", "COMPLETED", "CANCELLING", "CANCELLED", "FAILED" }) String status,
		long moved, @Schema(description = "What the queue held when the task started") long toMove, String started,
		@Schema(nullable = true, description = "Why it failed, when it did") String failureReason){

	static MoveTaskView of(MessageMoveTask task) {
		return new MoveTaskView(task.handle(), task.source(), task.destination(), task.maxPerSecond(),
				task.status().name(), task.moved(), task.toMove(),
				Instant.ofEpochMilli(task.startedMillis()).toString(), task.failureReason());
	}

	/** A dead-letter queue's tasks, newest first. */
	record Tasks(List<MoveTaskView> tasks) {

		static Tasks of(List<MessageMoveTask> tasks) {
			return new Tasks(tasks.stream().map(MoveTaskView::of).toList());
		}

	}

}
