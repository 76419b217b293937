package io.github.qsbench.sqs;

import java.util.ArrayList;
import java.util.List;
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
		String queue = queue(call.request());
		Change change = change(call.request());
		changed(queue, change.handle(),
				this.messages.changeLease(queue, change.entry().id(), change.handle(), change.seconds()));
		return JSON.objectNode();
	}

	/**
	 * Each entry answered in {@code Successful} or {@code Failed} as
	 * {@code ChangeMessageVisibility} would answer it: an entry that asks for nothing
	 * valid fails without reaching the core, and the others are changed in one call of
	 * the core (on Redis one round trip) for each run of consecutive entries with the
	 * same timeout, so that entries naming one message still act in their order.
	 */
	ObjectNode changeMessageVisibilityBatch(SqsAction.Call call) {
		String queue = queue(call.request());
		Batches.Answer answer = new Batches.Answer();
		List<String> ids = new ArrayList<>();
		List<Change> changes = new ArrayList<>();
		for (SqsRequest entry : Batches.entries(call.request())) {
			try {
				changes.add(change(entry));
				ids.add(entry.string("Id"));
			}
			catch (SqsException ex) {
				answer.failed(entry.string("Id"), ex);
			}
		}
		for (int from = 0, to; from < changes.size(); from = to) {
			int seconds = changes.get(from).seconds();
			to = from + 1;
			while (to < changes.size() && changes.get(to).seconds() == seconds) {
				to++;
			}
			List<MessageOperations.BatchEntry> run = new ArrayList<>(to - from);
			for (Change change : changes.subList(from, to)) {
				run.add(change.entry());
			}
			List<ByIdOutcome> outcomes = this.messages.changeLeaseAll(queue, run, seconds);
			for (int i = from; i < to; i++) {
				try {
					changed(queue, changes.get(i).handle(), outcomes.get(i - from));
					answer.succeeded(ids.get(i));
				}
				catch (SqsException ex) {
					answer.failedUnlessQueueGone(ids.get(i), ex);
				}
			}
		}
		return answer.json();
	}

	/**
	 * What {@code request} (or a batch entry) asks for.
	 * @throws SqsException if a parameter is missing or invalid
	 */
	private static Change change(SqsRequest request) {
		String handle = request.required("ReceiptHandle");
		Integer seconds = request.integer(VISIBILITY_TIMEOUT, 0, Limits.MAX_LEASE_SECONDS);
		if (seconds == null) {
			throw SqsError.MISSING_PARAMETER
				.exception("The request must contain the parameter " + VISIBILITY_TIMEOUT + ".");
		}
		return new Change(new MessageOperations.BatchEntry(LeaseReceiptHandles.id(handle), handle), seconds);
	}

	/**
	 * What a change by {@code handle} answers when the core changed it so.
	 * @throws SqsException if it did not change the lease
	 */
	private void changed(String queue, String handle, ByIdOutcome change) {
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

	/**
	 * One change asked for: the message and delivery its handle names, and the timeout.
	 */
	private record Change(MessageOperations.BatchEntry entry, int seconds) {

		String handle() {
			return this.entry.lease();
		}

	}

}
