package io.github.qsbench.sqs;

import java.util.HashMap;
import java.util.Map;

/**
 * SQS actions whose semantics this service has not built yet: refused by name with what
 * is missing, never answered with a success that did nothing.
 */
final class NotBuiltActions implements SqsHandler {

	private static final String PERMISSIONS = "Permissions are not kept: this local queue accepts every caller.";

	private static final Map<String, String> MISSING = Map.of("AddPermission", PERMISSIONS, "RemovePermission",
			PERMISSIONS);

	@Override
	public Map<String, SqsAction> actions() {
		Map<String, SqsAction> actions = new HashMap<>();
		MISSING.forEach((name, missing) -> actions.put(name, call -> {
			throw SqsError.UNSUPPORTED_OPERATION.exception(name + " is not supported by this service. " + missing);
		}));
		return actions;
	}

}
