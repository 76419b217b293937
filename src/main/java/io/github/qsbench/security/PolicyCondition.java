package io.github.qsbench.security;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.IntPredicate;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import tools.jackson.databind.JsonNode;

/**
 * One test of a statement's {@code Condition}: an operator applied to one key of the
 * request, with the values the policy gives it, compiled when the policy is parsed.
 *
 * <p>
 * As IAM evaluates them ("Conditions with multiple context keys or values"): the tests of
 * a statement are AND-ed; "if a single condition operator includes multiple values for a
 * context key, those values are evaluated using a logical OR", and for a negated operator
 * "using a logical NOR". A key the request lacks (only {@code aws:SourceIp} may be
 * missing, and {@code aws:PrincipalAccount} for an anonymous caller) fails the test, and
 * passes a negated one ("Condition operators": "If the policy condition requires that the
 * key is not matched, such as StringNotLike ..., and the right key is not present, the
 * condition is true").
 *
 * <p>
 * Only the operators and keys below are known. Anything else ({@code ...IfExists},
 * {@code ForAnyValue:}/{@code ForAllValues:}, {@code Null}, {@code Numeric*},
 * {@code Arn*}, other keys) is refused when the policy is set rather than ignored, since
 * ignoring a condition would widen what an Allow grants.
 */
final class PolicyCondition {

	/** What a key holds; an operator tests one kind. */
	private enum Kind {

		STRING, DATE, IP, BOOL

	}

	private enum Key {

		CURRENT_TIME("aws:CurrentTime", Kind.DATE), EPOCH_TIME("aws:EpochTime", Kind.DATE),
		SOURCE_IP("aws:SourceIp", Kind.IP), SECURE_TRANSPORT("aws:SecureTransport", Kind.BOOL),
		PRINCIPAL_ACCOUNT("aws:PrincipalAccount", Kind.STRING);

		private final String name;

		private final Kind kind;

		Key(String name, Kind kind) {
			this.name = name;
			this.kind = kind;
		}

		/** The request's value of this key, {@code null} if it has none. */
		Object value(String accountId, RequestContext context) {
			return switch (this) {
				case CURRENT_TIME -> context.now();
				case EPOCH_TIME -> context.now().truncatedTo(ChronoUnit.SECONDS);
				case SOURCE_IP -> context.sourceIp();
				case SECURE_TRANSPORT -> context.secureTransport();
				case PRINCIPAL_ACCOUNT -> accountId;
			};
		}

	}

	/**
	 * An operator: the kind of key it tests, whether it is negated, and how it compiles
	 * one of the policy's values to a test of the request's value (the positive test for
	 * a negated operator).
	 */
	private enum Operator {

		STRING_EQUALS("StringEquals", Kind.STRING, false, value -> value::equals),
		STRING_NOT_EQUALS("StringNotEquals", Kind.STRING, true, value -> value::equals),
		STRING_EQUALS_IGNORE_CASE("StringEqualsIgnoreCase", Kind.STRING, false,
				value -> (actual) -> value.equalsIgnoreCase((String) actual)),
		STRING_NOT_EQUALS_IGNORE_CASE("StringNotEqualsIgnoreCase", Kind.STRING, true,
				value -> (actual) -> value.equalsIgnoreCase((String) actual)),
		STRING_LIKE("StringLike", Kind.STRING, false, PolicyCondition::like),
		STRING_NOT_LIKE("StringNotLike", Kind.STRING, true, PolicyCondition::like),
		DATE_EQUALS("DateEquals", Kind.DATE, false, value -> date(value)::equals),
		DATE_NOT_EQUALS("DateNotEquals", Kind.DATE, true, value -> date(value)::equals),
		DATE_LESS_THAN("DateLessThan", Kind.DATE, false, value -> compare(value, (order) -> order < 0)),
		DATE_LESS_THAN_EQUALS("DateLessThanEquals", Kind.DATE, false, value -> compare(value, (order) -> order <= 0)),
		DATE_GREATER_THAN("DateGreaterThan", Kind.DATE, false, value -> compare(value, (order) -> order > 0)),
		DATE_GREATER_THAN_EQUALS("DateGreaterThanEquals", Kind.DATE, false,
				value -> compare(value, (order) -> order >= 0)),
		IP_ADDRESS("IpAddress", Kind.IP, false, value -> Cidr.parse(value)::contains),
		NOT_IP_ADDRESS("NotIpAddress", Kind.IP, true, value -> Cidr.parse(value)::contains),
		BOOL("Bool", Kind.BOOL, false, value -> bool(value)::equals);

		private final String name;

		private final Kind kind;

		private final boolean negated;

		private final Function<String, Predicate<Object>> compiler;

		Operator(String name, Kind kind, boolean negated, Function<String, Predicate<Object>> compiler) {
			this.name = name;
			this.kind = kind;
			this.negated = negated;
			this.compiler = compiler;
		}

	}

	private static final Map<String, Operator> OPERATORS = Arrays.stream(Operator.values())
		.collect(
				Collectors.toMap((operator) -> operator.name, (operator) -> operator, (a, b) -> a, LinkedHashMap::new));

	/** Keys by their lower-case name: IAM's key names are not case-sensitive. */
	private static final Map<String, Key> KEYS = Arrays.stream(Key.values())
		.collect(Collectors.toMap((key) -> key.name.toLowerCase(Locale.ROOT), (key) -> key));

	private static final Pattern EPOCH_SECONDS = Pattern.compile("[0-9]+");

	private final Operator operator;

	private final Key key;

	private final List<Predicate<Object>> values;

	private PolicyCondition(Operator operator, Key key, List<Predicate<Object>> values) {
		this.operator = operator;
		this.key = key;
		this.values = values;
	}

	/** The tests of a statement's {@code Condition} ({@code null}: none). */
	static List<PolicyCondition> parse(JsonNode condition, String where) {
		if (condition == null) {
			return List.of();
		}
		if (!condition.isObject()) {
			throw new PolicyException("Condition in " + where + " must be a JSON object");
		}
		List<PolicyCondition> conditions = new ArrayList<>();
		for (Map.Entry<String, JsonNode> byOperator : condition.properties()) {
			Operator operator = operator(byOperator.getKey(), where);
			JsonNode keys = byOperator.getValue();
			if (!keys.isObject() || keys.isEmpty()) {
				throw new PolicyException(
						"Condition " + operator.name + " in " + where + " must map one or more keys to values");
			}
			for (Map.Entry<String, JsonNode> byKey : keys.properties()) {
				Key key = key(byKey.getKey(), where);
				String test = "Condition " + operator.name + " on " + key.name + " in " + where;
				if (key.kind != operator.kind) {
					throw new PolicyException(test + ": " + key.name + " is not tested with " + operator.name
							+ "; it takes " + operatorsOf(key.kind));
				}
				List<Predicate<Object>> values = new ArrayList<>();
				for (String value : values(byKey.getValue(), test)) {
					try {
						values.add(operator.compiler.apply(value));
					}
					catch (PolicyException ex) {
						throw new PolicyException(test + ": " + ex.getMessage());
					}
				}
				conditions.add(new PolicyCondition(operator, key, List.copyOf(values)));
			}
		}
		return List.copyOf(conditions);
	}

	boolean holds(String accountId, RequestContext context) {
		Object actual = this.key.value(accountId, context);
		if (actual == null) {
			return this.operator.negated;
		}
		boolean any = this.values.stream().anyMatch((value) -> value.test(actual));
		return any != this.operator.negated;
	}

	private static Operator operator(String name, String where) {
		Operator operator = OPERATORS.get(name);
		if (operator != null) {
			return operator;
		}
		String why = name.contains(":") ? "set operators (ForAnyValue:, ForAllValues:) are not supported"
				: name.endsWith("IfExists") ? "...IfExists operators are not supported" : "not supported";
		throw new PolicyException("Condition operator " + name + " in " + where + ": " + why + "; supported operators: "
				+ String.join(", ", OPERATORS.keySet()));
	}

	private static Key key(String name, String where) {
		Key key = KEYS.get(name.toLowerCase(Locale.ROOT));
		if (key == null) {
			throw new PolicyException("Condition key " + name + " in " + where + " is not supported; supported keys: "
					+ Arrays.stream(Key.values()).map((known) -> known.name).collect(Collectors.joining(", ")));
		}
		return key;
	}

	private static String operatorsOf(Kind kind) {
		return OPERATORS.values()
			.stream()
			.filter((operator) -> operator.kind == kind)
			.map((operator) -> operator.name)
			.collect(Collectors.joining(", "));
	}

	/** A key's values: one scalar or a list of one or more, read as text. */
	private static List<String> values(JsonNode node, String test) {
		List<JsonNode> values = node.isArray() ? List.copyOf(node.values()) : List.of(node);
		if (values.isEmpty() || !values.stream().allMatch(JsonNode::isValueNode)
				|| values.stream().anyMatch(JsonNode::isNull)) {
			throw new PolicyException(test + " must have a value or a list of values");
		}
		List<String> texts = values.stream().map(JsonNode::asString).toList();
		if (texts.stream().anyMatch((text) -> text.contains("${"))) {
			throw new PolicyException(test + ": policy variables (${...}) are not supported");
		}
		return texts;
	}

	private static Predicate<Object> like(String value) {
		Pattern pattern = Wildcards.pattern(value, 0);
		return (actual) -> pattern.matcher((String) actual).matches();
	}

	private static Predicate<Object> compare(String value, IntPredicate order) {
		Instant instant = date(value);
		return (actual) -> order.test(((Instant) actual).compareTo(instant));
	}

	/**
	 * A date as the Date operators take it: "one of the supported W3C implementations of
	 * the ISO 8601 date formats" or "epoch (UNIX) time" in seconds; a date or a time
	 * without an offset is taken as UTC.
	 */
	private static Instant date(String value) {
		try {
			if (EPOCH_SECONDS.matcher(value).matches()) {
				return Instant.ofEpochSecond(Long.parseLong(value));
			}
			if (!value.contains("T")) {
				return LocalDate.parse(value).atStartOfDay(ZoneOffset.UTC).toInstant();
			}
			TemporalAccessor parsed = DateTimeFormatter.ISO_DATE_TIME.parseBest(value, OffsetDateTime::from,
					LocalDateTime::from);
			return (parsed instanceof OffsetDateTime offset) ? offset.toInstant()
					: ((LocalDateTime) parsed).toInstant(ZoneOffset.UTC);
		}
		catch (DateTimeException | NumberFormatException ex) {
			throw new PolicyException("'" + value + "' is not an ISO 8601 date nor epoch seconds");
		}
	}

	private static Boolean bool(String value) {
		if (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")) {
			return Boolean.valueOf(value);
		}
		throw new PolicyException("'" + value + "' is not true or false");
	}

	/** An IPv4 or IPv6 range in CIDR notation; an address alone is a /32 or /128. */
	private record Cidr(byte[] network, int prefix) {

		private static final String OCTET = "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])";

		private static final Pattern IPV4 = Pattern.compile(OCTET + "(\\." + OCTET + "){3}");

		private static final Pattern IPV6 = Pattern.compile("(?=.*:)[0-9A-Fa-f:][0-9A-Fa-f:.]*");

		private static final Pattern PREFIX = Pattern.compile("[0-9]{1,3}");

		/**
		 * Parses a literal only: what {@link InetAddress#getByName} is given was checked
		 * to be one, so that it never looks a name up.
		 */
		static Cidr parse(String text) {
			int slash = text.indexOf('/');
			String address = (slash < 0) ? text : text.substring(0, slash);
			String prefix = (slash < 0) ? null : text.substring(slash + 1);
			boolean ipv4 = IPV4.matcher(address).matches();
			byte[] bytes = (ipv4 || IPV6.matcher(address).matches()) ? literal(address) : null;
			// an IPv4-mapped IPv6 literal comes back as IPv4: refused rather than
			// rescaled
			if (bytes == null || ipv4 != (bytes.length == 4) || (prefix != null && !PREFIX.matcher(prefix).matches())) {
				throw invalid(text);
			}
			int bits = (prefix != null) ? Integer.parseInt(prefix) : bytes.length * 8;
			if (bits > bytes.length * 8) {
				throw invalid(text);
			}
			return new Cidr(bytes, bits);
		}

		private static byte[] literal(String address) {
			try {
				return InetAddress.getByName(address).getAddress();
			}
			catch (UnknownHostException ex) {
				return null;
			}
		}

		private static PolicyException invalid(String text) {
			return new PolicyException("'" + text + "' is not an IPv4 or IPv6 address or CIDR range");
		}

		boolean contains(Object actual) {
			byte[] address = ((InetAddress) actual).getAddress();
			if (address.length != this.network.length) {
				return false;
			}
			int whole = this.prefix / 8;
			for (int i = 0; i < whole; i++) {
				if (address[i] != this.network[i]) {
					return false;
				}
			}
			int rest = this.prefix % 8;
			int mask = (0xFF << (8 - rest)) & 0xFF;
			return rest == 0 || ((address[whole] ^ this.network[whole]) & mask) == 0;
		}

	}

}
