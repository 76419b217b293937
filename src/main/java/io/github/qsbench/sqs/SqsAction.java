package io.github.qsbench.sqs;

import java.time.Duration;
import java.util.function.Consumer;

import tools.jackson.databind.node.ObjectNode;

/**
 * One SQS action: its request's members in, SQS's answer out. A handler (see
 * {@link SqsHandler}) names its actions; the face dispatches to them by name through
 * {@link SqsActions}.
 */
@FunctionalInterface
interface SqsAction {

	/**
	 * The action's answer.
	 * @return the answer, or {@code null} if the action answers later, through
	 * {@link Call#suspension()} (a receive that waits)
	 * @throws SqsException for what SQS answers with an error
	 */
	ObjectNode answer(Call call);

	/**
	 * One request to an action.
	 *
	 * @param request the request's members
	 * @param http the HTTP request, whose host names the queue URLs answered
	 * @param suspension how an action that waits answers later
	 */
	record Call(SqsRequest request, SqsHttp http, Suspension suspension) {
	}

	/**
	 * How an action that has to wait is answered later: set up by the face, which puts
	 * the request in the servlet's async mode.
	 */
	@FunctionalInterface
	interface Suspension {

		/**
		 * Called once, on the request's thread, once the action waits.
		 * @param timeout the request's async timeout: the wait plus a grace
		 * @param end ends the wait at once, answering it with nothing unless it was
		 * answered already: for the request's own timeout and errors
		 * @return what answers the request, from whichever thread finds its answer
		 */
		Consumer<ObjectNode> suspend(Duration timeout, Runnable end);

	}

}
