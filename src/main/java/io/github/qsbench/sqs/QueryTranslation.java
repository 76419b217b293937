package io.github.qsbench.sqs;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.NavigableMap;

import io.github.qsbench.sqs.QueryModel.Operation;
import io.github.qsbench.sqs.QueryModel.Ref;
import io.github.qsbench.sqs.QueryModel.Shape;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The query protocol's wire forms, translated by the model ({@link QueryModel}) alone: a
 * request's flattened form parameters into the JSON members the actions read
 * ({@code Attribute.1.Name=VisibilityTimeout&Attribute.1.Value=60} into
 * {@code {"Attributes":{"VisibilityTimeout":"60"}}}), and an action's JSON answer into
 * SQS's XML document ({@code <ActionResponse><ActionResult>...}), as botocore's query
 * serializer and parser read the same model. Form members the model does not name are
 * ignored, as SQS ignores them; a number that does not parse is handed on as text, for
 * the action to refuse as it refuses a JSON member of the wrong type. Stateless.
 */
final class QueryTranslation {

	private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

	private final QueryModel model;

	QueryTranslation(QueryModel model) {
		this.model = model;
	}

	/** The request's members, as the JSON protocol carries them. */
	ObjectNode members(Operation operation, NavigableMap<String, String> form) {
		return structure(this.model.shape(operation.input()), "", form);
	}

	private ObjectNode structure(Shape shape, String prefix, NavigableMap<String, String> form) {
		ObjectNode members = JSON.objectNode();
		shape.members().forEach((name, ref) -> {
			JsonNode value = value(ref, prefix + this.model.wireName(ref, name), form);
			if (value == null && !name.equals(this.model.wireName(ref, name))) {
				// where the SDKs send the member's own name (the Java v1 SDK's TagQueue:
				// Tags.1.Key, not the model's Tag.1.Key), what they send is taken
				value = value(ref, prefix + name, form);
			}
			if (value != null) {
				members.set(name, value);
			}
		});
		return members;
	}

	/** The value whose parameters are named {@code name}, or {@code null} if absent. */
	private JsonNode value(Ref ref, String name, NavigableMap<String, String> form) {
		Shape shape = this.model.shape(ref);
		return switch (shape.type()) {
			case STRUCTURE -> hasPrefix(form, name + ".") ? structure(shape, name + ".", form) : null;
			case LIST -> list(ref, shape, name, form);
			case MAP -> map(ref, shape, name, form);
			case INTEGER, LONG -> number(form.get(name));
			case BOOLEAN -> bool(form.get(name));
			case STRING, BLOB -> text(form.get(name));
		};
	}

	/**
	 * A flattened list's elements are {@code <member's name>.1}, {@code .2}, ... in place
	 * of the list's own name ({@code AttributeName.1}); a wrapped one's
	 * {@code <name>.member.1}, ... Elements are read up to the first index missing.
	 */
	private JsonNode list(Ref ref, Shape shape, String name, NavigableMap<String, String> form) {
		String elements;
		if (this.model.flattened(ref)) {
			String member = shape.member().locationName();
			elements = (member != null) ? name.substring(0, name.lastIndexOf('.') + 1) + member : name;
		}
		else {
			elements = name + "."
					+ ((shape.member().locationName() != null) ? shape.member().locationName() : "member");
		}
		ArrayNode list = JSON.arrayNode();
		for (int i = 1;; i++) {
			JsonNode element = value(shape.member(), elements + "." + i, form);
			if (element == null) {
				return list.isEmpty() ? null : list;
			}
			list.add(element);
		}
	}

	/**
	 * A map's entries are {@code <name>.1.<key's name>} and {@code <name>.1.<value's
	 * name>}, ... ({@code Attribute.1.Name}, {@code Attribute.1.Value}), under
	 * {@code <name>.entry} when not flattened.
	 */
	private JsonNode map(Ref ref, Shape shape, String name, NavigableMap<String, String> form) {
		String entries = this.model.flattened(ref) ? name : name + ".entry";
		String key = (shape.key().locationName() != null) ? shape.key().locationName() : "key";
		String value = (shape.value().locationName() != null) ? shape.value().locationName() : "value";
		ObjectNode map = JSON.objectNode();
		for (int i = 1;; i++) {
			String entry = entries + "." + i + ".";
			String k = form.get(entry + key);
			if (k == null) {
				return map.isEmpty() ? null : map;
			}
			JsonNode v = value(shape.value(), entry + value, form);
			map.set(k, (v != null) ? v : JSON.nullNode());
		}
	}

	private static boolean hasPrefix(NavigableMap<String, String> form, String prefix) {
		String next = form.ceilingKey(prefix);
		return next != null && next.startsWith(prefix);
	}

	private static JsonNode number(String text) {
		if (text == null) {
			return null;
		}
		try {
			return JSON.numberNode(Long.parseLong(text));
		}
		catch (NumberFormatException ex) {
			return JSON.stringNode(text);
		}
	}

	private static JsonNode bool(String text) {
		if (text == null) {
			return null;
		}
		return switch (text) {
			case "true" -> JSON.booleanNode(true);
			case "false" -> JSON.booleanNode(false);
			default -> JSON.stringNode(text);
		};
	}

	private static JsonNode text(String text) {
		return (text != null) ? JSON.stringNode(text) : null;
	}

	/**
	 * SQS's answer document: {@code <ActionResponse xmlns=...>}, the answer's members
	 * under {@code <ActionResult>} (for an action that answers any), and
	 * {@code <ResponseMetadata><RequestId>}.
	 */
	byte[] answer(Operation operation, ObjectNode answer, String requestId) {
		StringBuilder xml = new StringBuilder(256);
		xml.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?><")
			.append(operation.name())
			.append("Response xmlns=\"")
			.append(this.model.namespace())
			.append("\">");
		if (operation.output() != null) {
			open(xml, operation.resultWrapper());
			members(xml, this.model.shape(operation.output()), answer);
			close(xml, operation.resultWrapper());
		}
		xml.append("<ResponseMetadata><RequestId>").append(requestId).append("</RequestId></ResponseMetadata></");
		xml.append(operation.name()).append("Response>");
		return xml.toString().getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * SQS's error document: {@code <ErrorResponse>} with the error's {@code Type}
	 * ({@code Sender} or {@code Receiver}), its legacy {@code Code} (the query
	 * protocol's, {@code AWS.SimpleQueueService.NonExistentQueue}) and {@code Message}.
	 */
	byte[] error(SqsError error, String message, String requestId) {
		StringBuilder xml = new StringBuilder(256);
		xml.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?><ErrorResponse xmlns=\"")
			.append(this.model.namespace())
			.append("\"><Error><Type>")
			.append(error.isSenderFault() ? "Sender" : "Receiver")
			.append("</Type><Code>")
			.append(error.legacyCode())
			.append("</Code><Message>");
		escape(xml, message);
		xml.append("</Message><Detail/></Error><RequestId>").append(requestId).append("</RequestId></ErrorResponse>");
		return xml.toString().getBytes(StandardCharsets.UTF_8);
	}

	private void members(StringBuilder xml, Shape shape, JsonNode answer) {
		shape.members().forEach((name, ref) -> {
			JsonNode value = answer.get(name);
			if (value != null && !value.isNull()) {
				member(xml, this.model.wireName(ref, name), ref, value);
			}
		});
	}

	/**
	 * A member named {@code element}: a flattened list as its elements, each under the
	 * list member's name ({@code <QueueUrl>} repeated), a wrapped one under
	 * {@code <element><member>}; a flattened map as one {@code <element>} per entry
	 * holding its key and value ({@code <Attribute><Name/><Value/></Attribute>}), a
	 * wrapped one under {@code <element><entry>}.
	 */
	private void member(StringBuilder xml, String element, Ref ref, JsonNode value) {
		Shape shape = this.model.shape(ref);
		switch (shape.type()) {
			case LIST -> {
				String item = (shape.member().locationName() != null) ? shape.member().locationName()
						: this.model.flattened(ref) ? element : "member";
				if (!this.model.flattened(ref)) {
					open(xml, element);
				}
				for (JsonNode each : value.values()) {
					member(xml, item, shape.member(), each);
				}
				if (!this.model.flattened(ref)) {
					close(xml, element);
				}
			}
			case MAP -> {
				String entry = this.model.flattened(ref) ? element : "entry";
				String key = (shape.key().locationName() != null) ? shape.key().locationName() : "key";
				String valueName = (shape.value().locationName() != null) ? shape.value().locationName() : "value";
				if (!this.model.flattened(ref)) {
					open(xml, element);
				}
				for (Map.Entry<String, JsonNode> each : value.properties()) {
					open(xml, entry);
					open(xml, key);
					escape(xml, each.getKey());
					close(xml, key);
					member(xml, valueName, shape.value(), each.getValue());
					close(xml, entry);
				}
				if (!this.model.flattened(ref)) {
					close(xml, element);
				}
			}
			case STRUCTURE -> {
				open(xml, element);
				members(xml, shape, value);
				close(xml, element);
			}
			default -> {
				open(xml, element);
				escape(xml, value.asString());
				close(xml, element);
			}
		}
	}

	private static void open(StringBuilder xml, String element) {
		xml.append('<').append(element).append('>');
	}

	private static void close(StringBuilder xml, String element) {
		xml.append("</").append(element).append('>');
	}

	/**
	 * Text as XML character data: markup escaped, and a carriage return as a reference,
	 * so that the client's parser does not fold {@code \r\n} into {@code \n} (the body's
	 * MD5 would differ). Characters XML 1.0 cannot carry (controls other than tab,
	 * newline and return), which the SQS face refuses at send but a REST push may carry,
	 * are written as character references too, which a strict parser refuses.
	 */
	static void escape(StringBuilder xml, String text) {
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			switch (c) {
				case '<' -> xml.append("&lt;");
				case '>' -> xml.append("&gt;");
				case '&' -> xml.append("&amp;");
				case '\r' -> xml.append("&#xD;");
				default -> {
					if ((c < 0x20 && c != '\t' && c != '\n') || c == 0xFFFE || c == 0xFFFF) {
						xml.append("&#x").append(Integer.toHexString(c)).append(';');
					}
					else {
						xml.append(c);
					}
				}
			}
		}
	}

}
