package io.github.qsbench.security;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A queue's access policy (its {@code Policy} attribute), checked and compiled once by
 * {@link #parse}, then asked by {@link #decide} whether an account may call an action on
 * the queue. Immutable, so safe to share between threads. The IAM subset it accepts and
 * how it decides: docs/design/queue-policy.md.
 */
public final class QueuePolicy {

	private static final int MAX_DEPTH = 8;

	private static final JsonMapper MAPPER = JsonMapper
		.builder(JsonFactory.builder()
			.streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
			.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
			.build())
		.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
		.build();

	private static final Set<String> VERSIONS = Set.of("2012-10-17", "2008-10-17");

	private static final Set<String> DOCUMENT = Set.of("Version", "Id", "Statement");

	private static final Set<String> STATEMENT = Set.of("Sid", "Effect", "Principal", "Action", "Resource",
			"Condition");

	private static final Set<String> NEGATED = Set.of("NotPrincipal", "NotAction", "NotResource");

	private static final Pattern ACCOUNT = Pattern.compile("[0-9]{12}");

	private static final Pattern ROOT = Pattern.compile("arn:aws[a-z-]*:iam::([0-9]{12}):root");

	private static final Pattern IDENTITY = Pattern
		.compile("arn:aws[a-z-]*:(iam|sts)::[0-9]{12}:(user|role|assumed-role|federated-user)/\\S+");

	private static final Pattern ACTION = Pattern.compile("([A-Za-z0-9-]+):([A-Za-z0-9*?]+)");

	private final List<Statement> statements;

	private QueuePolicy(List<Statement> statements) {
		this.statements = statements;
	}

	/**
	 * Parses and checks a policy document (the queue's Policy attribute). The document's
	 * size is the caller's to bound (SQS's is 8 KiB).
	 * @param document the policy, a JSON object
	 * @return the policy, ready to decide
	 * @throws PolicyException naming what is not accepted (the message is shown to the
	 * client as an InvalidAttributeValue)
	 */
	public static QueuePolicy parse(String document) {
		JsonNode policy;
		try {
			policy = MAPPER.readTree(document);
		}
		catch (JacksonException ex) {
			throw new PolicyException("The policy is not valid JSON: " + ex.getOriginalMessage());
		}
		if (policy == null || !policy.isObject()) {
			throw new PolicyException("The policy must be a JSON object");
		}
		for (String name : policy.propertyNames()) {
			if (!DOCUMENT.contains(name)) {
				throw new PolicyException(
						"Unknown element " + name + " in the policy; it may have Version, Id and " + "Statement");
			}
		}
		JsonNode version = policy.get("Version");
		if (version != null && !VERSIONS.contains(version.stringValue(null))) {
			throw new PolicyException("Version must be 2012-10-17 or 2008-10-17, was " + version);
		}
		JsonNode id = policy.get("Id");
		if (id != null && !id.isString()) {
			throw new PolicyException("Id must be a string");
		}
		JsonNode statement = policy.get("Statement");
		if (statement == null) {
			throw new PolicyException("The policy has no Statement");
		}
		List<JsonNode> nodes = statement.isArray() ? List.copyOf(statement.values()) : List.of(statement);
		if (nodes.isEmpty()) {
			throw new PolicyException("Statement must hold one or more statements");
		}
		List<Statement> statements = new ArrayList<>();
		for (int i = 0; i < nodes.size(); i++) {
			statements.add(statement(nodes.get(i), i + 1));
		}
		return new QueuePolicy(List.copyOf(statements));
	}

	/**
	 * The decision for one call: explicit deny over allow, and no matching statement is
	 * an implicit deny.
	 * @param accountId the calling account, {@code null} for an anonymous caller (whom
	 * only a {@code "*"} principal names)
	 * @param action the SQS action as the API names it, {@code SendMessage}; batch
	 * actions mapped to their base action by the caller
	 * @param queueArn the queue's ARN, {@code arn:aws:sqs:<region>:<account>:<queue>}
	 * @param context what conditions may test about the request
	 * @return the decision
	 */
	public Decision decide(String accountId, String action, String queueArn, RequestContext context) {
		Objects.requireNonNull(action, "action");
		Objects.requireNonNull(queueArn, "queueArn");
		Objects.requireNonNull(context, "context");
		boolean allowed = false;
		for (Statement statement : this.statements) {
			if (statement.applies(accountId, action, queueArn, context)) {
				if (statement.deny()) {
					return Decision.EXPLICIT_DENY;
				}
				allowed = true;
			}
		}
		return allowed ? Decision.ALLOW : Decision.IMPLICIT_DENY;
	}

	private static Statement statement(JsonNode node, int number) {
		if (!node.isObject()) {
			throw new PolicyException("Statement #" + number + " must be a JSON object");
		}
		JsonNode sid = node.get("Sid");
		if (sid != null && !sid.isString()) {
			throw new PolicyException("Sid of statement #" + number + " must be a string");
		}
		String where = (sid != null) ? "statement " + sid.stringValue() : "statement #" + number;
		for (String name : node.propertyNames()) {
			if (NEGATED.contains(name)) {
				throw new PolicyException(name + " in " + where + " is not supported; name what the statement "
						+ "applies to with " + name.substring(3));
			}
			if (!STATEMENT.contains(name)) {
				throw new PolicyException("Unknown element " + name + " in " + where + "; a statement may have "
						+ "Sid, Effect, Principal, Action, Resource and Condition");
			}
		}
		String effect = required(node, "Effect", where).stringValue(null);
		if (!"Allow".equals(effect) && !"Deny".equals(effect)) {
			throw new PolicyException("Effect in " + where + " must be Allow or Deny, was " + node.get("Effect"));
		}
		Set<String> accounts = new HashSet<>();
		boolean anyone = principals(required(node, "Principal", where), accounts, where);
		List<Pattern> actions = new ArrayList<>();
		for (String action : strings(required(node, "Action", where), "Action", where)) {
			Matcher parts = ACTION.matcher(action);
			if (!action.equals("*") && !parts.matches()) {
				throw new PolicyException(
						"Action " + action + " in " + where + " is neither \"*\" nor <service>:<action>");
			}
			if (action.equals("*") || parts.group(1).equalsIgnoreCase("sqs")) {
				String name = action.equals("*") ? "*" : parts.group(2);
				actions.add(Wildcards.pattern(name, Pattern.CASE_INSENSITIVE));
			}
		}
		JsonNode resource = node.get("Resource");
		List<Pattern> resources = null;
		if (resource != null) {
			resources = new ArrayList<>();
			for (String arn : strings(resource, "Resource", where)) {
				if ((!arn.equals("*") && !arn.startsWith("arn:")) || arn.contains("${")) {
					throw new PolicyException("Resource " + arn + " in " + where
							+ " is neither \"*\" nor an ARN (policy variables are not supported)");
				}
				resources.add(Wildcards.arn(arn));
			}
		}
		return new Statement(effect.equals("Deny"), anyone, Set.copyOf(accounts), List.copyOf(actions),
				(resources != null) ? List.copyOf(resources) : null,
				PolicyCondition.parse(node.get("Condition"), where));
	}

	/**
	 * Reads a {@code Principal} into the accounts it names.
	 * @return whether it names anyone
	 */
	private static boolean principals(JsonNode principal, Set<String> accounts, String where) {
		if (principal.isString() && principal.stringValue().equals("*")) {
			return true;
		}
		if (!principal.isObject() || principal.isEmpty()) {
			throw new PolicyException("Principal in " + where + " must be \"*\" or {\"AWS\": <accounts>}");
		}
		for (String type : principal.propertyNames()) {
			if (!type.equals("AWS")) {
				throw new PolicyException("Principal type " + type + " in " + where
						+ " is not supported; only AWS accounts (\"AWS\") and \"*\" are");
			}
		}
		boolean anyone = false;
		for (String name : strings(principal.get("AWS"), "Principal", where)) {
			Matcher root = ROOT.matcher(name);
			if (name.equals("*")) {
				anyone = true;
			}
			else if (ACCOUNT.matcher(name).matches()) {
				accounts.add(name);
			}
			else if (root.matches()) {
				accounts.add(root.group(1));
			}
			else if (!IDENTITY.matcher(name).matches()) {
				throw new PolicyException("Principal " + name + " in " + where
						+ " is neither \"*\", an account id, nor an IAM ARN (arn:aws:iam::<account>:root)");
			}
		}
		return anyone;
	}

	private static JsonNode required(JsonNode statement, String name, String where) {
		JsonNode value = statement.get(name);
		if (value == null || value.isNull()) {
			throw new PolicyException(where + " has no " + name);
		}
		return value;
	}

	/** A string or a list of one or more strings. */
	private static List<String> strings(JsonNode node, String name, String where) {
		List<JsonNode> values = node.isArray() ? List.copyOf(node.values()) : List.of(node);
		if (values.isEmpty() || !values.stream().allMatch(JsonNode::isString)) {
			throw new PolicyException(name + " in " + where + " must be a string or a list of strings");
		}
		return values.stream().map(JsonNode::stringValue).toList();
	}

	/** What a policy decides for one request. */
	public enum Decision {

		/** An applicable statement allows it and none denies it. */
		ALLOW,

		/** An applicable statement denies it. */
		EXPLICIT_DENY,

		/** No statement applies. */
		IMPLICIT_DENY

	}

	/**
	 * One statement, compiled.
	 *
	 * @param resources the ARN patterns, {@code null} for the queue itself
	 */
	private record Statement(boolean deny, boolean anyone, Set<String> accounts, List<Pattern> actions,
			List<Pattern> resources, List<PolicyCondition> conditions) {

		boolean applies(String accountId, String action, String queueArn, RequestContext context) {
			return (this.anyone || (accountId != null && this.accounts.contains(accountId)))
					&& this.actions.stream().anyMatch((pattern) -> pattern.matcher(action).matches())
					&& (this.resources == null
							|| this.resources.stream().anyMatch((pattern) -> pattern.matcher(queueArn).matches()))
					&& this.conditions.stream().allMatch((condition) -> condition.holds(accountId, context));
		}

	}

}
