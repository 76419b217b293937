package io.github.qsbench.sqs;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every SQS action this face serves, by name, gathered from its handlers; a name none
 * serves is refused as SQS refuses an unknown action.
 */
final class SqsActions {

	private final Map<String, SqsAction> byName = new HashMap<>();

	/**
	 * @throws IllegalArgumentException if two handlers name the same action
	 */
	SqsActions(List<SqsHandler> handlers) {
		for (SqsHandler handler : handlers) {
			handler.actions().forEach((name, action) -> {
				if (this.byName.putIfAbsent(name, action) != null) {
					throw new IllegalArgumentException("Two handlers serve the SQS action " + name);
				}
			});
		}
	}

	/** The names of the actions served. */
	Set<String> names() {
		return Set.copyOf(this.byName.keySet());
	}

	/**
	 * The action named {@code name}.
	 * @throws SqsException {@code InvalidAction} if no handler serves it
	 */
	SqsAction action(String name) {
		SqsAction action = this.byName.get(name);
		if (action == null) {
			throw SqsError.INVALID_ACTION.exception("The action " + name + " is not valid for this endpoint.");
		}
		return action;
	}

}
