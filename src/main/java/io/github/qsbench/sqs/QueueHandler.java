package io.github.qsbench.sqs;

import io.github.qsbench.application.queues.QueueOperations;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A family of SQS actions on queues: each a translation of its request's members into the
 * queue operations of the application layer ({@link QueueOperations}) and of their
 * outcome into SQS's answer, naming queues by their URLs ({@link QueueUrls}).
 */
abstract class QueueHandler implements SqsHandler {

	static final JsonNodeFactory JSON = JsonNodeFactory.instance;

	/** The attribute name that asks for every attribute. */
	static final String ALL = "All";

	final QueueOperations queues;

	final QueueUrls urls;

	QueueHandler(QueueOperations queues, QueueUrls urls) {
		this.queues = queues;
		this.urls = urls;
	}

	/**
	 * The queue the request's {@code QueueUrl} names, which may not exist.
	 * @throws SqsException if it names no queue of this service
	 */
	String queue(SqsRequest request) {
		return this.urls.queue(request.required("QueueUrl"));
	}

	/**
	 * The queue the request's {@code QueueUrl} names.
	 * @throws SqsException {@code QueueDoesNotExist} if there is none
	 */
	String existingQueue(SqsRequest request) {
		String queue = queue(request);
		if (!this.queues.exists(queue)) {
			throw QueueUrls.doesNotExist();
		}
		return queue;
	}

	static SqsException invalidAttributeName(String name) {
		return SqsError.INVALID_ATTRIBUTE_NAME.exception("Unknown Attribute " + name + ".");
	}

}
