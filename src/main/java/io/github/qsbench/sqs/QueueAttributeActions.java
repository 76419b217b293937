package io.github.qsbench.sqs;

import static io.github.qsbench.sqs.QueueAttributeNames.*;

import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

import io.github.qsbench.application.QueueNames;
import io.github.qsbench.application.QuietCounts;
import io.github.qsbench.application.queues.DeadLetterPolicy;
import io.github.qsbench.application.queues.FifoSettings;
import io.github.qsbench.application.queues.QueueOperations;
import io.github.qsbench.application.queues.QueueSettings;
import io.github.qsbench.application.queues.QueueTags;
import io.github.qsbench.core.QueueStats;
import io.github.qsbench.http.RequestJson;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code GetQueueAttributes} and {@code SetQueueAttributes}: every attribute a queue has,
 * as SQS answers them, and a change of them ({@link QueueAttributeChanges}); the names
 * are in {@link QueueAttributeNames}.
 */
final class QueueAttributeActions extends QueueHandler {

	/** Reads the JSON documents inside attributes, to compare them. */
	private final JsonMapper mapper = RequestJson.mapper(MAX_POLICY_BYTES);

	private final QueueAttributeChanges changes;

	QueueAttributeActions(QueueOperations queues, QueueUrls urls, SqsAccess access) {
		super(queues, urls);
		this.changes = new QueueAttributeChanges(queues, urls, access);
	}

	@Override
	public Map<String, SqsAction> actions() {
		return Map.of("GetQueueAttributes", this::getQueueAttributes, "SetQueueAttributes", this::setQueueAttributes);
	}

	/**
	 * The queue's default receive wait, {@code ReceiveMessageWaitTimeSeconds}: 0 unless
	 * set.
	 */
	static int receiveWaitSeconds(QueueSettings settings) {
		String wait = settings.recorded().get(RECEIVE_MESSAGE_WAIT_TIME_SECONDS);
		return (wait != null) ? Integer.parseInt(wait) : 0;
	}

	/**
	 * The attributes asked for ({@code All}: every one the queue has); an unknown name is
	 * refused ({@code InvalidAttributeName}). Left out, as SQS leaves out what a queue
	 * does not have: what was never set ({@code Policy}, {@code RedrivePolicy},
	 * {@code RedriveAllowPolicy}, {@code KmsMasterKeyId}, and
	 * {@code KmsDataKeyReusePeriodSeconds} without a key), a standard queue's FIFO
	 * attributes, {@code MessageRetentionPeriod} of a queue that keeps its messages until
	 * completed, and the timestamps of a queue not created explicitly.
	 */
	ObjectNode getQueueAttributes(SqsAction.Call call) {
		String queue = existingQueue(call.request());
		Set<String> names = new HashSet<>(call.request().strings("AttributeNames"));
		for (String name : names) {
			if (!ALL.equals(name) && !NAMES.contains(name)) {
				throw invalidAttributeName(name);
			}
		}
		boolean fair = !QueueNames.isFifo(queue)
				&& (this.queues.hasGroups(queue) || names.stream().anyMatch(FAIR::contains));
		Map<String, String> all = attributes(queue, fair);
		ObjectNode answer = JSON.objectNode();
		ObjectNode attributes = answer.putObject("Attributes");
		all.forEach((name, value) -> {
			if (names.contains(ALL) || names.contains(name)) {
				attributes.put(name, value);
			}
		});
		return answer;
	}

	/** Every attribute the queue has, by name, as SQS answers them. */
	private Map<String, String> attributes(String queue, boolean fair) {
		Map<String, String> attributes = new TreeMap<>();
		QueueStats stats = this.queues.queue(queue).orElse(new QueueStats(queue, 0, 0));
		attributes.put(APPROXIMATE_NUMBER_OF_MESSAGES, Integer.toString(stats.ready()));
		attributes.put(APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE, Integer.toString(stats.inflight()));
		attributes.put(APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED, Integer.toString(stats.delayed()));
		if (fair) {
			QuietCounts quiet = this.queues.quietCounts(queue);
			attributes.put(NOISY_GROUPS, Long.toString(quiet.noisyGroups()));
			attributes.put(VISIBLE_IN_QUIET_GROUPS, Long.toString(quiet.visible()));
			attributes.put(NOT_VISIBLE_IN_QUIET_GROUPS, Long.toString(quiet.notVisible()));
			attributes.put(DELAYED_IN_QUIET_GROUPS, Long.toString(quiet.delayed()));
			attributes.put(AGE_OF_OLDEST_IN_QUIET_GROUPS, Long.toString(quiet.oldestSeconds()));
		}
		attributes.put(QUEUE_ARN, this.urls.arn(queue));
		QueueSettings settings = this.queues.settings(queue);
		if (settings.createdSeconds() != null) {
			attributes.put(CREATED_TIMESTAMP, settings.createdSeconds().toString());
		}
		if (settings.modifiedSeconds() != null) {
			attributes.put(LAST_MODIFIED_TIMESTAMP, settings.modifiedSeconds().toString());
		}
		attributes.put(VISIBILITY_TIMEOUT, Long.toString(settings.leaseSeconds()));
		attributes.put(DELAY_SECONDS, Integer.toString(settings.delaySeconds()));
		attributes.put(MAXIMUM_MESSAGE_SIZE, Integer.toString(settings.maxMessageBytes()));
		attributes.put(RECEIVE_MESSAGE_WAIT_TIME_SECONDS, Integer.toString(receiveWaitSeconds(settings)));
		if (settings.retentionSeconds() != null) {
			attributes.put(MESSAGE_RETENTION_PERIOD, Integer.toString(settings.retentionSeconds()));
		}
		FifoSettings fifo = settings.fifo();
		if (fifo != null) {
			attributes.put(FIFO_QUEUE, "true");
			attributes.put(CONTENT_BASED_DEDUPLICATION, fifo.contentBasedDeduplication().toString());
			attributes.put(DEDUPLICATION_SCOPE, fifo.deduplicationScope());
			attributes.put(FIFO_THROUGHPUT_LIMIT, fifo.throughputLimit());
		}
		DeadLetterPolicy policy = settings.deadLetters();
		if (policy != null) {
			attributes.put(REDRIVE_POLICY,
					JSON.objectNode()
						.put("deadLetterTargetArn", this.urls.arn(policy.queue()))
						.put("maxReceiveCount", policy.maxDeliveries())
						.toString());
		}
		Map<String, String> recorded = settings.recorded();
		attributes.putAll(recorded);
		boolean kms = recorded.containsKey(KMS_MASTER_KEY_ID);
		if (kms) {
			attributes.putIfAbsent(KMS_DATA_KEY_REUSE_PERIOD_SECONDS, DEFAULT_KMS_REUSE_SECONDS);
		}
		attributes.putIfAbsent(SQS_MANAGED_SSE_ENABLED, Boolean.toString(!kms));
		return attributes;
	}

	/**
	 * Whether {@code given}, a {@code CreateQueue}'s attributes, are what the queue has:
	 * each attribute given has the queue's value (numbers, booleans and JSON documents
	 * compared by value; an empty value matches an attribute the queue does not have).
	 * {@code FifoQueue} is not compared: the queue's name says what it is.
	 * @throws SqsException {@code InvalidAttributeName} for one the queue cannot be given
	 */
	boolean matches(String queue, Map<String, String> given) {
		Map<String, String> current = attributes(queue, false);
		for (Map.Entry<String, String> attribute : given.entrySet()) {
			checkSettable(queue, attribute.getKey());
			if (!attribute.getKey().equals(FIFO_QUEUE)
					&& !Objects.equals(normalised(attribute.getValue()), normalised(current.get(attribute.getKey())))) {
				return false;
			}
		}
		return true;
	}

	/** A value as compared: JSON (numbers, booleans, documents) read as JSON. */
	private JsonNode normalised(String value) {
		if (value == null || value.isEmpty()) {
			return null;
		}
		try {
			JsonNode json = this.mapper.readTree(value);
			JsonNode count = (json != null && json.isObject()) ? json.get("maxReceiveCount") : null;
			if (count != null && count.isString() && count.stringValue().matches("[0-9]{1,9}")) {
				ObjectNode copy = (ObjectNode) json.deepCopy();
				copy.put("maxReceiveCount", Integer.parseInt(count.stringValue()));
				return copy;
			}
			return (json != null) ? json : JSON.stringNode(value);
		}
		catch (JacksonException ex) {
			return JSON.stringNode(value);
		}
	}

	/**
	 * Sets the attributes given, each checked as SQS checks it: what queues have of their
	 * own ({@code VisibilityTimeout}, {@code DelaySeconds},
	 * {@code MessageRetentionPeriod}, {@code MaximumMessageSize} up to
	 * {@code qs.max-message-size}, {@code RedrivePolicy}, empty removing it, a FIFO
	 * queue's settings) and what it records; never {@code FifoQueue}.
	 */
	ObjectNode setQueueAttributes(SqsAction.Call call) {
		String queue = existingQueue(call.request());
		JsonNode given = call.request().members().get("Attributes");
		if (given == null || given.isNull()) {
			throw SqsError.MISSING_PARAMETER.exception("The request must contain the parameter Attributes.");
		}
		Map<String, String> attributes = call.request().stringMap("Attributes");
		if (attributes.containsKey(FIFO_QUEUE)) {
			throw SqsError.INVALID_ATTRIBUTE_VALUE
				.exception("FifoQueue is given when a queue is created: a queue stays what it was created as.");
		}
		configure(queue, attributes, null);
		return JSON.objectNode();
	}

	/**
	 * Sets a queue's attributes as {@code SetQueueAttributes} does, and its tags, in one
	 * change: see {@link QueueAttributeChanges#configure}.
	 */
	void configure(String queue, Map<String, String> attributes, QueueTags.Change tags) {
		this.changes.configure(queue, attributes, tags);
	}

}
