package io.github.qsbench.sqs;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

import io.github.qsbench.application.MessageAttributes;
import io.github.qsbench.application.MessageAttributes.Attribute;
import io.github.qsbench.application.StoredMessage;
import tools.jackson.databind.JsonNode;

/**
 * The message system attributes a send or batch entry may carry
 * ({@code MessageSystemAttributes}), as SQS takes them: only {@code AWSTraceHeader}, of
 * type {@code String}, with a value of SQS's characters ({@link MessageCharacters}); any
 * other name, type or shape is refused {@code InvalidParameterValue}. The value is not
 * checked to be an X-Ray header: SQS stores any text (such as {@code Root=1-abc-def}).
 * Not counted against the message's size, as SQS does not count it; at most
 * {@value StoredMessage#MAX_TRACE_HEADER_BYTES} bytes in UTF-8, this service's own bound.
 */
final class MessageSystemAttributes {

	static final String AWS_TRACE_HEADER = "AWSTraceHeader";

	private MessageSystemAttributes() {
	}

	/**
	 * The trace header {@code request} carries, {@code null} for none.
	 * @throws SqsException for anything SQS refuses there
	 */
	static String traceHeader(SqsRequest request) {
		JsonNode given = request.members().get("MessageSystemAttributes");
		if (given == null || given.isNull()) {
			return null;
		}
		if (!given.isObject()) {
			throw SqsRequest.invalid("MessageSystemAttributes", "must be a map");
		}
		String traceHeader = null;
		for (Map.Entry<String, JsonNode> entry : given.properties()) {
			if (!entry.getKey().equals(AWS_TRACE_HEADER)) {
				throw SqsError.INVALID_PARAMETER_VALUE
					.exception("Message system attribute name '" + entry.getKey() + "' is invalid.");
			}
			traceHeader = value(entry.getValue());
		}
		return traceHeader;
	}

	private static String value(JsonNode given) {
		if (given == null || !given.isObject()) {
			throw SqsRequest.invalid("MessageSystemAttributes", "maps AWSTraceHeader to {DataType, StringValue}");
		}
		SqsRequest value = new SqsRequest(given);
		if (!"String".equals(value.string("DataType"))) {
			throw SqsError.INVALID_PARAMETER_VALUE.exception("The message system attribute '" + AWS_TRACE_HEADER
					+ "' is reserved for AWS X-Ray trace header. The type must be 'String'.");
		}
		if (value.string("BinaryValue") != null || value.present("StringListValues")
				|| value.present("BinaryListValues")) {
			throw SqsError.INVALID_PARAMETER_VALUE
				.exception("Message system attribute '" + AWS_TRACE_HEADER + "' carries a StringValue only.");
		}
		String text = value.string("StringValue");
		if (text == null || text.isEmpty()) {
			throw SqsError.INVALID_PARAMETER_VALUE.exception("Message system attribute '" + AWS_TRACE_HEADER
					+ "' must contain a non-empty value of type 'String'.");
		}
		MessageCharacters.check(text, "Message system attribute '" + AWS_TRACE_HEADER + "'");
		if (text.length() > StoredMessage.MAX_TRACE_HEADER_BYTES / 3
				&& text.getBytes(StandardCharsets.UTF_8).length > StoredMessage.MAX_TRACE_HEADER_BYTES) {
			throw SqsError.INVALID_PARAMETER_VALUE.exception("Message system attribute '" + AWS_TRACE_HEADER
					+ "' is longer than " + StoredMessage.MAX_TRACE_HEADER_BYTES + " bytes in UTF-8.");
		}
		return text;
	}

	/**
	 * {@code MD5OfMessageSystemAttributes} of a send carrying {@code traceHeader}: the
	 * MD5 of the system attributes as SQS computes {@code MD5OfMessageAttributes}
	 * ({@link Md5#ofAttributes}).
	 */
	static String md5(String traceHeader) {
		return Md5.ofAttributes(new MessageAttributes(new TreeMap<>(
				Map.of(AWS_TRACE_HEADER, new Attribute("String", traceHeader.getBytes(StandardCharsets.UTF_8))))));
	}

}
