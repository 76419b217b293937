package io.github.qsbench.rest;

import io.github.qsbench.http.JsonAttributes;
import io.github.qsbench.http.RequestJson;
import io.github.qsbench.http.SettingsChange;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;

import io.github.qsbench.application.InvalidRequestException;
import io.github.qsbench.application.LeaseTokens;
import io.github.qsbench.application.Limits;
import io.github.qsbench.application.MessageAttributes;
import io.github.qsbench.application.OutgoingMessage;
import io.github.qsbench.application.messages.MessageOperations.ToComplete;
import io.github.qsbench.application.queues.QueueSettings;
import io.github.qsbench.application.queues.QueueTags;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads the JSON request bodies (the batch endpoints, a push in JSON form), strictly:
 * exactly the documented fields, of the documented types, no duplicate field. Anything
 * else is a 400 naming what was wrong, never a 500. The whole request is read and checked
 * before anything is pushed or completed; how many entries a batch may hold is the
 * application layer's to check.
 */
final class JsonRequests {

	/**
	 * What a batch request may carry beside its bodies: brackets, quotes, commas,
	 * whitespace, and escapes (a {@code "} or {@code \} in a body takes two bytes).
	 */
	static final int JSON_OVERHEAD_BYTES = 64 * 1024;

	/**
	 * The largest settings body: room for {@value QueueTags#MAX_TAGS} tags at their
	 * longest, each character written as a JSON escape.
	 */
	static final int MAX_SETTINGS_BYTES = 256 * 1024;

	private static final String SETTINGS = "leaseSeconds, delaySeconds, retentionSeconds, maxMessageBytes, fifo, contentBasedDeduplication, deduplicationScope, throughputLimit, "
			+ "maxDeliveries, deadLetterQueue and tags";

	private final JsonMapper mapper;

	private final int maxMessageBytes;

	private final int maxRequestBytes;

	JsonRequests(int maxMessageBytes) {
		this.maxMessageBytes = maxMessageBytes;
		this.maxRequestBytes = (int) Math.min(Integer.MAX_VALUE - 8,
				(long) Limits.MAX_BATCH * maxMessageBytes + JSON_OVERHEAD_BYTES);
		this.mapper = RequestJson.mapper(maxMessageBytes);
	}

	/**
	 * The largest request body a batch endpoint reads: 100 messages at the cap plus JSON.
	 */
	int maxRequestBytes() {
		return this.maxRequestBytes;
	}

	/**
	 * The messages of {@code {"messages":["body" or {"body","attributes"}, ...]}}, in
	 * order.
	 * @param maxBytes the largest message of the queue pushed to, at most the message cap
	 * @throws ApiProblem 400 for a malformed batch or an empty body, 413 for a request
	 * over {@link #maxRequestBytes()} or a body over {@code maxBytes}
	 */
	List<OutgoingMessage> messages(InputStream in, long declaredLength, int maxBytes) throws IOException {
		List<JsonNode> entries = new ArrayList<>();
		for (JsonNode entry : entries(read(in, declaredLength), "[\"body\" or {\"body\",\"attributes\"}, ...]")) {
			if (!entry.isString() && !entry.isObject()) {
				throw malformed("Each entry of 'messages' is a string, the message body, or an object "
						+ "{\"body\":\"...\",\"attributes\":{...},\"group\":\"...\"}.");
			}
			entries.add(entry);
		}
		List<OutgoingMessage> messages = new ArrayList<>(entries.size());
		for (JsonNode entry : entries) {
			messages.add(entry.isString() ? OutgoingMessage.of(RequestValidation.text(entry.stringValue(), maxBytes))
					: message(entry, maxBytes, JsonRequests::malformed));
		}
		return messages;
	}

	private static String groupId(String name, JsonNode value, Function<String, ApiProblem> malformed) {
		if (!value.isString() || !OutgoingMessage.isValidId(value.stringValue())) {
			throw malformed.apply("'" + name + "' is 1 to 128 of ASCII's letters, digits and punctuation.");
		}
		return value.stringValue();
	}

	/**
	 * A push's JSON form, {@code {"body":"...","attributes":{"name":{"type","value"}}}},
	 * with {@code "group"} and {@code "deduplicationId"} for a FIFO queue.
	 * @param maxBytes the largest message of the queue pushed to, at most the message cap
	 * @throws ApiProblem 400 for a malformed message or attributes, 413 for a request
	 * over the message cap plus {@value #JSON_OVERHEAD_BYTES} bytes of JSON or a body
	 * over {@code maxBytes}
	 */
	OutgoingMessage message(InputStream in, long declaredLength, int maxBytes) throws IOException {
		int max = (int) Math.min(Integer.MAX_VALUE - 8, (long) this.maxMessageBytes + JSON_OVERHEAD_BYTES);
		byte[] bytes = bytes(in, declaredLength, max, () -> messageTooLarge(max));
		JsonNode root = parse(bytes, JsonRequests::malformedMessage);
		if (root == null || !root.isObject()) {
			throw malformedMessage("The body must be {\"body\":\"...\",\"attributes\":{...}}.");
		}
		return message(root, maxBytes, JsonRequests::malformedMessage);
	}

	private static OutgoingMessage message(JsonNode object, int maxBytes, Function<String, ApiProblem> malformed) {
		String body = null;
		String group = null;
		String deduplicationId = null;
		MessageAttributes attributes = MessageAttributes.NONE;
		try {
			for (Map.Entry<String, JsonNode> field : object.properties()) {
				JsonNode value = field.getValue();
				switch (field.getKey()) {
					case "body" -> {
						if (!value.isString()) {
							throw malformed.apply("'body' must be a string, the message body.");
						}
						body = value.stringValue();
					}
					case "attributes" -> attributes = JsonAttributes.read(value, new AttributeForm(malformed));
					case "group" -> group = groupId("group", value, malformed);
					case "deduplicationId" -> deduplicationId = groupId("deduplicationId", value, malformed);
					default -> throw malformed.apply(
							"A message has only 'body' and, optionally, 'attributes', 'group' and 'deduplicationId'.");
				}
			}
			if (body == null) {
				throw malformed.apply("A message needs a 'body'.");
			}
			return new OutgoingMessage(RequestValidation.text(body, maxBytes), attributes, group, deduplicationId);
		}
		catch (InvalidRequestException ex) {
			throw ApiProblem.badRequest(ex.title(), ex.detail());
		}
	}

	/**
	 * Attributes as the REST API writes them:
	 * {@code {"name":{"type":"String|Number|Binary","value":"..."}}}, binary values in
	 * base64, and nothing else.
	 */
	private record AttributeForm(Function<String, ApiProblem> malformed) implements JsonAttributes.Form {

		@Override
		public RuntimeException notAMap() {
			return this.malformed
				.apply("'attributes' maps each name to {\"type\":\"String|Number|Binary\",\"value\":\"...\"}.");
		}

		@Override
		public JsonAttributes.Typed entry(String name, JsonNode attribute) {
			JsonNode type = attribute.get("type");
			JsonNode value = attribute.get("value");
			if (!attribute.isObject() || attribute.size() != 2 || type == null || !type.isString() || value == null
					|| !value.isString()) {
				throw this.malformed.apply("Attribute '" + name
						+ "' must be {\"type\":\"String|Number|Binary\",\"value\":\"...\"} and nothing else.");
			}
			return new JsonAttributes.Typed(type.stringValue(), value.stringValue());
		}

	}

	/**
	 * A {@code PUT} of a queue's settings: any of {@code leaseSeconds},
	 * {@code delaySeconds}, {@code retentionSeconds}, {@code maxMessageBytes},
	 * {@code maxDeliveries}, {@code deadLetterQueue} (a name, or {@code null} to remove
	 * the dead-letter queue) and {@code tags}, merged as a JSON merge patch (RFC 7396)
	 * merges: a key with a string sets that tag, with {@code null} removes it, others
	 * stay; {@code maxDeliveries} and {@code deadLetterQueue} come together.
	 * @throws ApiProblem 400 for a malformed body, a field not known, or tags SQS refuses
	 */
	QueueSettings.Change settings(InputStream in, long declaredLength) throws IOException {
		byte[] bytes = bytes(in, declaredLength, MAX_SETTINGS_BYTES, () -> ApiProblem.tooLarge("Settings too large",
				"Settings are at most " + MAX_SETTINGS_BYTES + " bytes of JSON."));
		if (bytes.length == 0) {
			return new QueueSettings.Change(null, null, null, null);
		}
		JsonNode root = parse(bytes, JsonRequests::invalidSettings);
		if (root == null || !root.isObject()) {
			throw invalidSettings("The body must be an object with any of " + SETTINGS + ".");
		}
		SettingsChange change = new SettingsChange();
		try {
			for (Map.Entry<String, JsonNode> field : root.properties()) {
				String name = field.getKey();
				JsonNode value = field.getValue();
				switch (name) {
					case "leaseSeconds" -> change.leaseSeconds(whole(name, value));
					case "delaySeconds" -> change.delaySeconds(whole(name, value));
					case "retentionSeconds" -> change.retentionSeconds(whole(name, value));
					case "maxMessageBytes" -> change.maxMessageBytes(whole(name, value));
					case "maxDeliveries" -> change.maxDeliveries(whole(name, value));
					case "deadLetterQueue" -> {
						if (!value.isString() && !value.isNull()) {
							throw invalidSettings("'deadLetterQueue' is a queue's name, or null for none.");
						}
						change.deadLetterQueue(value.isNull() ? null : value.stringValue());
					}
					case "tags" -> change.tags(tags(value));
					case "fifo" -> change.fifo(bool(name, value));
					case "contentBasedDeduplication" -> change.contentBasedDeduplication(bool(name, value));
					case "deduplicationScope" -> change.deduplicationScope(text(name, value));
					case "throughputLimit" -> change.throughputLimit(text(name, value));
					default -> throw invalidSettings("Settings are " + SETTINGS + "; '" + name + "' is not one.");
				}
			}
			return change.change();
		}
		catch (InvalidRequestException ex) {
			throw ApiProblem.badRequest(ex.title(), ex.detail());
		}
	}

	private static boolean bool(String name, JsonNode value) {
		if (!value.isBoolean()) {
			throw invalidSettings("'" + name + "' is true or false.");
		}
		return value.booleanValue();
	}

	private static String text(String name, JsonNode value) {
		if (!value.isString()) {
			throw invalidSettings("'" + name + "' is a string.");
		}
		return value.stringValue();
	}

	/**
	 * {@code "tags"}: an object whose keys map to a value (set) or {@code null}
	 * (removed).
	 */
	private static QueueTags.Change tags(JsonNode tags) {
		if (!tags.isObject()) {
			throw invalidSettings("'tags' maps each key to its value, or to null to remove it.");
		}
		SortedMap<String, String> tag = new TreeMap<>();
		SortedSet<String> untag = new TreeSet<>();
		for (Map.Entry<String, JsonNode> entry : tags.properties()) {
			JsonNode value = entry.getValue();
			if (value.isNull()) {
				untag.add(entry.getKey());
			}
			else if (value.isString()) {
				tag.put(entry.getKey(), value.stringValue());
			}
			else {
				throw invalidSettings("Tag '" + entry.getKey() + "' maps to a string, or to null to remove it.");
			}
		}
		return new QueueTags.Change(tag, untag);
	}

	/**
	 * The body of a lease change: {@code {"leaseSeconds": N}}, N checked by the
	 * application layer.
	 * @throws ApiProblem 400 for anything else
	 */
	int leaseChange(InputStream in, long declaredLength) throws IOException {
		byte[] bytes = bytes(in, declaredLength, JSON_OVERHEAD_BYTES,
				() -> ApiProblem.tooLarge("Lease change too large", "A lease change is {\"leaseSeconds\": N}."));
		JsonNode root = parse(bytes, JsonRequests::invalidLeaseChange);
		if (root == null || !root.isObject() || root.size() != 1 || !root.has("leaseSeconds")) {
			throw invalidLeaseChange(
					"The body must be {\"leaseSeconds\": N}, N from 0 to " + Limits.MAX_LEASE_SECONDS + ".");
		}
		JsonNode value = root.get("leaseSeconds");
		if (!value.isNumber() || !value.canConvertToExactIntegral() || !value.canConvertToInt()) {
			throw invalidLeaseChange("'leaseSeconds' must be a whole number.");
		}
		return value.intValue();
	}

	private static ApiProblem invalidLeaseChange(String detail) {
		return ApiProblem.badRequest("Invalid lease change", detail);
	}

	/** The body of a lease change, as the OpenAPI description shows it. */
	@Schema(name = "LeaseChange", additionalProperties = Schema.AdditionalPropertiesValue.FALSE)
	record LeaseChangeBody(@Schema(requiredMode = Schema.RequiredMode.REQUIRED, minimum = "0",
			maximum = "" + Limits.MAX_LEASE_SECONDS,
			description = "Seconds from now until the lease ends; 0 makes the message ready at once") int leaseSeconds) {
	}

	private static int whole(String name, JsonNode value) {
		if (!value.isNumber() || !value.canConvertToExactIntegral() || !value.canConvertToInt()) {
			throw invalidSettings("'" + name + "' must be a whole number.");
		}
		return value.intValue();
	}

	private static ApiProblem invalidSettings(String detail) {
		return ApiProblem.badRequest("Invalid settings", detail);
	}

	/**
	 * A redrive's optional {@code {"to":"queue","max":N,"maxPerSecond":N}}.
	 * @return {@code to}, {@code max} and {@code maxPerSecond}, each {@code null} if left
	 * out
	 */
	Redrive redrive(InputStream in, long declaredLength) throws IOException {
		byte[] bytes = bytes(in, declaredLength, JSON_OVERHEAD_BYTES, () -> ApiProblem.tooLarge("Redrive too large",
				"A redrive is at most " + JSON_OVERHEAD_BYTES + " bytes."));
		if (bytes.length == 0) {
			return new Redrive(null, null, null);
		}
		JsonNode root = parse(bytes, JsonRequests::invalidRedrive);
		if (root == null || !root.isObject()) {
			throw invalidRedrive("The body is {\"to\":\"queue\",\"max\":N,\"maxPerSecond\":N}, all optional.");
		}
		String to = null;
		Integer max = null;
		Integer maxPerSecond = null;
		for (Map.Entry<String, JsonNode> field : root.properties()) {
			JsonNode value = field.getValue();
			switch (field.getKey()) {
				case "to" -> {
					if (!value.isString()) {
						throw invalidRedrive("'to' is a queue's name.");
					}
					to = value.stringValue();
				}
				case "max" -> {
					if (!value.isNumber() || !value.canConvertToExactIntegral() || !value.canConvertToInt()
							|| value.intValue() < 1) {
						throw invalidRedrive("'max' is a whole number, at least 1.");
					}
					max = value.intValue();
				}
				case "maxPerSecond" -> {
					if (!value.isNumber() || !value.canConvertToExactIntegral() || !value.canConvertToInt()) {
						throw invalidRedrive("'maxPerSecond' is a whole number.");
					}
					maxPerSecond = value.intValue();
				}
				default -> throw invalidRedrive("A redrive has only 'to', 'max' and 'maxPerSecond'.");
			}
		}
		return new Redrive(to, max, maxPerSecond);
	}

	private static ApiProblem invalidRedrive(String detail) {
		return ApiProblem.badRequest("Invalid redrive", detail);
	}

	/**
	 * A redrive's request: where to ({@code null}: each message's source), how many, and,
	 * for a move task, how many a second.
	 */
	record Redrive(String to, Integer max, Integer maxPerSecond) {
	}

	/**
	 * The entries of {@code {"messages":[{"id":1,"lease":"..."}, ...]}}, in order.
	 * @throws ApiProblem 400 for a malformed batch, 413 for a request over
	 * {@link #maxRequestBytes()}
	 */
	List<ToComplete> completions(InputStream in, long declaredLength) throws IOException {
		List<ToComplete> completions = new ArrayList<>();
		for (JsonNode entry : entries(read(in, declaredLength), "[{\"id\":1,\"lease\":\"...\"}, ...]")) {
			completions.add(completion(entry));
		}
		return completions;
	}

	private static ToComplete completion(JsonNode entry) {
		if (!entry.isObject()) {
			throw malformed("Each entry of 'messages' must be an object {\"id\":1,\"lease\":\"...\"}.");
		}
		long id = 0;
		String lease = null;
		for (Map.Entry<String, JsonNode> field : entry.properties()) {
			JsonNode value = field.getValue();
			switch (field.getKey()) {
				case "id" -> {
					// JSON Schema's integer: any number with no fraction, so 1e3 and 5.0
					// too
					if (!value.isNumber() || !value.canConvertToExactIntegral() || !value.canConvertToLong()
							|| value.longValue() < 1) {
						throw malformed("'id' must be a positive whole number as returned by a push.");
					}
					id = value.longValue();
				}
				case "lease" -> {
					if (!value.isString() && !value.isNull()) {
						throw malformed("'lease' must be the string a poll answered as 'lease' (or null).");
					}
					lease = value.isNull() ? null : value.stringValue();
				}
				default -> throw malformed("An entry has only 'id' and, optionally, 'lease'.");
			}
		}
		if (id == 0) {
			throw malformed("Each entry of 'messages' needs an 'id'.");
		}
		return new ToComplete(id, lease);
	}

	private JsonNode read(InputStream in, long declaredLength) throws IOException {
		return parse(bytes(in, declaredLength, this.maxRequestBytes, this::tooLarge), JsonRequests::malformed);
	}

	/**
	 * The request's body, refused with {@code tooLarge} if it is over {@code max} bytes:
	 * by its declared length before reading, else after reading one byte past the limit.
	 */
	private static byte[] bytes(InputStream in, long declaredLength, int max, Supplier<ApiProblem> tooLarge)
			throws IOException {
		if (declaredLength > max) {
			throw tooLarge.get();
		}
		byte[] bytes = in.readNBytes(max + 1);
		if (bytes.length > max) {
			throw tooLarge.get();
		}
		return bytes;
	}

	private JsonNode parse(byte[] bytes, Function<String, ApiProblem> malformed) {
		try {
			return this.mapper.readTree(bytes);
		}
		catch (JacksonException ex) {
			throw malformed.apply("The body is not one well-formed JSON document (UTF-8, no duplicate field, at most "
					+ RequestJson.MAX_DEPTH + " levels deep).");
		}
	}

	private static ApiProblem messageTooLarge(int max) {
		return ApiProblem.tooLarge("Message too large", "A push in JSON form may be at most " + max
				+ " bytes (qs.max-message-size plus " + JSON_OVERHEAD_BYTES + " bytes of JSON).");
	}

	private static ApiProblem malformedMessage(String detail) {
		return ApiProblem.badRequest("Invalid message", detail);
	}

	private static Iterable<JsonNode> entries(JsonNode root, String shape) {
		if (root == null || !root.isObject() || root.size() != 1 || !root.has("messages")
				|| !root.get("messages").isArray()) {
			throw malformed("The body must be {\"messages\":" + shape + "} and nothing else.");
		}
		return root.get("messages");
	}

	private ApiProblem tooLarge() {
		return ApiProblem.tooLarge("Batch too large",
				"A batch request body may be at most " + this.maxRequestBytes + " bytes (" + Limits.MAX_BATCH
						+ " messages at qs.max-message-size plus " + JSON_OVERHEAD_BYTES + " bytes of JSON).");
	}

	private static ApiProblem malformed(String detail) {
		return ApiProblem.badRequest("Invalid batch", detail);
	}

	/** The body of a batch push, as the OpenAPI description shows it. */
	@Schema(name = "PushBatch", additionalProperties = Schema.AdditionalPropertiesValue.FALSE)
	record PushBatch(@ArraySchema(arraySchema = @Schema(requiredMode = Schema.RequiredMode.REQUIRED), minItems = 1,
			maxItems = Limits.MAX_BATCH,
			schema = @Schema(description = "A message body, or a message with attributes", oneOf = {
					MessageBody.class, PushMessage.class })) List<Object> messages){
	}

	/** A message body alone, as a batch entry. */
	@Schema(name = "MessageBody", type = "string", minLength = 1, description = "A message body")
	record MessageBody() {
	}

	/** A push in JSON form, and a batch entry with attributes. */
	@Schema(name = "PushMessage", additionalProperties = Schema.AdditionalPropertiesValue.FALSE)
	record PushMessage(@Schema(requiredMode = Schema.RequiredMode.REQUIRED, minLength = 1) String body,
			@Schema(description = "Up to 10 attributes by name (1 to 256 of A-Z a-z 0-9 _ - .)",
					maxProperties = MessageAttributes.MAX_ATTRIBUTES) Map<String, AttributeEntry> attributes,
			@Schema(pattern = OutgoingMessage.ID_PATTERN,
					description = "The message group (SQS's MessageGroupId): required on a FIFO queue (its "
							+ "messages are delivered in order, one at a time); on a standard queue the tenant of a "
							+ "fair queue: a tenant with at least 30 messages released and more than 10% of the "
							+ "queue's is noisy, and its further messages wait until no quiet tenant's does") String group,
			@Schema(pattern = OutgoingMessage.ID_PATTERN,
					description = "A FIFO queue's deduplication id: a push with one seen in the last 5 minutes "
							+ "answers the first push's id") String deduplicationId) {
	}

	/** One attribute of {@link PushMessage}. */
	@Schema(name = "MessageAttribute", additionalProperties = Schema.AdditionalPropertiesValue.FALSE)
	record AttributeEntry(
			@Schema(requiredMode = Schema.RequiredMode.REQUIRED, pattern = "^(String|Number|Binary)(\\..+)?$",
					description = "String, Number or Binary, optionally with a custom suffix") String type,
			@Schema(requiredMode = Schema.RequiredMode.REQUIRED, minLength = 1,
					description = "The value: text, a number, or base64 for Binary") String value) {
	}

	/** The body of a completions batch, as the OpenAPI description shows it. */
	@Schema(name = "CompletionBatch", additionalProperties = Schema.AdditionalPropertiesValue.FALSE)
	record CompletionBatch(@ArraySchema(arraySchema = @Schema(requiredMode = Schema.RequiredMode.REQUIRED),
			minItems = 1, maxItems = Limits.MAX_BATCH) List<CompletionEntry> messages) {
	}

	/** One entry of {@link CompletionBatch}. */
	@Schema(name = "CompletionEntry", additionalProperties = Schema.AdditionalPropertiesValue.FALSE)
	record CompletionEntry(
			@Schema(requiredMode = Schema.RequiredMode.REQUIRED, minimum = "1",
					description = "The message id, as returned by a push") long id,
			@Schema(description = "The lease a poll answered; completes only that delivery, like If-Match",
					nullable = true, pattern = "^" + LeaseTokens.TOKEN_REGEX + "$") String lease) {
	}

}
