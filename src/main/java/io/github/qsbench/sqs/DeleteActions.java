package io.github.qsbench.sqs;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.github.qsbench.application.messages.MessageOperations;
import io.github.qsbench.application.queues.QueueOperations;
import io.github.qsbench.core.Completion;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code DeleteMessage} and {@code DeleteMessageBatch}: a message is deleted by the
 * receipt handle of its latest delivery. A handle whose message is gone already is
 * answered as deleted (a retried delete must not fail, as in SQS); one whose message was
 * received again since is refused: the newer handle deletes it.
 */
final class DeleteActions extends QueueHandler {

	private final MessageOperations messages;

	DeleteActions(QueueOperations queues, MessageOperations messages, QueueUrls urls) {
		super(queues, urls);
		this.messages = messages;
	}

	@Override
	public Map<String, SqsAction> actions() {
		return Map.of("DeleteMessage", this::deleteMessage, "DeleteMessageBatch", this::deleteMessageBatch);
	}

	ObjectNode deleteMessage(SqsAction.Call call) {
		SqsRequest request = call.request();
		String queue = queue(request);
		String handle = request.required("ReceiptHandle");
		deleted(queue, handle, this.messages.complete(queue, LeaseReceiptHandles.id(handle), handle));
		return JSON.objectNode();
	}

	/**
	 * Deletes the entries' messages in one completion of the core (on Redis one round
	 * trip for the batch, not one per entry), each entry answered on its own as
	 * {@code DeleteMessage} would answer it: an entry whose handle is not one this
	 * service hands out fails without reaching the core.
	 */
	ObjectNode deleteMessageBatch(SqsAction.Call call) {
		String queue = queue(call.request());
		Batches.Answer answer = new Batches.Answer();
		List<String> ids = new ArrayList<>();
		List<MessageOperations.BatchEntry> handles = new ArrayList<>();
		for (SqsRequest entry : Batches.entries(call.request())) {
			try {
				String handle = entry.required("ReceiptHandle");
				handles.add(new MessageOperations.BatchEntry(LeaseReceiptHandles.id(handle), handle));
				ids.add(entry.string("Id"));
			}
			catch (SqsException ex) {
				answer.failed(entry.string("Id"), ex);
			}
		}
		List<Completion> completions = handles.isEmpty() ? List.of() : this.messages.completeAll(queue, handles);
		for (int i = 0; i < completions.size(); i++) {
			try {
				deleted(queue, handles.get(i).lease(), completions.get(i));
				answer.succeeded(ids.get(i));
			}
			catch (SqsException ex) {
				answer.failedUnlessQueueGone(ids.get(i), ex);
			}
		}
		return answer.json();
	}

	/**
	 * What a deletion by {@code handle} answers when the core completed it so.
	 * @throws SqsException if it did not delete the message
	 */
	private void deleted(String queue, String handle, Completion completion) {
		switch (completion) {
			case COMPLETED -> {
			}
			case NOT_FOUND -> {
				if (!this.queues.exists(queue)) {
					throw QueueUrls.doesNotExist();
				}
			}
			case NOT_DELIVERED -> throw LeaseReceiptHandles.invalid(handle);
			case STALE_LEASE -> throw SqsError.RECEIPT_HANDLE_IS_INVALID.exception("The receipt handle \"" + handle
					+ "\" is no longer current: its visibility timeout lapsed and the message was received again "
					+ "since. The newer receipt handle deletes it.");
		}
	}

}
