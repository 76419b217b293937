package io.github.qsbench.sqs;

import java.util.Map;

import io.github.qsbench.application.QueueOperations;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Dead-letter queues as SQS shows them: {@code ListDeadLetterSourceQueues}. (A queue's
 * {@code RedrivePolicy} is one of its attributes, see {@link QueueAttributeActions}.)
 */
final class DeadLetterActions extends QueueHandler {

	DeadLetterActions(QueueOperations queues, QueueUrls urls) {
		super(queues, urls);
	}

	@Override
	public Map<String, SqsAction> actions() {
		return Map.of("ListDeadLetterSourceQueues", this::listDeadLetterSourceQueues);
	}

	/** The queues whose {@code RedrivePolicy} names this one, by name. */
	ObjectNode listDeadLetterSourceQueues(SqsAction.Call call) {
		String queue = existingQueue(call.request());
		ObjectNode answer = JSON.objectNode();
		ArrayNode urls = answer.putArray("queueUrls");
		this.queues.deadLetterSources(queue).forEach(source -> urls.add(this.urls.url(call.http(), source)));
		return answer;
	}

}
