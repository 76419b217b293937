package io.github.qsbench.sqs;

import java.util.Map;
import java.util.TreeSet;

import io.github.qsbench.application.InvalidRequestException;
import io.github.qsbench.application.QueueNames;
import io.github.qsbench.application.queues.ExplicitQueues;
import io.github.qsbench.application.queues.QueueOperations;
import io.github.qsbench.application.queues.QueueTags;
import io.github.qsbench.core.QueueStats;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The queues themselves: {@code CreateQueue}, {@code GetQueueUrl}, {@code ListQueues},
 * {@code PurgeQueue} and {@code DeleteQueue}.
 */
final class QueueActions extends QueueHandler {

	private static final int MAX_LIST_RESULTS = 1000;

	private static final String FIFO_NAME = "The name of a FIFO queue can only include alphanumeric characters, "
			+ "hyphens, or underscores, must end with .fifo suffix and be 1 to 80 in length.";

	private final QueueAttributeActions attributes;

	QueueActions(QueueOperations queues, QueueUrls urls, QueueAttributeActions attributes) {
		super(queues, urls);
		this.attributes = attributes;
	}

	@Override
	public Map<String, SqsAction> actions() {
		return Map.of("CreateQueue", this::createQueue, "GetQueueUrl", this::getQueueUrl, "ListQueues",
				this::listQueues, "PurgeQueue", this::purgeQueue, "DeleteQueue", this::deleteQueue);
	}

	/**
	 * Creates a queue that exists while empty (see {@link ExplicitQueues}). Attributes
	 * are those {@code SetQueueAttributes} takes, and {@code FifoQueue}: {@code true}
	 * exactly for a name ending {@value QueueNames#FIFO_SUFFIX}; {@code tags} are set
	 * with them, in one change, as {@code TagQueue} sets them. A queue created before is
	 * answered as it is, unchanged, if every attribute given has its value (SQS's
	 * idempotence), and refused ({@code QueueNameExists}) if one differs.
	 */
	ObjectNode createQueue(SqsAction.Call call) {
		SqsRequest request = call.request();
		String name = request.required("QueueName");
		Map<String, String> attributes = request.stringMap("Attributes");
		boolean fifo = QueueNames.isFifo(name);
		if (!QueueNames.isQueueName(name)) {
			throw SqsError.INVALID_PARAMETER_VALUE.exception(fifo ? FIFO_NAME
					: "Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length.");
		}
		String fifoQueue = attributes.get(QueueAttributeNames.FIFO_QUEUE);
		if (fifo != "true".equals(fifoQueue)) {
			if (fifoQueue != null && !fifoQueue.equals("true") && !fifoQueue.equals("false")) {
				throw SqsError.INVALID_ATTRIBUTE_VALUE.exception("Invalid value for the parameter FifoQueue.");
			}
			throw SqsError.INVALID_PARAMETER_VALUE.exception(
					fifo ? "A queue whose name ends .fifo is a FIFO queue: create it with the attribute FifoQueue=true."
							: FIFO_NAME);
		}
		QueueTags.Change tags;
		try {
			tags = QueueTags.Change.tag(request.stringMap("tags"));
		}
		catch (InvalidRequestException ex) {
			throw SqsError.INVALID_PARAMETER_VALUE.exception(ex.detail());
		}
		if (this.queues.isExplicit(name)) {
			if (!this.attributes.matches(name, attributes)) {
				throw SqsError.QUEUE_NAME_EXISTS.exception("A queue already exists with the same name and a different "
						+ "value for attribute(s) " + String.join(", ", attributes.keySet()) + ".");
			}
			return JSON.objectNode().put("QueueUrl", this.urls.url(call.http(), name));
		}
		this.attributes.configure(name, attributes, tags.tag().isEmpty() ? null : tags);
		return JSON.objectNode().put("QueueUrl", this.urls.url(call.http(), name));
	}

	ObjectNode getQueueUrl(SqsAction.Call call) {
		SqsRequest request = call.request();
		String name = request.required("QueueName");
		String owner = request.string("QueueOwnerAWSAccountId");
		if (!QueueNames.isQueueName(name) || (owner != null && !this.urls.isAccount(owner))
				|| !this.queues.exists(name)) {
			throw QueueUrls.doesNotExist();
		}
		return JSON.objectNode().put("QueueUrl", this.urls.url(call.http(), name));
	}

	/**
	 * The application's listing (queues created explicitly, and queues holding messages),
	 * by name; pages by name after {@code NextToken}, which is the last name of the page
	 * before.
	 */
	ObjectNode listQueues(SqsAction.Call call) {
		SqsRequest request = call.request();
		String prefix = request.string("QueueNamePrefix");
		Integer maxResults = request.integer("MaxResults", 1, MAX_LIST_RESULTS);
		String after = request.string("NextToken");
		if (after != null && (maxResults == null || !QueueNames.isQueueName(after))) {
			throw SqsRequest.invalid("NextToken", "must be the NextToken of a ListQueues answer with MaxResults");
		}
		TreeSet<String> names = new TreeSet<>();
		for (QueueStats queue : this.queues.queues()) {
			names.add(queue.name());
		}
		ObjectNode answer = JSON.objectNode();
		ArrayNode urls = answer.putArray("QueueUrls");
		int limit = (maxResults != null) ? maxResults : MAX_LIST_RESULTS;
		String last = null;
		for (String name : (after != null) ? names.tailSet(after, false) : names) {
			if (prefix != null && !name.startsWith(prefix)) {
				continue;
			}
			if (urls.size() == limit) {
				if (maxResults != null) {
					answer.put("NextToken", last);
				}
				break;
			}
			urls.add(this.urls.url(call.http(), name));
			last = name;
		}
		return answer;
	}

	/**
	 * Purges at once, where SQS takes up to a minute; unlike SQS, a second purge within
	 * the minute is not refused ({@code PurgeQueueInProgress}), since nothing is in
	 * progress.
	 */
	ObjectNode purgeQueue(SqsAction.Call call) {
		this.queues.purge(existingQueue(call.request()));
		return JSON.objectNode();
	}

	/** Deletes the queue and its messages at once (SQS takes up to a minute). */
	ObjectNode deleteQueue(SqsAction.Call call) {
		if (!this.queues.deleteQueue(queue(call.request()))) {
			throw QueueUrls.doesNotExist();
		}
		return JSON.objectNode();
	}

}
