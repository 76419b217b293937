package io.github.qsbench.sqs;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

import io.github.qsbench.application.Limits;
import io.github.qsbench.application.MessageAttributes.Attribute;
import io.github.qsbench.application.MessageAttributes;
import io.github.qsbench.application.OutgoingMessage;
import io.github.qsbench.application.Received;
import io.github.qsbench.application.StoredMessage.SystemAttributes;
import io.github.qsbench.application.StoredMessage;
import io.github.qsbench.application.messages.LongPoll;
import io.github.qsbench.application.messages.MessageOperations;
import io.github.qsbench.application.queues.QueueOperations;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code ReceiveMessage}: leases up to {@code MaxNumberOfMessages} at once, or, with
 * {@code WaitTimeSeconds} (else the queue's {@code ReceiveMessageWaitTimeSeconds}), waits
 * for them without holding a thread, answering through the call's suspension.
 */
final class ReceiveActions extends QueueHandler {

	/**
	 * SQS's message system attributes a receive may name; those this service records
	 * ({@link SystemAttribute}) are answered, the others ({@code SqsManagedSseEnabled},
	 * {@code DeadLetterQueueSourceArn}) accepted and left out, as SQS leaves out what a
	 * message does not carry.
	 */
	private static final Set<String> SYSTEM_ATTRIBUTES = Set.of(ALL, "ApproximateReceiveCount", "SentTimestamp",
			"SenderId", "ApproximateFirstReceiveTimestamp", "AWSTraceHeader", "SqsManagedSseEnabled",
			"MessageDeduplicationId", "MessageGroupId", "SequenceNumber", "DeadLetterQueueSourceArn");

	/** Who sent a message, as {@code SenderId} answers it: the account of the URLs. */
	private final String senderId;

	private final MessageOperations messages;

	ReceiveActions(QueueOperations queues, MessageOperations messages, QueueUrls urls, String senderId) {
		super(queues, urls);
		this.messages = messages;
		this.senderId = senderId;
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
		List<String> names = new ArrayList<>(request.strings("AttributeNames"));
		names.addAll(request.strings("MessageSystemAttributeNames"));
		EnumSet<SystemAttribute> system = EnumSet.noneOf(SystemAttribute.class);
		for (String name : names) {
			if (!SYSTEM_ATTRIBUTES.contains(name)) {
				throw invalidAttributeName(name);
			}
			if (name.equals(ALL)) {
				system = EnumSet.allOf(SystemAttribute.class);
			}
			else {
				SystemAttribute.named(name).ifPresent(system::add);
			}
		}
		AttributeNames wanted = AttributeNames.of(request.strings("MessageAttributeNames"));
		Duration duration = Duration
			.ofSeconds((wait != null) ? wait : QueueAttributeActions.receiveWaitSeconds(this.queues.settings(queue)));
		String attemptId = request.string("ReceiveRequestAttemptId");
		if (attemptId != null && !OutgoingMessage.isValidId(attemptId)) {
			throw SqsError.INVALID_PARAMETER_VALUE.exception("Value " + attemptId
					+ " for parameter ReceiveRequestAttemptId is invalid. Reason: 1 to 128 of a-z, A-Z, 0-9 and punctuation.");
		}
		LongPoll poll = this.messages.awaitLease(queue, (max != null) ? max : 1, duration, visibility, attemptId);
		Set<SystemAttribute> answered = system;
		if (poll.isDone()) {
			return received(poll.join(), answered, wanted);
		}
		Consumer<ObjectNode> later = call.suspension().suspend(Limits.asyncTimeout(duration), poll::end);
		poll.thenAccept(deliveries -> later.accept(received(deliveries, answered, wanted)));
		return null;
	}

	private ObjectNode received(List<Received> deliveries, Set<SystemAttribute> system, AttributeNames wanted) {
		ObjectNode answer = JSON.objectNode();
		if (deliveries.isEmpty()) {
			return answer;
		}
		ArrayNode messages = answer.putArray("Messages");
		for (Received delivery : deliveries) {
			StoredMessage stored = delivery.message();
			ObjectNode message = messages.addObject()
				.put("MessageId", Long.toString(delivery.id()))
				.put("ReceiptHandle", LeaseReceiptHandles.of(delivery.lease()))
				.put("MD5OfBody", Md5.hex(stored.body()))
				.put("Body", stored.text());
			if (!system.isEmpty()) {
				ObjectNode attributes = JSON.objectNode();
				for (SystemAttribute attribute : system) {
					String value = attribute.of(delivery, this.senderId);
					if (value != null) {
						attributes.put(attribute.name, value);
					}
				}
				if (!attributes.isEmpty()) {
					message.set("Attributes", attributes);
				}
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

	/** The system attributes this service records, as a receive answers them. */
	private enum SystemAttribute {

		APPROXIMATE_RECEIVE_COUNT("ApproximateReceiveCount"), SENT_TIMESTAMP("SentTimestamp"), SENDER_ID("SenderId"),
		APPROXIMATE_FIRST_RECEIVE_TIMESTAMP("ApproximateFirstReceiveTimestamp"), MESSAGE_GROUP_ID("MessageGroupId"),
		MESSAGE_DEDUPLICATION_ID("MessageDeduplicationId"), SEQUENCE_NUMBER("SequenceNumber"),
		AWS_TRACE_HEADER("AWSTraceHeader");

		private final String name;

		SystemAttribute(String name) {
			this.name = name;
		}

		static Optional<SystemAttribute> named(String name) {
			for (SystemAttribute attribute : values()) {
				if (attribute.name.equals(name)) {
					return Optional.of(attribute);
				}
			}
			return Optional.empty();
		}

		/** Its value for this delivery, {@code null} if the message does not carry it. */
		String of(Received delivery, String senderId) {
			SystemAttributes system = delivery.message().system();
			return switch (this) {
				case APPROXIMATE_RECEIVE_COUNT -> Integer.toString(delivery.delivery());
				case SENT_TIMESTAMP -> (system.sentMillis() != 0) ? Long.toString(system.sentMillis()) : null;
				case SENDER_ID -> senderId;
				case APPROXIMATE_FIRST_RECEIVE_TIMESTAMP ->
					(system.firstReceivedMillis() != 0) ? Long.toString(system.firstReceivedMillis()) : null;
				case MESSAGE_GROUP_ID -> system.group();
				case MESSAGE_DEDUPLICATION_ID -> system.deduplicationId();
				case SEQUENCE_NUMBER -> system.sequenceText();
				case AWS_TRACE_HEADER -> system.traceHeader();
			};
		}

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
