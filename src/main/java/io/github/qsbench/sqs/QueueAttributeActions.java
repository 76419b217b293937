package io.github.qsbench.sqs;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

import io.github.qsbench.application.InvalidRequestException;
import io.github.qsbench.application.Limits;
import io.github.qsbench.application.QueueNames;
import io.github.qsbench.application.QuietCounts;
import io.github.qsbench.application.queues.DeadLetterPolicy;
import io.github.qsbench.application.queues.FifoSettings;
import io.github.qsbench.application.queues.QueueOperations;
import io.github.qsbench.application.queues.QueueSettings;
import io.github.qsbench.application.queues.QueueTags;
import io.github.qsbench.core.QueueStats;
import io.github.qsbench.http.RequestJson;
import io.github.qsbench.http.SettingsChange;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code GetQueueAttributes} and {@code SetQueueAttributes}, and the catalogue of queue
 * attributes, every one SQS's model names: which a queue has of its own (read into the
 * same {@link SettingsChange} as the REST API's settings), which it records as given
 * ({@link QueueSettings#recorded}: its access policy and encryption settings, which
 * nothing here enforces, and its default receive wait, which {@link ReceiveActions}
 * reads), and which are only read.
 */
final class QueueAttributeActions extends QueueHandler {

	private static final String APPROXIMATE_NUMBER_OF_MESSAGES = "ApproximateNumberOfMessages";

	private static final String APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE = "ApproximateNumberOfMessagesNotVisible";

	private static final String APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED = "ApproximateNumberOfMessagesDelayed";

	private static final String NOISY_GROUPS = "ApproximateNumberOfNoisyGroups";

	private static final String VISIBLE_IN_QUIET_GROUPS = "ApproximateNumberOfMessagesVisibleInQuietGroups";

	private static final String NOT_VISIBLE_IN_QUIET_GROUPS = "ApproximateNumberOfMessagesNotVisibleInQuietGroups";

	private static final String DELAYED_IN_QUIET_GROUPS = "ApproximateNumberOfMessagesDelayedInQuietGroups";

	private static final String AGE_OF_OLDEST_IN_QUIET_GROUPS = "ApproximateAgeOfOldestMessageInQuietGroups";

	/** A standard queue's fair-queue attributes (SQS's fair queues). */
	private static final Set<String> FAIR = Set.of(NOISY_GROUPS, VISIBLE_IN_QUIET_GROUPS, NOT_VISIBLE_IN_QUIET_GROUPS,
			DELAYED_IN_QUIET_GROUPS, AGE_OF_OLDEST_IN_QUIET_GROUPS);

	private static final String QUEUE_ARN = "QueueArn";

	private static final String CREATED_TIMESTAMP = "CreatedTimestamp";

	private static final String LAST_MODIFIED_TIMESTAMP = "LastModifiedTimestamp";

	private static final String VISIBILITY_TIMEOUT = "VisibilityTimeout";

	private static final String DELAY_SECONDS = "DelaySeconds";

	private static final String MESSAGE_RETENTION_PERIOD = "MessageRetentionPeriod";

	private static final String REDRIVE_POLICY = "RedrivePolicy";

	private static final String MAXIMUM_MESSAGE_SIZE = "MaximumMessageSize";

	static final String FIFO_QUEUE = "FifoQueue";

	private static final String CONTENT_BASED_DEDUPLICATION = "ContentBasedDeduplication";

	private static final String DEDUPLICATION_SCOPE = "DeduplicationScope";

	private static final String FIFO_THROUGHPUT_LIMIT = "FifoThroughputLimit";

	/** The queue's access policy, recorded: see {@link PermissionActions}. */
	static final String POLICY = "Policy";

	private static final String RECEIVE_MESSAGE_WAIT_TIME_SECONDS = "ReceiveMessageWaitTimeSeconds";

	private static final String REDRIVE_ALLOW_POLICY = "RedriveAllowPolicy";

	private static final String KMS_MASTER_KEY_ID = "KmsMasterKeyId";

	private static final String KMS_DATA_KEY_REUSE_PERIOD_SECONDS = "KmsDataKeyReusePeriodSeconds";

	private static final String SQS_MANAGED_SSE_ENABLED = "SqsManagedSseEnabled";

	/** SQS's default {@code KmsDataKeyReusePeriodSeconds}, once a KMS key is set. */
	private static final String DEFAULT_KMS_REUSE_SECONDS = "300";

	/** The most bytes an access policy may have, SQS's quota. */
	static final int MAX_POLICY_BYTES = 8192;

	/** Only read: never set. */
	private static final Set<String> READ_ONLY = union(
			Set.of(APPROXIMATE_NUMBER_OF_MESSAGES, APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE,
					APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED, QUEUE_ARN, CREATED_TIMESTAMP, LAST_MODIFIED_TIMESTAMP),
			FAIR);

	/** A FIFO queue's alone: unknown to a standard queue, as in SQS. */
	private static final Set<String> FIFO_ONLY = Set.of(CONTENT_BASED_DEDUPLICATION, DEDUPLICATION_SCOPE,
			FIFO_THROUGHPUT_LIMIT);

	/** Every attribute SQS's model names but {@code All}. */
	private static final Set<String> NAMES = union(FAIR,
			Set.of(APPROXIMATE_NUMBER_OF_MESSAGES, APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE,
					APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED, QUEUE_ARN, CREATED_TIMESTAMP, LAST_MODIFIED_TIMESTAMP,
					VISIBILITY_TIMEOUT, DELAY_SECONDS, MESSAGE_RETENTION_PERIOD, REDRIVE_POLICY, MAXIMUM_MESSAGE_SIZE,
					FIFO_QUEUE, CONTENT_BASED_DEDUPLICATION, DEDUPLICATION_SCOPE, FIFO_THROUGHPUT_LIMIT, POLICY,
					RECEIVE_MESSAGE_WAIT_TIME_SECONDS, REDRIVE_ALLOW_POLICY, KMS_MASTER_KEY_ID,
					KMS_DATA_KEY_REUSE_PERIOD_SECONDS, SQS_MANAGED_SSE_ENABLED));

	private static Set<String> union(Set<String> one, Set<String> other) {
		Set<String> both = new HashSet<>(one);
		both.addAll(other);
		return Set.copyOf(both);
	}

	/** Reads the JSON documents inside attributes: policies. */
	private final JsonMapper mapper = RequestJson.mapper(MAX_POLICY_BYTES);

	private final SqsAccess access;

	QueueAttributeActions(QueueOperations queues, QueueUrls urls, SqsAccess access) {
		super(queues, urls);
		this.access = access;
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
	 * change, creating the queue if need be (see {@link QueueOperations#configure}).
	 * @param tags the tags to set, {@code null} for none
	 * @throws SqsException for an attribute not known or only read
	 * ({@code InvalidAttributeName}), a value out of range or malformed
	 * ({@code InvalidAttributeValue}); for tags SQS refuses, or more than the most a
	 * queue carries
	 */
	void configure(String queue, Map<String, String> attributes, QueueTags.Change tags) {
		SettingsChange change = new SettingsChange();
		for (Map.Entry<String, String> attribute : attributes.entrySet()) {
			String name = attribute.getKey();
			String value = attribute.getValue();
			checkSettable(queue, name);
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
				case RECEIVE_MESSAGE_WAIT_TIME_SECONDS ->
					change.recorded(name, Integer.toString(within(name, value, 0, Limits.MAX_WAIT_SECONDS)));
				case KMS_DATA_KEY_REUSE_PERIOD_SECONDS ->
					change.recorded(name, Integer.toString(within(name, value, 60, 86_400)));
				case SQS_MANAGED_SSE_ENABLED -> change.recorded(name, Boolean.toString(bool(name, value)));
				case KMS_MASTER_KEY_ID -> change.recorded(name, value);
				case POLICY -> change.recorded(name, policy(value));
				case REDRIVE_ALLOW_POLICY -> change.recorded(name, redriveAllowPolicy(value));
				default -> throw invalidAttributeName(name);
			}
		}
		encryption(attributes, change);
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

	/**
	 * One server-side encryption at a time, as in SQS: a KMS key turns SQS-managed
	 * encryption off, and turning it on removes the key; both at once are refused.
	 */
	private static void encryption(Map<String, String> attributes, SettingsChange change) {
		String key = attributes.get(KMS_MASTER_KEY_ID);
		boolean keyGiven = key != null && !key.isEmpty();
		boolean managed = "true".equals(attributes.get(SQS_MANAGED_SSE_ENABLED));
		if (keyGiven && managed) {
			throw invalidValue(SQS_MANAGED_SSE_ENABLED,
					"a queue has one server-side encryption: SqsManagedSseEnabled or KmsMasterKeyId.");
		}
		if (keyGiven && !attributes.containsKey(SQS_MANAGED_SSE_ENABLED)) {
			change.recorded(SQS_MANAGED_SSE_ENABLED, "");
		}
		if (managed && key == null) {
			change.recorded(KMS_MASTER_KEY_ID, "").recorded(KMS_DATA_KEY_REUSE_PERIOD_SECONDS, "");
		}
	}

	/**
	 * @throws SqsException {@code InvalidAttributeName} for an attribute SQS does not
	 * have, one only read, or a FIFO queue's on a standard queue
	 */
	private static void checkSettable(String queue, String name) {
		if (READ_ONLY.contains(name) || !NAMES.contains(name)
				|| (FIFO_ONLY.contains(name) && !QueueNames.isFifo(queue))) {
			throw invalidAttributeName(name);
		}
	}

	/**
	 * An access policy as {@code SetQueueAttributes} takes it: a JSON object of at most
	 * {@value #MAX_POLICY_BYTES} bytes, kept as given, and one that can be enforced when
	 * policies are ({@link SqsAccess#checkPolicy}); empty removes the queue's.
	 */
	private String policy(String value) {
		if (value.isEmpty()) {
			return value;
		}
		JsonNode policy = document(POLICY, value);
		if (!policy.isObject() || value.getBytes(StandardCharsets.UTF_8).length > MAX_POLICY_BYTES) {
			throw invalidValue(POLICY, "it is a JSON object of at most " + MAX_POLICY_BYTES + " bytes.");
		}
		this.access.checkPolicy(value);
		return value;
	}

	/**
	 * {@code {"redrivePermission":"allowAll"|"denyAll"|"byQueue","sourceQueueArns":[...]}},
	 * the ARNs (1 to 10) with {@code byQueue} alone; kept as given, enforced nowhere;
	 * empty removes the queue's.
	 */
	private String redriveAllowPolicy(String value) {
		if (value.isEmpty()) {
			return value;
		}
		JsonNode policy = document(REDRIVE_ALLOW_POLICY, value);
		JsonNode permission = policy.isObject() ? policy.get("redrivePermission") : null;
		JsonNode arns = policy.isObject() ? policy.get("sourceQueueArns") : null;
		boolean byQueue = permission != null && "byQueue".equals(permission.stringValue(null));
		boolean valid = permission != null && permission.isString()
				&& Set.of("allowAll", "denyAll", "byQueue").contains(permission.stringValue());
		if (byQueue) {
			valid = valid && arns != null && arns.isArray() && !arns.isEmpty() && arns.size() <= 10;
		}
		else {
			valid = valid && arns == null;
		}
		if (!valid) {
			throw invalidValue(REDRIVE_ALLOW_POLICY, "redrivePermission is allowAll, denyAll, or byQueue "
					+ "with 1 to 10 sourceQueueArns (and only byQueue has them).");
		}
		return value;
	}

	private JsonNode document(String name, String value) {
		try {
			JsonNode json = this.mapper.readTree(value);
			if (json != null) {
				return json;
			}
		}
		catch (JacksonException ex) {
			// answered below
		}
		throw invalidValue(name, "it is not valid JSON.");
	}

	private static SqsException invalidValue(String name, String reason) {
		return SqsError.INVALID_ATTRIBUTE_VALUE
			.exception("Invalid value for the parameter " + name + ". Reason: " + reason);
	}

	private static int within(String name, String value, int min, int max) {
		int whole = whole(name, value);
		if (whole < min || whole > max) {
			throw invalidValue(name, min + " to " + max + ".");
		}
		return whole;
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
