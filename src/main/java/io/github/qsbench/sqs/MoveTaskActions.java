package io.github.qsbench.sqs;

import java.util.Map;

import io.github.qsbench.application.queues.MessageMoveTask;
import io.github.qsbench.application.queues.MessageMoveTasks;
import io.github.qsbench.application.queues.MoveTaskException;
import io.github.qsbench.application.queues.QueueOperations;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Message move tasks as SQS serves them: {@code StartMessageMoveTask},
 * {@code ListMessageMoveTasks}, {@code CancelMessageMoveTask}, on the tasks of
 * {@link MessageMoveTasks}, queues named by their ARNs, with SQS's errors as its API
 * reference and its recorded answers give them.
 */
final class MoveTaskActions extends QueueHandler {

	private final MessageMoveTasks tasks;

	MoveTaskActions(QueueOperations queues, QueueUrls urls, MessageMoveTasks tasks) {
		super(queues, urls);
		this.tasks = tasks;
	}

	@Override
	public Map<String, SqsAction> actions() {
		return Map.of("StartMessageMoveTask", this::start, "ListMessageMoveTasks", this::list, "CancelMessageMoveTask",
				this::cancel);
	}

	/** {@code {"TaskHandle"}}. */
	ObjectNode start(SqsAction.Call call) {
		SqsRequest request = call.request();
		String source = queueOfArn(request.required("SourceArn"), "SourceArn");
		String destinationArn = request.string("DestinationArn");
		String destination = (destinationArn != null) ? queueOfArn(destinationArn, "DestinationArn") : null;
		Integer maxPerSecond = request.integer("MaxNumberOfMessagesPerSecond", 1, MessageMoveTasks.MAX_PER_SECOND);
		MessageMoveTask task;
		try {
			task = this.tasks.start(source, destination, maxPerSecond);
		}
		catch (MoveTaskException ex) {
			throw refused(ex);
		}
		ObjectNode answer = JSON.objectNode();
		answer.put("TaskHandle", task.handle());
		return answer;
	}

	/**
	 * {@code {"Results":[...]}}, newest first, {@code MaxResults} (1 to 10) of them, one
	 * by default.
	 */
	ObjectNode list(SqsAction.Call call) {
		SqsRequest request = call.request();
		String source = queueOfArn(request.required("SourceArn"), "SourceArn");
		Integer max = request.integer("MaxResults", 1, MessageMoveTasks.MAX_LISTED);
		ObjectNode answer = JSON.objectNode();
		ArrayNode results = answer.putArray("Results");
		try {
			this.tasks.list(source, (max != null) ? max : 1).forEach(task -> results.add(entry(task)));
		}
		catch (MoveTaskException ex) {
			throw refused(ex);
		}
		return answer;
	}

	/** {@code {"ApproximateNumberOfMessagesMoved"}}: what the task moved until now. */
	ObjectNode cancel(SqsAction.Call call) {
		String handle = call.request().required("TaskHandle");
		if (!MessageMoveTasks.isHandle(handle)) {
			throw SqsError.INVALID_PARAMETER_VALUE.exception("Value for parameter TaskHandle is invalid.");
		}
		MessageMoveTask task;
		try {
			task = this.tasks.cancel(handle);
		}
		catch (MoveTaskException ex) {
			throw refused(ex);
		}
		ObjectNode answer = JSON.objectNode();
		answer.put("ApproximateNumberOfMessagesMoved", task.moved());
		return answer;
	}

	/**
	 * A {@code ListMessageMoveTasksResultEntry}: as SQS answers it, the handle only while
	 * the task runs, the destination and the pace only if the start named them, the
	 * reason only if it failed.
	 */
	private ObjectNode entry(MessageMoveTask task) {
		ObjectNode entry = JSON.objectNode();
		if (task.status() == MessageMoveTask.Status.RUNNING) {
			entry.put("TaskHandle", task.handle());
		}
		entry.put("Status", task.status().name());
		entry.put("SourceArn", this.urls.arn(task.source()));
		if (task.destination() != null) {
			entry.put("DestinationArn", this.urls.arn(task.destination()));
		}
		if (task.maxPerSecond() != null) {
			entry.put("MaxNumberOfMessagesPerSecond", task.maxPerSecond());
		}
		entry.put("ApproximateNumberOfMessagesMoved", task.moved());
		entry.put("ApproximateNumberOfMessagesToMove", task.toMove());
		if (task.failureReason() != null) {
			entry.put("FailureReason", task.failureReason());
		}
		entry.put("StartedTimestamp", task.startedMillis());
		return entry;
	}

	/**
	 * The queue an ARN of this service names.
	 * @throws SqsException {@code ResourceNotFoundException} if it names none
	 */
	private String queueOfArn(String arn, String parameter) {
		String queue = this.urls.queueOfArn(arn);
		if (queue == null || !this.queues.exists(queue)) {
			throw notFound(parameter);
		}
		return queue;
	}

	private static SqsException notFound(String parameter) {
		return SqsError.RESOURCE_NOT_FOUND
			.exception("The resource that you specified for the " + parameter + " parameter doesn't exist.");
	}

	private static SqsException refused(MoveTaskException ex) {
		return switch (ex.reason()) {
			case NO_SUCH_SOURCE -> notFound("SourceArn");
			case NO_SUCH_DESTINATION -> notFound("DestinationArn");
			case NOT_A_DEAD_LETTER_QUEUE -> SqsError.INVALID_PARAMETER_VALUE.exception(ex.detail());
			case ALREADY_RUNNING -> SqsError.INVALID_PARAMETER_VALUE.exception(
					"There is already a task running. Only one active task is allowed for a source queue arn at a "
							+ "given time.");
			case NO_SUCH_TASK, NOT_RUNNING -> SqsError.RESOURCE_NOT_FOUND.exception(ex.detail());
		};
	}

}
