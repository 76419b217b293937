package io.github.qsbench.sqs;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.github.qsbench.application.InvalidRequestException;
import io.github.qsbench.application.queues.QueueOperations;
import io.github.qsbench.application.queues.QueueSettings;
import io.github.qsbench.application.queues.QueueTags;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code TagQueue}, {@code UntagQueue} and {@code ListQueueTags}: a queue's tags, kept
 * with its settings by the application layer ({@link QueueTags} has SQS's rules), so
 * every instance on one store answers the same. A key or value SQS refuses, or a change
 * that would leave a queue more than {@value QueueTags#MAX_TAGS} tags, is answered
 * {@code InvalidParameterValue} and changes nothing.
 */
final class TagActions extends QueueHandler {

	TagActions(QueueOperations queues, QueueUrls urls) {
		super(queues, urls);
	}

	@Override
	public Map<String, SqsAction> actions() {
		return Map.of("TagQueue", this::tagQueue, "UntagQueue", this::untagQueue, "ListQueueTags", this::listQueueTags);
	}

	/** Adds the tags, overwriting those with the same keys. */
	ObjectNode tagQueue(SqsAction.Call call) {
		String queue = existingQueue(call.request());
		Map<String, String> tags = call.request().stringMap("Tags");
		if (tags.isEmpty()) {
			throw SqsError.MISSING_PARAMETER.exception("The request must contain the parameter Tags.");
		}
		change(queue, () -> QueueTags.Change.tag(tags));
		return JSON.objectNode();
	}

	/** Removes the tags of these keys; a key the queue does not carry is ignored. */
	ObjectNode untagQueue(SqsAction.Call call) {
		String queue = existingQueue(call.request());
		List<String> keys = call.request().strings("TagKeys");
		if (keys.isEmpty()) {
			throw SqsError.MISSING_PARAMETER.exception("The request must contain the parameter TagKeys.");
		}
		change(queue, () -> QueueTags.Change.untag(new HashSet<>(keys)));
		return JSON.objectNode();
	}

	/** The queue's tags; {@code Tags} is left out when it has none. */
	ObjectNode listQueueTags(SqsAction.Call call) {
		String queue = existingQueue(call.request());
		ObjectNode answer = JSON.objectNode();
		Map<String, String> tags = this.queues.settings(queue).tags();
		if (!tags.isEmpty()) {
			ObjectNode json = answer.putObject("Tags");
			tags.forEach(json::put);
		}
		return answer;
	}

	/**
	 * Applies a change of tags to an existing queue (a queue that holds messages but was
	 * not created explicitly becomes explicit, as a {@code SetQueueAttributes} makes it).
	 */
	private void change(String queue, Supplier<QueueTags.Change> change) {
		try {
			this.queues.configure(queue, QueueSettings.Change.of(change.get()));
		}
		catch (InvalidRequestException ex) {
			throw SqsError.INVALID_PARAMETER_VALUE.exception(ex.detail());
		}
	}

}
