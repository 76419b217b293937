package io.github.qsbench.rest;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

import io.github.qsbench.application.InvalidRequestException;
import io.github.qsbench.application.queues.QueueSettings;
import io.github.qsbench.application.queues.QueueTags;
import io.github.qsbench.http.SettingsChange;
import tools.jackson.databind.JsonNode;

/**
 * Reads the JSON bodies of a queue's own requests (its settings, a redrive) as strictly
 * as {@link JsonRequests} reads the messages': exactly the documented fields, of the
 * documented types; anything else is a 400 naming what was wrong.
 */
final class QueueJsonRequests {

	/**
	 * The largest settings body: room for {@value QueueTags#MAX_TAGS} tags at their
	 * longest, each character written as a JSON escape.
	 */
	static final int MAX_SETTINGS_BYTES = 256 * 1024;

	private static final String SETTINGS = "leaseSeconds, delaySeconds, retentionSeconds, maxMessageBytes, fifo, contentBasedDeduplication, deduplicationScope, throughputLimit, "
			+ "maxDeliveries, deadLetterQueue and tags";

	private final JsonBody body;

	QueueJsonRequests(int maxMessageBytes) {
		this.body = new JsonBody(maxMessageBytes);
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
		byte[] bytes = JsonBody.bytes(in, declaredLength, MAX_SETTINGS_BYTES, () -> ApiProblem
			.tooLarge("Settings too large", "Settings are at most " + MAX_SETTINGS_BYTES + " bytes of JSON."));
		if (bytes.length == 0) {
			return new QueueSettings.Change(null, null, null, null);
		}
		JsonNode root = this.body.parse(bytes, QueueJsonRequests::invalidSettings);
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

	private static int whole(String name, JsonNode value) {
		if (!JsonBody.isInt(value)) {
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
		byte[] bytes = JsonBody.bytes(in, declaredLength, JsonRequests.JSON_OVERHEAD_BYTES, () -> ApiProblem
			.tooLarge("Redrive too large", "A redrive is at most " + JsonRequests.JSON_OVERHEAD_BYTES + " bytes."));
		if (bytes.length == 0) {
			return new Redrive(null, null, null);
		}
		JsonNode root = this.body.parse(bytes, QueueJsonRequests::invalidRedrive);
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
					if (!JsonBody.isInt(value) || value.intValue() < 1) {
						throw invalidRedrive("'max' is a whole number, at least 1.");
					}
					max = value.intValue();
				}
				case "maxPerSecond" -> {
					if (!JsonBody.isInt(value)) {
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

}
