package io.github.qsbench.sqs;

import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import io.github.qsbench.application.queues.QueueOperations;
import io.github.qsbench.application.queues.QueueSettings;
import io.github.qsbench.http.RequestJson;
import io.github.qsbench.http.SettingsChange;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code AddPermission} and {@code RemovePermission}, kept as SQS keeps them: statements
 * of the queue's access policy, its {@code Policy} attribute, one per label
 * ({@code Sid}), allowing the accounts given ({@code arn:aws:iam::<account>:root}) the
 * actions given ({@code SQS:<action>}) on the queue. The policy is recorded with the
 * queue's settings and enforced nowhere: a local queue checks no credentials.
 *
 * <p>
 * A change reads the policy, edits it and writes it back only if it is still what was
 * read (a compare-and-set in the settings' store, {@link QueueSettings.Change#expected}),
 * else reads it again: so changes never lose each other, through one instance (which also
 * serialises its own under a lock) or through several on one Redis.
 */
final class PermissionActions extends QueueHandler {

	/** The actions SQS lets a queue's owner share; {@code *} is all of them. */
	private static final Set<String> SHARED = Set.of("*", "SendMessage", "ReceiveMessage", "DeleteMessage",
			"ChangeMessageVisibility", "GetQueueAttributes", "GetQueueUrl", "ListDeadLetterSourceQueues", "PurgeQueue");

	/** SQS's quotas on a policy. */
	private static final int MAX_ACTIONS = 7;

	private static final int MAX_STATEMENTS = 20;

	/** How many times a change is tried on a policy that other changes keep changing. */
	private static final int MAX_ATTEMPTS = 20;

	private static final Pattern LABEL = Pattern.compile("[A-Za-z0-9_-]{1,80}");

	private static final Pattern ACCOUNT = Pattern.compile("[0-9]{12}");

	private final JsonMapper mapper = RequestJson.mapper(QueueAttributeNames.MAX_POLICY_BYTES);

	private final Object lock = new Object();

	PermissionActions(QueueOperations queues, QueueUrls urls) {
		super(queues, urls);
	}

	@Override
	public Map<String, SqsAction> actions() {
		return Map.of("AddPermission", this::addPermission, "RemovePermission", this::removePermission);
	}

	/**
	 * Adds the statement {@code Label} to the queue's policy (creating the policy, with
	 * the {@code Id} SQS gives it, if it has none), with SQS's checks and errors: a label
	 * of 1 to 80 letters, digits, hyphens or underscores not in the policy yet, accounts
	 * of 12 digits, 1 to {@value #MAX_ACTIONS} actions ({@code OverLimit} beyond) that
	 * SQS shares, at most {@value #MAX_STATEMENTS} statements and
	 * {@value QueueAttributeNames#MAX_POLICY_BYTES} bytes ({@code OverLimit}).
	 */
	ObjectNode addPermission(SqsAction.Call call) {
		SqsRequest request = call.request();
		String queue = existingQueue(request);
		String label = label(request);
		List<String> accounts = request.strings("AWSAccountIds");
		List<String> actions = request.strings("Actions");
		if (accounts.isEmpty() || !accounts.stream().allMatch(account -> ACCOUNT.matcher(account).matches())) {
			throw SqsError.INVALID_PARAMETER_VALUE
				.exception("Value " + accounts + " for parameter PrincipalId is invalid. Reason: Unable to verify.");
		}
		if (actions.isEmpty()) {
			throw SqsError.MISSING_PARAMETER.exception("The request must contain the parameter Actions.");
		}
		if (actions.size() > MAX_ACTIONS) {
			throw SqsError.OVER_LIMIT
				.exception(actions.size() + " Actions were found, maximum allowed is " + MAX_ACTIONS + ".");
		}
		for (String action : actions) {
			if (!SHARED.contains(action)) {
				throw SqsError.INVALID_PARAMETER_VALUE.exception("Value SQS:" + action
						+ " for parameter ActionName is invalid. Reason: Only the queue owner is allowed to invoke this action.");
			}
		}
		String arn = this.urls.arn(queue);
		synchronized (this.lock) {
			for (int attempt = 1;; attempt++) {
				String current = current(queue);
				if (addStatement(queue, label, accounts, actions, arn, current, attempt)) {
					break;
				}
			}
		}
		return JSON.objectNode();
	}

	/**
	 * One try of {@link #addPermission} on the policy as read ({@code current}).
	 * @return whether it was written; {@code false} if the policy changed meanwhile
	 */
	private boolean addStatement(String queue, String label, List<String> accounts, List<String> actions, String arn,
			String current, int attempt) {
		{
			ObjectNode policy = policy(current);
			if (policy == null) {
				policy = JSON.objectNode().put("Version", "2012-10-17").put("Id", arn + "/SQSDefaultPolicy");
			}
			ArrayNode statements = statements(policy);
			if (find(statements, label) >= 0) {
				throw SqsError.INVALID_PARAMETER_VALUE
					.exception("Value " + label + " for parameter Label is invalid. Reason: Already exists.");
			}
			if (statements.size() >= MAX_STATEMENTS) {
				throw SqsError.OVER_LIMIT.exception(
						(statements.size() + 1) + " statements were found, maximum allowed is " + MAX_STATEMENTS + ".");
			}
			ObjectNode statement = statements.addObject().put("Sid", label).put("Effect", "Allow");
			statement.putObject("Principal")
				.set("AWS", oneOrMany(accounts.stream().map(account -> "arn:aws:iam::" + account + ":root").toList()));
			statement.set("Action", oneOrMany(actions.stream().map(action -> "SQS:" + action).toList()));
			statement.put("Resource", arn);
			String document = policy.toString();
			if (document.getBytes(StandardCharsets.UTF_8).length > QueueAttributeNames.MAX_POLICY_BYTES) {
				throw SqsError.OVER_LIMIT
					.exception("The policy would be larger than " + QueueAttributeNames.MAX_POLICY_BYTES + " bytes.");
			}
			return write(queue, document, current, attempt);
		}
	}

	/**
	 * Removes the statement {@code Label} from the queue's policy, and the policy with
	 * its last statement; a label the policy does not have is refused as SQS refuses it.
	 */
	ObjectNode removePermission(SqsAction.Call call) {
		SqsRequest request = call.request();
		String queue = existingQueue(request);
		String label = label(request);
		synchronized (this.lock) {
			for (int attempt = 1;; attempt++) {
				String current = current(queue);
				ObjectNode policy = policy(current);
				ArrayNode statements = (policy != null) ? statements(policy) : JSON.arrayNode();
				int index = find(statements, label);
				if (index < 0) {
					throw SqsError.INVALID_PARAMETER_VALUE.exception("Value " + label
							+ " for parameter Label is invalid. Reason: can't find label on existing policy.");
				}
				statements.remove(index);
				if (write(queue, statements.isEmpty() ? "" : policy.toString(), current, attempt)) {
					break;
				}
			}
		}
		return JSON.objectNode();
	}

	private static String label(SqsRequest request) {
		String label = request.required("Label");
		if (!LABEL.matcher(label).matches()) {
			throw SqsError.INVALID_PARAMETER_VALUE.exception("Value " + label
					+ " for parameter Label is invalid. Reason: 1 to 80 alphanumeric characters, hyphens or underscores.");
		}
		return label;
	}

	/** The queue's policy as kept, {@code null} if it has none. */
	private String current(String queue) {
		return this.queues.settings(queue).recorded().get(QueueAttributeNames.POLICY);
	}

	/**
	 * A queue's policy read as JSON, {@code null} if it has none; one set by
	 * {@code SetQueueAttributes} is edited as it is.
	 */
	private ObjectNode policy(String policy) {
		if (policy == null) {
			return null;
		}
		try {
			JsonNode json = this.mapper.readTree(policy);
			if (json instanceof ObjectNode object) {
				return object;
			}
		}
		catch (JacksonException ex) {
			// checked when set: not reached
		}
		throw SqsError.INVALID_ATTRIBUTE_VALUE.exception("The queue's Policy is not a JSON object.");
	}

	/** The policy's statements as an array, which a policy set by hand may not have. */
	private static ArrayNode statements(ObjectNode policy) {
		JsonNode statements = policy.get("Statement");
		if (statements instanceof ArrayNode array) {
			return array;
		}
		ArrayNode array = policy.putArray("Statement");
		if (statements != null && !statements.isNull()) {
			array.add(statements);
		}
		return array;
	}

	private static int find(ArrayNode statements, String label) {
		Iterator<JsonNode> each = statements.iterator();
		for (int i = 0; each.hasNext(); i++) {
			JsonNode sid = each.next().get("Sid");
			if (sid != null && label.equals(sid.stringValue(null))) {
				return i;
			}
		}
		return -1;
	}

	/** One value as a string, several as an array: how SQS writes them. */
	private static JsonNode oneOrMany(List<String> values) {
		if (values.size() == 1) {
			return JSON.stringNode(values.get(0));
		}
		ArrayNode array = JSON.arrayNode();
		values.forEach(array::add);
		return array;
	}

	/**
	 * Sets the queue's policy (empty removes it) if it is still {@code current}, checked
	 * with the write, atomically, in the store (so through any instance).
	 * @return whether it was written; {@code false}: it changed meanwhile, read it again
	 * @throws QueueSettings.Conflict if it changed under each of {@value #MAX_ATTEMPTS}
	 * attempts
	 */
	private boolean write(String queue, String policy, String current, int attempt) {
		try {
			this.queues.configure(queue,
					new SettingsChange().recorded(QueueAttributeNames.POLICY, policy)
						.change()
						.expecting(QueueAttributeNames.POLICY, current));
			return true;
		}
		catch (QueueSettings.Conflict ex) {
			if (attempt >= MAX_ATTEMPTS) {
				throw ex;
			}
			return false;
		}
	}

}
