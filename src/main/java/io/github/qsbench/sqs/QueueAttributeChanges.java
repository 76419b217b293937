package io.github.qsbench.sqs;

import static io.github.qsbench.sqs.QueueAttributeNames.*;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;

import io.github.qsbench.application.InvalidRequestException;
import io.github.qsbench.application.Limits;
import io.github.qsbench.application.queues.DeadLetterPolicy;
import io.github.qsbench.application.queues.QueueOperations;
import io.github.qsbench.application.queues.QueueSettings;
import io.github.qsbench.application.queues.QueueTags;
import io.github.qsbench.http.RequestJson;
import io.github.qsbench.http.SettingsChange;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What {@code SetQueueAttributes} (and a {@code CreateQueue}) is given, checked as SQS
 * checks each value and read into the same {@link SettingsChange} as the REST API's
 * settings: what queues have of their own, and what they record as given
 * ({@link QueueSettings#recorded}: the access policy and encryption settings, which
 * nothing here enforces, and the default receive wait).
 */
final class QueueAttributeChanges {

	/** Reads the JSON documents inside attributes: policies. */
	private final JsonMapper mapper = RequestJson.mapper(MAX_POLICY_BYTES);

	private final QueueOperations queues;

	private final QueueUrls urls;

	private final SqsAccess access;

	QueueAttributeChanges(QueueOperations queues, QueueUrls urls, SqsAccess access) {
		this.queues = queues;
		this.urls = urls;
		this.access = access;
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
				default -> throw QueueHandler.invalidAttributeName(name);
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
	 * An access policy as {@code SetQueueAttributes} takes it: a JSON object of at most
	 * {@value QueueAttributeNames#MAX_POLICY_BYTES} bytes, kept as given, and one that
	 * can be enforced when policies are ({@link SqsAccess#checkPolicy}); empty removes
	 * the queue's.
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
