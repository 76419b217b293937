package io.github.qsbench.sqs;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import tools.jackson.databind.JsonNode;

/**
 * The members of one request (or of one batch entry) of the AWS JSON 1.0 protocol, read
 * by name with the types the SQS API declares: a member of the wrong type is the client's
 * error, answered {@code InvalidParameterValue}. Members this face does not know are
 * ignored, as SQS ignores them.
 */
record SqsRequest(JsonNode members) {

	/** The string member, or {@code null} if absent (or JSON {@code null}). */
	String string(String name) {
		JsonNode value = this.members.get(name);
		if (value == null || value.isNull()) {
			return null;
		}
		if (!value.isString()) {
			throw invalid(name, "must be a string");
		}
		return value.stringValue();
	}

	/**
	 * The string member.
	 * @throws SqsException {@code MissingParameter} if absent
	 */
	String required(String name) {
		String value = string(name);
		if (value == null) {
			throw SqsError.MISSING_PARAMETER.exception("The request must contain the parameter " + name + ".");
		}
		return value;
	}

	/**
	 * The whole-number member from {@code min} to {@code max}, or {@code null} if absent.
	 */
	Integer integer(String name, int min, int max) {
		JsonNode value = this.members.get(name);
		if (value == null || value.isNull()) {
			return null;
		}
		if (!value.isNumber() || !value.canConvertToExactIntegral() || !value.canConvertToInt()
				|| value.intValue() < min || value.intValue() > max) {
			throw invalid(name, "must be a whole number from " + min + " to " + max);
		}
		return value.intValue();
	}

	/** The list of strings, empty if absent. */
	List<String> strings(String name) {
		List<String> strings = new ArrayList<>();
		for (JsonNode value : array(name)) {
			if (!value.isString()) {
				throw invalid(name, "must be a list of strings");
			}
			strings.add(value.stringValue());
		}
		return strings;
	}

	/** The map of strings to strings, empty if absent. */
	Map<String, String> stringMap(String name) {
		JsonNode value = this.members.get(name);
		Map<String, String> map = new LinkedHashMap<>();
		if (value == null || value.isNull()) {
			return map;
		}
		if (!value.isObject()) {
			throw invalid(name, "must be a map of names to strings");
		}
		for (Map.Entry<String, JsonNode> entry : value.properties()) {
			if (!entry.getValue().isString()) {
				throw invalid(name, "must be a map of names to strings");
			}
			map.put(entry.getKey(), entry.getValue().stringValue());
		}
		return map;
	}

	/** Whether the member is present with content: not absent, null, or empty. */
	boolean present(String name) {
		JsonNode value = this.members.get(name);
		return value != null && !value.isNull() && !(value.isContainer() && value.isEmpty());
	}

	/** The list of objects (a batch's entries), empty if absent. */
	List<SqsRequest> entries(String name) {
		List<SqsRequest> entries = new ArrayList<>();
		for (JsonNode value : array(name)) {
			if (!value.isObject()) {
				throw invalid(name, "must be a list of entries");
			}
			entries.add(new SqsRequest(value));
		}
		return entries;
	}

	private Iterable<JsonNode> array(String name) {
		JsonNode value = this.members.get(name);
		if (value == null || value.isNull()) {
			return List.of();
		}
		if (!value.isArray()) {
			throw invalid(name, "must be a list");
		}
		return value.values();
	}

	/**
	 * A request's body, read whole: what both protocols parse and a signature covers.
	 * @throws SqsException {@code InvalidParameterValue} for a body over {@code maxBytes}
	 */
	static byte[] body(HttpServletRequest request, int maxBytes) throws IOException {
		if (request.getContentLengthLong() <= maxBytes) {
			try (InputStream in = request.getInputStream()) {
				byte[] bytes = in.readNBytes(maxBytes + 1);
				if (bytes.length <= maxBytes) {
					return bytes;
				}
			}
		}
		throw SqsError.INVALID_PARAMETER_VALUE.exception("The request is larger than " + maxBytes + " bytes.");
	}

	static SqsException invalid(String name, String reason) {
		return SqsError.INVALID_PARAMETER_VALUE
			.exception("Value for parameter " + name + " is invalid. Reason: " + name + " " + reason + ".");
	}

}
