package io.github.qsbench.sqs;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import io.github.qsbench.application.DeadLetterPolicy;
import io.github.qsbench.application.FifoSettings;
import io.github.qsbench.application.InvalidRequestException;
import io.github.qsbench.application.QueueOperations;
import io.github.qsbench.application.QueueSettings;
import io.github.qsbench.application.QueueTags;
import io.github.qsbench.core.QueueStats;
import io.github.qsbench.http.RequestJson;
import io.github.qsbench.http.SettingsChange;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code GetQueueAttributes} and {@code SetQueueAttributes}, and the catalogue of queue
 * attributes: which this service answers, which a queue has of its own (read into the
 * same {@link SettingsChange} as the REST API's settings), which every queue has alike,
 * and which SQS has but this service does not keep.
 */
final class QueueAttributeActions extends QueueHandler {

	private static final String APPROXIMATE_NUMBER_OF_MESSAGES = "ApproximateNumberOfMessages";

	private static final String APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE = "ApproximateNumberOfMessagesNotVisible";

	private static final String APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED = "ApproximateNumberOfMessagesDelayed";

	private static final String QUEUE_ARN = "QueueArn";

	private static final String VISIBILITY_TIMEOUT = "VisibilityTimeout";

	private static final String DELAY_SECONDS = "DelaySeconds";

	private static final String MESSAGE_RETENTION_PERIOD = "MessageRetentionPeriod";

	private static final String REDRIVE_POLICY = "RedrivePolicy";

	private static final String MAXIMUM_MESSAGE_SIZE = "MaximumMessageSize";

	private static final String FIFO_QUEUE = "FifoQueue";

	private static final String CONTENT_BASED_DEDUPLICATION = "ContentBasedDeduplication";

	private static final String DEDUPLICATION_SCOPE = "DeduplicationScope";

	private static final String FIFO_THROUGHPUT_LIMIT = "FifoThroughputLimit";

	/** The attributes this service answers, beside those every queue has alike. */
	private static final Set<String> ANSWERED = Set.of(ALL, APPROXIMATE_NUMBER_OF_MESSAGES,
			APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE, APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED, QUEUE_ARN,
			VISIBILITY_TIMEOUT, DELAY_SECONDS, MESSAGE_RETENTION_PERIOD, REDRIVE_POLICY, MAXIMUM_MESSAGE_SIZE,
			FIFO_QUEUE, CONTENT_BASED_DEDUPLICATION, DEDUPLICATION_SCOPE, FIFO_THROUGHPUT_LIMIT);

	/**
	 * SQS's queue attributes that this service cannot answer truly yet: never answered.
	 */
	private static final Set<String> NOT_KEPT = Set.of("CreatedTimestamp", "LastModifiedTimestamp", "Policy",
			"RedriveAllowPolicy", "KmsMasterKeyId", "KmsDataKeyReusePeriodSeconds", "SqsManagedSseEnabled");

	/** Reads a {@code RedrivePolicy}, JSON inside a string. */
	private final JsonMapper mapper = RequestJson.mapper(4096);

	/**
	 * The attributes every queue has, with the same values; {@code VisibilityTimeout},
	 * {@code DelaySeconds}, {@code MaximumMessageSize} and the others are each queue's
	 * own.
	 */
	private final Map<String, String> alike = Map.of("ReceiveMessageWaitTimeSeconds", "0");

	QueueAttributeActions(QueueOperations queues, QueueUrls urls) {
		super(queues, urls);
	}

	@Override
	public Map<String, SqsAction> actions() {
		return Map.of("GetQueueAttributes", this::getQueueAttributes, "SetQueueAttributes", this::setQueueAttributes);
	}

	/**
	 * The attributes asked for ({@code All}: every one this service has); attributes it
	 * cannot answer truly (timestamps, policies) are left out, as SQS leaves out what
	 * does not apply, and so is {@code MessageRetentionPeriod} of a queue that keeps its
	 * messages until completed.
	 */
	ObjectNode getQueueAttributes(SqsAction.Call call) {
		String queue = existingQueue(call.request());
		Set<String> names = new HashSet<>(call.request().strings("AttributeNames"));
		for (String name : names) {
			if (!ANSWERED.contains(name) && !this.alike.containsKey(name) && !NOT_KEPT.contains(name)) {
				throw invalidAttributeName(name);
			}
		}
		boolean all = names.contains(ALL);
		ObjectNode answer = JSON.objectNode();
		ObjectNode attributes = answer.putObject("Attributes");
		QueueStats stats = this.queues.queue(queue).orElse(new QueueStats(queue, 0, 0));
		if (all || names.contains(APPROXIMATE_NUMBER_OF_MESSAGES)) {
			attributes.put(APPROXIMATE_NUMBER_OF_MESSAGES, Integer.toString(stats.ready()));
		}
		if (all || names.contains(APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE)) {
			attributes.put(APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE, Integer.toString(stats.inflight()));
		}
		if (all || names.contains(APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED)) {
			attributes.put(APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED, Integer.toString(stats.delayed()));
		}
		this.alike.forEach((name, value) -> {
			if (all || names.contains(name)) {
				attributes.put(name, value);
			}
		});
		if (all || names.contains(QUEUE_ARN)) {
			attributes.put(QUEUE_ARN, this.urls.arn(queue));
		}
		QueueSettings settings = this.queues.settings(queue);
		if (all || names.contains(VISIBILITY_TIMEOUT)) {
			attributes.put(VISIBILITY_TIMEOUT, Long.toString(settings.leaseSeconds()));
		}
		if (all || names.contains(DELAY_SECONDS)) {
			attributes.put(DELAY_SECONDS, Integer.toString(settings.delaySeconds()));
		}
		if (all || names.contains(MAXIMUM_MESSAGE_SIZE)) {
			attributes.put(MAXIMUM_MESSAGE_SIZE, Integer.toString(settings.maxMessageBytes()));
		}
		if (settings.retentionSeconds() != null && (all || names.contains(MESSAGE_RETENTION_PERIOD))) {
			attributes.put(MESSAGE_RETENTION_PERIOD, Integer.toString(settings.retentionSeconds()));
		}
		FifoSettings fifo = settings.fifo();
		if (fifo != null) {
			Map.of(FIFO_QUEUE, "true", CONTENT_BASED_DEDUPLICATION, fifo.contentBasedDeduplication().toString(),
					DEDUPLICATION_SCOPE, fifo.deduplicationScope(), FIFO_THROUGHPUT_LIMIT, fifo.throughputLimit())
				.forEach((name, value) -> {
					if (all || names.contains(name)) {
						attributes.put(name, value);
					}
				});
		}
		DeadLetterPolicy policy = settings.deadLetters();
		if (policy != null && (all || names.contains(REDRIVE_POLICY))) {
			attributes.put(REDRIVE_POLICY,
					JSON.objectNode()
						.put("deadLetterTargetArn", this.urls.arn(policy.queue()))
						.put("maxReceiveCount", policy.maxDeliveries())
						.toString());
		}
		return answer;
	}

	/**
	 * Sets what queues have of their own: {@code RedrivePolicy} (empty removes it),
	 * {@code VisibilityTimeout}, {@code DelaySeconds}, {@code MessageRetentionPeriod} and
	 * {@code MaximumMessageSize} (1,024 to {@code qs.max-message-size}, SQS's 1 MiB by
	 * default); and {@code ReceiveMessageWaitTimeSeconds} at the value every queue has.
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
	 * change, creating the queue if need be (see {@link QueueOperations#configure}).
	 * @param tags the tags to set, {@code null} for none
	 * @throws SqsException for an attribute not known, not kept or not settable, or a
	 * value out of range; for tags SQS refuses, or more than the most a queue carries
	 */
	void configure(String queue, Map<String, String> attributes, QueueTags.Change tags) {
		SettingsChange change = new SettingsChange();
		for (Map.Entry<String, String> attribute : attributes.entrySet()) {
			String name = attribute.getKey();
			String value = attribute.getValue();
			switch (name) {
				case VISIBILITY_TIMEOUT -> change.leaseSeconds(whole(name, value));
				case DELAY_SECONDS -> change.delaySeconds(whole(name, value));
				case MESSAGE_RETENTION_PERIOD -> change.retentionSeconds(whole(name, value));
				case REDRIVE_POLICY -> redrivePolicy(value, change);
				case MAXIMUM_MESSAGE_SIZE -> change.maxMessageBytes(whole(name, value));
				case FIFO_QUEUE -> change.fifo(bool(name, value));
				case CONTENT_BASED_DEDUPLICATION -> change.contentBasedDeduplication(bool(name, value));
				case DEDUPLICATION_SCOPE -> change.deduplicationScope(value);
				case FIFO_THROUGHPUT_LIMIT -> change.throughputLimit(value);
				case "ReceiveMessageWaitTimeSeconds" -> {
					if (!this.alike.get(name).equals(value)) {
						throw SqsError.UNSUPPORTED_OPERATION.exception("Queue attribute " + name
								+ " cannot be set: every queue has " + name + " " + this.alike.get(name) + ".");
					}
				}
				default -> {
					if (!NOT_KEPT.contains(name)) {
						throw invalidAttributeName(name);
					}
					throw SqsError.UNSUPPORTED_OPERATION
						.exception("Queue attribute " + name + " is not kept by this service.");
				}
			}
		}
		QueueSettings.Change settings;
		try {
			settings = change.tags(tags).change();
		}
		catch (InvalidRequestException ex) {
			throw SqsError.INVALID_ATTRIBUTE_VALUE.exception(attributes.containsKey(REDRIVE_POLICY)
					? "Invalid value for the parameter RedrivePolicy. Reason: maxReceiveCount is 1 to "
							+ DeadLetterPolicy.MAX_DELIVERIES + "."
					: ex.detail());
		}
		try {
			this.queues.configure(queue, settings);
		}
		catch (InvalidRequestException ex) {
			throw (QueueTags.INVALID.equals(ex.title()) ? SqsError.INVALID_PARAMETER_VALUE
					: SqsError.INVALID_ATTRIBUTE_VALUE)
				.exception(ex.detail());
		}
	}

	private static boolean bool(String name, String value) {
		if (!value.equals("true") && !value.equals("false")) {
			throw SqsError.INVALID_ATTRIBUTE_VALUE
				.exception("Invalid value for the parameter " + name + ": true or false.");
		}
		return Boolean.parseBoolean(value);
	}

	private static int whole(String name, String value) {
		try {
			return Integer.parseInt(value);
		}
		catch (NumberFormatException ex) {
			throw SqsError.INVALID_ATTRIBUTE_VALUE.exception("Invalid value for the parameter " + name + ".");
		}
	}

	/**
	 * {@code {"deadLetterTargetArn":"arn:aws:sqs:<region>:<account>:<queue>",
	 * "maxReceiveCount":N}}, the count as a number or a string, as SQS takes it; empty
	 * removes the queue's.
	 */
	private void redrivePolicy(String json, SettingsChange change) {
		if (json.isEmpty()) {
			change.deadLetterQueue(null);
			return;
		}
		JsonNode policy;
		try {
			policy = this.mapper.readTree(json);
		}
		catch (JacksonException ex) {
			policy = null;
		}
		JsonNode arn = (policy != null && policy.isObject()) ? policy.get("deadLetterTargetArn") : null;
		JsonNode count = (policy != null && policy.isObject()) ? policy.get("maxReceiveCount") : null;
		if (arn == null || !arn.isString() || count == null || !(count.isString() || count.isIntegralNumber())) {
			throw SqsError.INVALID_ATTRIBUTE_VALUE.exception("Invalid value for the parameter RedrivePolicy. Reason: "
					+ "it is {\"deadLetterTargetArn\":\"arn:...\",\"maxReceiveCount\":N}.");
		}
		String queue = this.urls.queueOfArn(arn.stringValue());
		if (queue == null) {
			throw SqsError.INVALID_ATTRIBUTE_VALUE.exception("Invalid value for the parameter RedrivePolicy. Reason: "
					+ "deadLetterTargetArn " + arn.stringValue() + " is not a queue of this service.");
		}
		change.deadLetterQueue(queue)
			.maxDeliveries(count.isString() ? whole("RedrivePolicy.maxReceiveCount", count.stringValue())
					: count.canConvertToInt() ? count.intValue() : -1);
	}

}
