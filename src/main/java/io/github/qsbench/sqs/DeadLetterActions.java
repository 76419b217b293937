package io.github.qsbench.sqs;

import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeSet;

import io.github.qsbench.application.QueueNames;
import io.github.qsbench.application.queues.QueueOperations;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Dead-letter queues as SQS shows them: {@code ListDeadLetterSourceQueues}. (A queue's
 * {@code RedrivePolicy} is one of its attributes, see {@link QueueAttributeActions}.)
 */
final class DeadLetterActions extends QueueHandler {

	private static final int MAX_RESULTS = 1000;

	DeadLetterActions(QueueOperations queues, QueueUrls urls) {
		super(queues, urls);
	}

	@Override
	public Map<String, SqsAction> actions() {
		return Map.of("ListDeadLetterSourceQueues", this::listDeadLetterSourceQueues);
	}

	/**
	 * The queues whose {@code RedrivePolicy} names this one, by name; {@code MaxResults}
	 * (1 to 1,000) a page, after {@code NextToken}, the last name of the page before, as
	 * {@code ListQueues} pages.
	 */
	ObjectNode listDeadLetterSourceQueues(SqsAction.Call call) {
		SqsRequest request = call.request();
		String queue = existingQueue(request);
		Integer maxResults = request.integer("MaxResults", 1, MAX_RESULTS);
		String after = request.string("NextToken");
		if (after != null && (maxResults == null || !QueueNames.isQueueName(after))) {
			throw SqsRequest.invalid("NextToken",
					"must be the NextToken of a ListDeadLetterSourceQueues answer with MaxResults");
		}
		NavigableSet<String> sources = new TreeSet<>(this.queues.deadLetterSources(queue));
		ObjectNode answer = JSON.objectNode();
		ArrayNode urls = answer.putArray("queueUrls");
		int limit = (maxResults != null) ? maxResults : MAX_RESULTS;
		String last = null;
		for (String source : (after != null) ? sources.tailSet(after, false) : sources) {
			if (urls.size() == limit) {
				if (maxResults != null) {
					answer.put("NextToken", last);
				}
				break;
			}
			urls.add(this.urls.url(call.http(), source));
			last = source;
		}
		return answer;
	}

}
