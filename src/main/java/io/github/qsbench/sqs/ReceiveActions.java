package io.github.qsbench.sqs;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

import io.github.qsbench.application.Limits;
import io.github.qsbench.application.LongPoll;
import io.github.qsbench.application.MessageAttributes;
import io.github.qsbench.application.MessageAttributes.Attribute;
import io.github.qsbench.application.QueueOperations;
import io.github.qsbench.application.StoredMessage;
import io.github.qsbench.core.Lease;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code ReceiveMessage}: leases up to {@code MaxNumberOfMessages} at once, or, with
 * {@code WaitTimeSeconds}, waits for them without holding a thread, answering through the
 * call's suspension.
 */
final class ReceiveActions extends QueueHandler {

	private static final String APPROXIMATE_RECEIVE_COUNT = "ApproximateReceiveCount";

	/** SQS's message system attributes; only the receive count is kept. */
	private static final Set<String> SYSTEM_ATTRIBUTES = Set.of(ALL, APPROXIMATE_RECEIVE_COUNT, "SentTimestamp",
			"SenderId", "ApproximateFirstReceiveTimestamp", "AWSTraceHeader", "SqsManagedSseEnabled",
			"MessageDeduplicationId", "MessageGroupId", "SequenceNumber", "DeadLetterQueueSourceArn");

	ReceiveActions(QueueOperations queues, QueueUrls urls) {
		super(queues, urls);
	}

	@Override
	public Map<String, SqsAction> actions() {
		return Map.of("ReceiveMessage", this::receiveMessage);
	}

	/**
	 * @return the answer, or {@code null} if the receive waits
	 */
	ObjectNode receiveMessage(SqsAction.Call call) {
		SqsRequest request = call.request();
		String queue = existingQueue(request);
		Integer max = request.integer("MaxNumberOfMessages", 1, Batches.MAX_ENTRIES);
		Integer wait = request.integer("WaitTimeSeconds", 0, Limits.MAX_WAIT_SECONDS);
		Integer visibility = request.integer("VisibilityTimeout", 0, Limits.MAX_LEASE_SECONDS);
		boolean receiveCount = false;
		List<String> names = new ArrayList<>(request.strings("AttributeNames"));
		names.addAll(request.strings("MessageSystemAttributeNames"));
		for (String name : names) {
			if (!SYSTEM_ATTRIBUTES.contains(name)) {
				throw invalidAttributeName(name);
			}
			receiveCount |= name.equals(ALL) || name.equals(APPROXIMATE_RECEIVE_COUNT);
		}
		AttributeNames wanted = AttributeNames.of(request.strings("MessageAttributeNames"));
		Duration duration = Duration.ofSeconds((wait != null) ? wait : 0);
		LongPoll poll = this.queues.lease(queue, (max != null) ? max : 1, duration, visibility);
		boolean withCount = receiveCount;
		if (poll.isDone()) {
			return received(poll.join(), withCount, wanted);
		}
		Consumer<ObjectNode> later = call.suspension().suspend(Limits.asyncTimeout(duration), poll::end);
		poll.thenAccept(leases -> later.accept(received(leases, withCount, wanted)));
		return null;
	}

	private static ObjectNode received(List<Lease> leases, boolean receiveCount, AttributeNames wanted) {
		ObjectNode answer = JSON.objectNode();
		if (leases.isEmpty()) {
			return answer;
		}
		ArrayNode messages = answer.putArray("Messages");
		for (Lease lease : leases) {
			StoredMessage stored = StoredMessage.read(lease.message().body());
			ObjectNode message = messages.addObject()
				.put("MessageId", Long.toString(lease.message().id()))
				.put("ReceiptHandle", ReceiptHandles.of(lease))
				.put("MD5OfBody", Md5.hex(stored.body()))
				.put("Body", stored.text());
			if (receiveCount) {
				message.putObject("Attributes").put(APPROXIMATE_RECEIVE_COUNT, Integer.toString(lease.delivery()));
			}
			MessageAttributes answered = wanted.select(stored.attributes());
			if (!answered.isEmpty()) {
				ObjectNode attributes = message.putObject("MessageAttributes");
				answered.attributes().forEach((name, attribute) -> {
					ObjectNode value = attributes.putObject(name).put("DataType", attribute.type());
					value.put(attribute.isBinary() ? "BinaryValue" : "StringValue", attribute.text());
				});
				message.put("MD5OfMessageAttributes", Md5.ofAttributes(answered));
			}
		}
		return answer;
	}

	/**
	 * {@code MessageAttributeNames} of a receive: {@code All} or {@code .*}, names, and
	 * prefixes ending in {@code .*}.
	 */
	private record AttributeNames(boolean all, Set<String> names, List<String> prefixes) {

		static AttributeNames of(List<String> wanted) {
			boolean all = false;
			Set<String> names = new HashSet<>();
			List<String> prefixes = new ArrayList<>();
			for (String name : wanted) {
				if (name.equals(ALL) || name.equals(".*")) {
					all = true;
				}
				else if (name.endsWith(".*")) {
					prefixes.add(name.substring(0, name.length() - 1));
				}
				else {
					names.add(name);
				}
			}
			return new AttributeNames(all, names, prefixes);
		}

		MessageAttributes select(MessageAttributes attributes) {
			if (attributes.isEmpty() || this.all) {
				return attributes;
			}
			Map<String, Attribute> selected = new LinkedHashMap<>();
			attributes.attributes().forEach((name, attribute) -> {
				if (this.names.contains(name) || this.prefixes.stream().anyMatch(name::startsWith)) {
					selected.put(name, attribute);
				}
			});
			return selected.isEmpty() ? MessageAttributes.NONE : new MessageAttributes(new TreeMap<>(selected));
		}

	}

}
