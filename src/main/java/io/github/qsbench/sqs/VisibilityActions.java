package io.github.qsbench.sqs;

import java.util.Map;

import io.github.qsbench.application.Limits;
import io.github.qsbench.application.messages.MessageOperations;
import io.github.qsbench.application.queues.QueueOperations;
import io.github.qsbench.core.ByIdOutcome;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code ChangeMessageVisibility} and {@code ChangeMessageVisibilityBatch}: the
 * visibility timeout of the delivery a receipt handle names ends
 * {@code VisibilityTimeout} seconds from now (0: visible at once); the handle stays
 * valid. As SQS answers, a handle whose message is gone, or that was received again
 * since, cannot change anything.
 */
final class VisibilityActions extends QueueHandler {

	private static final String VISIBILITY_TIMEOUT = "VisibilityTimeout";

	private final MessageOperations messages;

	VisibilityActions(QueueOperations queues, MessageOperations messages, QueueUrls urls) {
		super(queues, urls);
		this.messages = messages;
	}

	@Override
	public Map<String, SqsAction> actions() {
		return Map.of("ChangeMessageVisibility", this::changeMessageVisibility, "ChangeMessageVisibilityBatch",
				this::changeMessageVisibilityBatch);
	}

	ObjectNode changeMessageVisibility(SqsAction.Call call) {
		changeVisibility(queue(call.request()), call.request());
		return JSON.objectNode();
	}

	/**
	 * Each entry changed on its own and answered in {@code Successful} or {@code Failed}.
	 */
	ObjectNode changeMessageVisibilityBatch(SqsAction.Call call) {
		String queue = queue(call.request());
		Batches.Answer answer = new Batches.Answer();
		for (SqsRequest entry : Batches.entries(call.request())) {
			String id = entry.string("Id");
			try {
				changeVisibility(queue, entry);
				answer.succeeded(id);
			}
			catch (SqsException ex) {
				answer.failedUnlessQueueGone(id, ex);
			}
		}
		return answer.json();
	}

	/** Changes what {@code request} (or a batch entry) asks for on {@code queue}. */
	private void changeVisibility(String queue, SqsRequest request) {
		String handle = request.required("ReceiptHandle");
		Integer seconds = request.integer(VISIBILITY_TIMEOUT, 0, Limits.MAX_LEASE_SECONDS);
		if (seconds == null) {
			throw SqsError.MISSING_PARAMETER
				.exception("The request must contain the parameter " + VISIBILITY_TIMEOUT + ".");
		}
		ByIdOutcome change = this.messages.changeLease(queue, LeaseReceiptHandles.id(handle), handle, seconds);
		switch (change) {
			case DONE -> {
			}
			case NOT_FOUND -> {
				if (!this.queues.exists(queue)) {
					throw QueueUrls.doesNotExist();
				}
				throw SqsError.INVALID_PARAMETER_VALUE.exception("Value " + handle + " for parameter ReceiptHandle "
						+ "is invalid. Reason: Message does not exist or is not available for visibility timeout "
						+ "change.");
			}
			case NOT_DELIVERED -> throw LeaseReceiptHandles.invalid(handle);
			case STALE_LEASE -> throw SqsError.MESSAGE_NOT_INFLIGHT.exception("The receipt handle \"" + handle
					+ "\" is no longer current: its visibility timeout lapsed and the message was received again "
					+ "since (or is being received now).");
		}
	}

}
