package io.github.qsbench.http;

import java.util.LinkedHashMap;
import java.util.Map;

import io.github.qsbench.application.InvalidRequestException;
import io.github.qsbench.application.MessageAttributes;
import io.github.qsbench.application.MessageAttributes.Attribute;
import tools.jackson.databind.JsonNode;

/**
 * Message attributes as both faces carry them in JSON, read by one parser: a map from
 * each attribute's name to an entry holding its type and its value as text (base64 for
 * {@code Binary}). Each face's {@link Form} reads an entry of its own shape (REST's
 * {@code {"type","value"}}, SQS's {@code {"DataType","StringValue"|"BinaryValue"}}); the
 * rules of names, types, values and count are {@link MessageAttributes}'s, the same for
 * both.
 */
public final class JsonAttributes {

	private JsonAttributes() {
	}

	/**
	 * The attributes {@code given} names ({@code null}, absent: none). A JSON
	 * {@code null} is not a map: a face that takes it for none says so before it calls
	 * this.
	 * @throws InvalidRequestException for attributes SQS's rules refuse
	 * @throws RuntimeException the form's error for a map or an entry not in its shape
	 */
	public static MessageAttributes read(JsonNode given, Form form) {
		if (given == null) {
			return MessageAttributes.NONE;
		}
		if (!given.isObject()) {
			throw form.notAMap();
		}
		Map<String, Attribute> attributes = new LinkedHashMap<>();
		for (Map.Entry<String, JsonNode> entry : given.properties()) {
			Typed typed = form.entry(entry.getKey(), entry.getValue());
			attributes.put(entry.getKey(), Attribute.parse(typed.type(), typed.value()));
		}
		return MessageAttributes.of(attributes);
	}

	/** How one face writes an attribute, and its errors for what is not in that shape. */
	public interface Form {

		/** The face's error for attributes that are not a map. */
		RuntimeException notAMap();

		/**
		 * The type and value text of the attribute {@code name}, from its entry.
		 * @throws RuntimeException the face's error for an entry not in its shape
		 */
		Typed entry(String name, JsonNode entry);

	}

	/**
	 * An attribute's type and value as the client wrote them, checked by
	 * {@link Attribute#parse}; either may be {@code null}.
	 */
	public record Typed(String type, String value) {
	}

}
