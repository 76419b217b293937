package io.github.qsbench.rest;

/**
 * The queue API's paths, declared once: the controller's mappings are built from them,
 * and {@link HotRouteHandler} matches the same segments by hand (a few {@code indexOf}
 * calls, where Spring's path matching per request costs more than the queue operation).
 */
final class Routes {

	/** The root of the queue API, and the controller's mapping. */
	static final String QUEUES = "/queues";

	static final String QUEUE = "/{queue}";

	/** The segment after a queue's name that names its messages. */
	static final String MESSAGES_SEGMENT = "/messages";

	static final String MESSAGES = QUEUE + MESSAGES_SEGMENT;

	static final String MESSAGE = MESSAGES + "/{id}";

	static final String BATCH_SEGMENT = "batch";

	static final String COMPLETIONS_SEGMENT = "completions";

	static final String BATCH = MESSAGES + "/" + BATCH_SEGMENT;

	static final String REDRIVE = QUEUE + "/redrive";

	/** A dead-letter queue's move tasks, newest first. */
	static final String REDRIVE_TASKS = REDRIVE + "/tasks";

	static final String REDRIVE_TASK = REDRIVE_TASKS + "/{task}";

	/** Where a move task is shown: a plain concatenation. */
	static String redriveTask(String queue, String task) {
		return QUEUES + "/" + queue + "/redrive/tasks/" + task;
	}

	static final String COMPLETIONS = MESSAGES + "/" + COMPLETIONS_SEGMENT;

	/** The full patterns, as Spring MVC tags {@code http.server.requests} with them. */
	static final String MESSAGES_PATTERN = QUEUES + MESSAGES;

	static final String MESSAGE_PATTERN = QUEUES + MESSAGE;

	private Routes() {
	}

	/** Where a pushed message lives: a plain concatenation, no URI parsing. */
	static String message(String queue, long id) {
		return QUEUES + "/" + queue + MESSAGES_SEGMENT + "/" + id;
	}

}
