package io.github.qsbench.sqs;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * SQS's API model for the query protocol: for each action, the shapes of its request and
 * of its answer, with the names and the flattening the query protocol gives their members
 * ({@code Attribute.1.Name}, {@code <QueueUrl>} repeated, ...). Read once from the
 * resource {@value #RESOURCE}, which {@code scripts/sqs/query-model.py} trims from
 * botocore's SQS model of that protocol (botocore 1.33.13, the last before SQS moved to
 * JSON; Apache License 2.0). The query face's translation ({@link QueryProtocol}) reads
 * only this description: nothing in it is written per action. Immutable once loaded.
 */
final class QueryModel {

	static final String RESOURCE = "sqs-query-2012-11-05.json";

	private final String namespace;

	private final Map<String, Operation> operations;

	private final Map<String, Shape> shapes;

	private QueryModel(String namespace, Map<String, Operation> operations, Map<String, Shape> shapes) {
		this.namespace = namespace;
		this.operations = operations;
		this.shapes = shapes;
	}

	/**
	 * The model of the resource beside this class.
	 * @throws IllegalStateException if it is missing or names a shape it does not have
	 */
	static QueryModel load() {
		JsonNode model;
		try (InputStream in = QueryModel.class.getResourceAsStream(RESOURCE)) {
			if (in == null) {
				throw new IllegalStateException("The SQS query-protocol model " + RESOURCE + " is missing");
			}
			model = JsonMapper.builder().build().readTree(in);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		Map<String, Shape> shapes = new HashMap<>();
		for (Map.Entry<String, JsonNode> shape : model.get("shapes").properties()) {
			shapes.put(shape.getKey(), shape(shape.getValue()));
		}
		Map<String, Operation> operations = new HashMap<>();
		for (Map.Entry<String, JsonNode> operation : model.get("operations").properties()) {
			JsonNode output = operation.getValue().get("output");
			operations.put(operation.getKey(),
					new Operation(operation.getKey(), ref(operation.getValue().get("input")),
							(output != null) ? ref(output) : null,
							(output != null) ? output.get("resultWrapper").stringValue() : null));
		}
		QueryModel loaded = new QueryModel(model.get("metadata").get("xmlNamespace").stringValue(),
				Collections.unmodifiableMap(operations), Collections.unmodifiableMap(shapes));
		loaded.checkReferences();
		return loaded;
	}

	/** The XML namespace of every answer and error document. */
	String namespace() {
		return this.namespace;
	}

	/** The action's shapes, or {@code null} if SQS has no such action. */
	Operation operation(String action) {
		return this.operations.get(action);
	}

	Shape shape(Ref ref) {
		return this.shapes.get(ref.shape());
	}

	/**
	 * The name a member goes by on the wire: its own {@code locationName}, else its
	 * shape's, else the member's name.
	 */
	String wireName(Ref ref, String member) {
		if (ref.locationName() != null) {
			return ref.locationName();
		}
		Shape shape = shape(ref);
		return (shape.locationName() != null) ? shape.locationName() : member;
	}

	/** Whether a list or map member is flattened, by its own trait or its shape's. */
	boolean flattened(Ref ref) {
		return ref.flattened() || shape(ref).flattened();
	}

	private void checkReferences() {
		this.operations.values().forEach(operation -> {
			check(operation.input());
			if (operation.output() != null) {
				check(operation.output());
			}
		});
		this.shapes.values().forEach(shape -> {
			shape.members().values().forEach(this::check);
			for (Ref ref : new Ref[] { shape.member(), shape.key(), shape.value() }) {
				if (ref != null) {
					check(ref);
				}
			}
		});
	}

	private void check(Ref ref) {
		if (!this.shapes.containsKey(ref.shape())) {
			throw new IllegalStateException("The SQS query-protocol model names no shape " + ref.shape());
		}
	}

	private static Shape shape(JsonNode shape) {
		Map<String, Ref> members = new LinkedHashMap<>();
		JsonNode given = shape.get("members");
		if (given != null) {
			for (Map.Entry<String, JsonNode> member : given.properties()) {
				members.put(member.getKey(), ref(member.getValue()));
			}
		}
		return new Shape(Type.valueOf(shape.get("type").stringValue().toUpperCase(Locale.ROOT)),
				text(shape, "locationName"), shape.path("flattened").asBoolean(false),
				Collections.unmodifiableMap(members), optionalRef(shape, "member"), optionalRef(shape, "key"),
				optionalRef(shape, "value"));
	}

	private static Ref optionalRef(JsonNode shape, String name) {
		JsonNode ref = shape.get(name);
		return (ref != null) ? ref(ref) : null;
	}

	private static Ref ref(JsonNode ref) {
		return new Ref(ref.get("shape").stringValue(), text(ref, "locationName"),
				ref.path("flattened").asBoolean(false));
	}

	private static String text(JsonNode node, String name) {
		JsonNode value = node.get(name);
		return (value != null) ? value.stringValue() : null;
	}

	/**
	 * An action: its request's shape, and its answer's shape and wrapper element
	 * ({@code <ActionResult>}), both {@code null} for an action that answers nothing.
	 */
	record Operation(String name, Ref input, Ref output, String resultWrapper) {
	}

	/** The types of SQS's shapes. */
	enum Type {

		STRUCTURE, LIST, MAP, STRING, INTEGER, LONG, BOOLEAN, BLOB

	}

	/**
	 * A shape: a structure's members in the model's order, a list's member, or a map's
	 * key and value.
	 */
	record Shape(Type type, String locationName, boolean flattened, Map<String, Ref> members, Ref member, Ref key,
			Ref value) {
	}

	/** A use of a shape, with the wire traits that use adds. */
	record Ref(String shape, String locationName, boolean flattened) {
	}

}
