package io.github.qsbench.rest;

import io.github.qsbench.http.JsonAttributes;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import io.github.qsbench.application.InvalidRequestException;
import io.github.qsbench.application.Limits;
import io.github.qsbench.application.MessageAttributes;
import io.github.qsbench.application.OutgoingMessage;
import io.github.qsbench.application.messages.MessageOperations.BatchEntry;
import tools.jackson.databind.JsonNode;

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

	private final JsonBody body;

	private final int maxMessageBytes;

	private final int maxRequestBytes;

	JsonRequests(int maxMessageBytes) {
		this.maxMessageBytes = maxMessageBytes;
		this.maxRequestBytes = (int) Math.min(Integer.MAX_VALUE - 8,
				(long) Limits.MAX_BATCH * maxMessageBytes + JSON_OVERHEAD_BYTES);
		this.body = new JsonBody(maxMessageBytes);
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
		byte[] bytes = JsonBody.bytes(in, declaredLength, max, () -> messageTooLarge(max));
		JsonNode root = this.body.parse(bytes, JsonRequests::malformedMessage);
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
	 * The body of a lease change: {@code {"leaseSeconds": N}}, N checked by the
	 * application layer.
	 * @throws ApiProblem 400 for anything else
	 */
	int leaseChange(InputStream in, long declaredLength) throws IOException {
		byte[] bytes = JsonBody.bytes(in, declaredLength, JSON_OVERHEAD_BYTES,
				() -> ApiProblem.tooLarge("Lease change too large", "A lease change is {\"leaseSeconds\": N}."));
		JsonNode root = this.body.parse(bytes, JsonRequests::invalidLeaseChange);
		if (root == null || !root.isObject() || root.size() != 1 || !root.has("leaseSeconds")) {
			throw invalidLeaseChange(
					"The body must be {\"leaseSeconds\": N}, N from 0 to " + Limits.MAX_LEASE_SECONDS + ".");
		}
		JsonNode value = root.get("leaseSeconds");
		if (!JsonBody.isInt(value)) {
			throw invalidLeaseChange("'leaseSeconds' must be a whole number.");
		}
		return value.intValue();
	}

	private static ApiProblem invalidLeaseChange(String detail) {
		return ApiProblem.badRequest("Invalid lease change", detail);
	}

	/**
	 * The entries of {@code {"messages":[{"id":1,"lease":"..."}, ...]}}, in order.
	 * @throws ApiProblem 400 for a malformed batch, 413 for a request over
	 * {@link #maxRequestBytes()}
	 */
	List<BatchEntry> completions(InputStream in, long declaredLength) throws IOException {
		List<BatchEntry> completions = new ArrayList<>();
		for (JsonNode entry : entries(read(in, declaredLength), "[{\"id\":1,\"lease\":\"...\"}, ...]")) {
			completions.add(completion(entry));
		}
		return completions;
	}

	private static BatchEntry completion(JsonNode entry) {
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
		return new BatchEntry(id, lease);
	}

	private JsonNode read(InputStream in, long declaredLength) throws IOException {
		return this.body.parse(JsonBody.bytes(in, declaredLength, this.maxRequestBytes, this::tooLarge),
				JsonRequests::malformed);
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

}
