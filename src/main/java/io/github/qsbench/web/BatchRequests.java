package io.github.qsbench.web;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.github.qsbench.application.LeaseTokens;
import io.github.qsbench.application.QueueOperations;
import io.github.qsbench.application.QueueOperations.ToComplete;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads the JSON bodies of the batch endpoints, strictly: exactly the documented fields,
 * of the documented types, no duplicate field. Anything else is a 400 naming what was
 * wrong, never a 500. The whole request is read and checked before anything is pushed or
 * completed; how many entries a batch may hold is the application layer's to check.
 */
final class BatchRequests {

	/** Entries a batch may carry, and messages a poll may deliver at once. */
	static final int MAX_ENTRIES = QueueOperations.MAX_BATCH;

	/**
	 * What a batch request may carry beside its bodies: brackets, quotes, commas,
	 * whitespace, and escapes (a {@code "} or {@code \} in a body takes two bytes).
	 */
	static final int JSON_OVERHEAD_BYTES = 64 * 1024;

	private final JsonMapper mapper;

	private final int maxMessageBytes;

	private final int maxRequestBytes;

	BatchRequests(int maxMessageBytes) {
		this.maxMessageBytes = maxMessageBytes;
		this.maxRequestBytes = (int) Math.min(Integer.MAX_VALUE - 8,
				(long) MAX_ENTRIES * maxMessageBytes + JSON_OVERHEAD_BYTES);
		this.mapper = RequestJson.mapper(maxMessageBytes);
	}

	/**
	 * The largest request body a batch endpoint reads: 100 messages at the cap plus JSON.
	 */
	int maxRequestBytes() {
		return this.maxRequestBytes;
	}

	/**
	 * The bodies of {@code {"messages":["body", ...]}}, in order, as UTF-8.
	 * @throws ApiProblem 400 for a malformed batch or an empty body, 413 for a request
	 * over {@link #maxRequestBytes()} or a body over the message cap
	 */
	List<byte[]> bodies(InputStream in, long declaredLength) throws IOException {
		List<String> texts = new ArrayList<>();
		for (JsonNode entry : entries(read(in, declaredLength), "[\"body\", ...]")) {
			if (!entry.isString()) {
				throw malformed("Each entry of 'messages' must be a string, the message body.");
			}
			texts.add(entry.stringValue());
		}
		List<byte[]> bodies = new ArrayList<>(texts.size());
		for (String text : texts) {
			RequestValidation.text(text, this.maxMessageBytes);
			bodies.add(text.getBytes(StandardCharsets.UTF_8));
		}
		return bodies;
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
		if (declaredLength > this.maxRequestBytes) {
			throw tooLarge();
		}
		byte[] bytes = in.readNBytes(this.maxRequestBytes + 1);
		if (bytes.length > this.maxRequestBytes) {
			throw tooLarge();
		}
		try {
			return this.mapper.readTree(bytes);
		}
		catch (JacksonException ex) {
			throw malformed("The body is not one well-formed JSON document (UTF-8, no duplicate field, at most "
					+ RequestJson.MAX_DEPTH + " levels deep).");
		}
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
				"A batch request body may be at most " + this.maxRequestBytes + " bytes (" + MAX_ENTRIES
						+ " messages at qs.max-message-size plus " + JSON_OVERHEAD_BYTES + " bytes of JSON).");
	}

	private static ApiProblem malformed(String detail) {
		return ApiProblem.badRequest("Invalid batch", detail);
	}

	/** The body of a batch push, as the OpenAPI description shows it. */
	@Schema(name = "PushBatch", additionalProperties = Schema.AdditionalPropertiesValue.FALSE)
	record PushBatch(@ArraySchema(arraySchema = @Schema(requiredMode = Schema.RequiredMode.REQUIRED), minItems = 1,
			maxItems = MAX_ENTRIES,
			schema = @Schema(minLength = 1, description = "A message body")) List<String> messages) {
	}

	/** The body of a completions batch, as the OpenAPI description shows it. */
	@Schema(name = "CompletionBatch", additionalProperties = Schema.AdditionalPropertiesValue.FALSE)
	record CompletionBatch(@ArraySchema(arraySchema = @Schema(requiredMode = Schema.RequiredMode.REQUIRED),
			minItems = 1, maxItems = MAX_ENTRIES) List<CompletionEntry> messages) {
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
