package io.github.qsbench.sqs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.github.qsbench.application.InvalidRequestException;
import io.github.qsbench.application.Limits;
import io.github.qsbench.application.MessageAttributes;
import io.github.qsbench.application.OutgoingMessage;
import io.github.qsbench.application.QueueNames;
import io.github.qsbench.application.Sent;
import io.github.qsbench.application.messages.MessageOperations;
import io.github.qsbench.application.queues.QueueOperations;
import io.github.qsbench.core.CapacityExceededException;
import io.github.qsbench.http.JsonAttributes;
import io.github.qsbench.http.MessageText;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code SendMessage} and {@code SendMessageBatch}. Bodies and attributes are read by the
 * parsers the REST API uses ({@link MessageText}, {@link JsonAttributes}), and answered
 * with the MD5s the SDKs check. A message may carry up to its queue's
 * {@code MaximumMessageSize} (see {@link MessageOperations#maxMessageBytes(String)}),
 * body and attributes together; a batch's messages add up to at most
 * {@code qs.max-message-size}, as SQS's add up to at most 1 MiB.
 */
final class SendActions extends QueueHandler {

	/** What a batch's messages may add up to: {@code qs.max-message-size}. */
	private final int maxMessageBytes;

	private final MessageOperations messages;

	SendActions(QueueOperations queues, MessageOperations messages, QueueUrls urls, int maxMessageBytes) {
		super(queues, urls);
		this.messages = messages;
		this.maxMessageBytes = maxMessageBytes;
	}

	@Override
	public Map<String, SqsAction> actions() {
		return Map.of("SendMessage", this::sendMessage, "SendMessageBatch", this::sendMessageBatch);
	}

	ObjectNode sendMessage(SqsAction.Call call) {
		String queue = existingQueue(call.request());
		Outgoing outgoing = outgoing(call.request(), queue, this.messages.maxMessageBytes(queue));
		Sent sent = sent(() -> this.messages.send(queue, outgoing.message(), outgoing.delaySeconds()));
		return outgoing.answer(JSON.objectNode(), sent);
	}

	/**
	 * Pushes the valid entries together, in order, all or none (those of each delay
	 * together, when entries ask for different delays: then a cap that refuses one
	 * delay's entries answers them in {@code Failed}); an entry that is not valid is
	 * answered in {@code Failed} and pushes nothing, as in SQS.
	 */
	ObjectNode sendMessageBatch(SqsAction.Call call) {
		String queue = existingQueue(call.request());
		List<SqsRequest> entries = Batches.entries(call.request());
		Batches.Answer answer = new Batches.Answer();
		List<String> ids = new ArrayList<>(entries.size());
		List<Outgoing> outgoing = new ArrayList<>(entries.size());
		long total = 0;
		int maxMessageBytes = this.messages.maxMessageBytes(queue);
		for (SqsRequest entry : entries) {
			try {
				Outgoing one = outgoing(entry, queue, maxMessageBytes);
				total += one.size();
				outgoing.add(one);
				ids.add(entry.string("Id"));
			}
			catch (SqsException ex) {
				answer.failed(entry.string("Id"), ex);
			}
		}
		if (total > this.maxMessageBytes) {
			throw SqsError.BATCH_REQUEST_TOO_LONG
				.exception("The bodies of a batch may add up to at most " + this.maxMessageBytes + " bytes.");
		}
		Map<Integer, List<Integer>> byDelay = new LinkedHashMap<>();
		for (int i = 0; i < outgoing.size(); i++) {
			byDelay.computeIfAbsent(outgoing.get(i).delaySeconds(), delay -> new ArrayList<>()).add(i);
		}
		for (Map.Entry<Integer, List<Integer>> group : byDelay.entrySet()) {
			List<Integer> members = group.getValue();
			List<Sent> messages;
			try {
				messages = sent(() -> this.messages.sendAll(queue,
						members.stream().map(i -> outgoing.get(i).message()).toList(), group.getKey()));
			}
			catch (CapacityExceededException ex) {
				if (byDelay.size() == 1) {
					throw ex;
				}
				for (int i : members) {
					answer.failed(ids.get(i), SqsError.OVER_LIMIT
						.exception("A cap is reached (" + ex.limit().property() + ", " + ex.max() + "): not sent."));
				}
				continue;
			}
			for (int i = 0; i < messages.size(); i++) {
				int entry = members.get(i);
				outgoing.get(entry).answer(answer.succeeded(ids.get(entry)), messages.get(i));
			}
		}
		return answer.json();
	}

	/**
	 * A message to send, its MD5s answered (computed from this request, also for a send a
	 * FIFO queue deduplicates: the SDKs check them), and its delay ({@code null}: the
	 * queue's).
	 */
	private record Outgoing(OutgoingMessage message, String md5OfBody, String md5OfAttributes,
			String md5OfSystemAttributes, Integer delaySeconds) {

		ObjectNode answer(ObjectNode answer, Sent sent) {
			answer.put("MessageId", Long.toString(sent.id())).put("MD5OfMessageBody", this.md5OfBody);
			if (this.md5OfAttributes != null) {
				answer.put("MD5OfMessageAttributes", this.md5OfAttributes);
			}
			if (this.md5OfSystemAttributes != null) {
				answer.put("MD5OfMessageSystemAttributes", this.md5OfSystemAttributes);
			}
			if (sent.sequenceNumber() != 0) {
				answer.put("SequenceNumber", sent.sequenceText());
			}
			return answer;
		}

		/**
		 * What SQS counts against the maximum size: body and attributes (not the system
		 * attributes).
		 */
		long size() {
			return this.message.body().length + this.message.attributes().size();
		}

	}

	/**
	 * @param maxBytes the most the message's body and attributes may add up to
	 */
	private Outgoing outgoing(SqsRequest request, String queue, int maxBytes) {
		byte[] body = body(request, maxBytes);
		if (QueueNames.isFifo(queue) && request.string("MessageGroupId") == null) {
			throw SqsError.MISSING_PARAMETER.exception("The request must contain the parameter MessageGroupId.");
		}
		if (!QueueNames.isFifo(queue) && request.string("MessageDeduplicationId") != null) {
			throw SqsError.INVALID_PARAMETER_VALUE.exception("The request include parameter MessageDeduplicationId "
					+ "that is not valid for this queue type: it is a FIFO queue's.");
		}
		try {
			MessageAttributes attributes = messageAttributes(request);
			attributes.checkSize(body, maxBytes);
			String traceHeader = MessageSystemAttributes.traceHeader(request);
			OutgoingMessage message = new OutgoingMessage(body, attributes, groupId(request, "MessageGroupId"),
					groupId(request, "MessageDeduplicationId"), traceHeader);
			return new Outgoing(message, Md5.hex(body), attributes.isEmpty() ? null : Md5.ofAttributes(attributes),
					(traceHeader != null) ? MessageSystemAttributes.md5(traceHeader) : null,
					request.integer("DelaySeconds", 0, Limits.MAX_DELAY_SECONDS));
		}
		catch (InvalidRequestException ex) {
			throw SqsError.INVALID_PARAMETER_VALUE.exception(ex.detail());
		}
	}

	/**
	 * A {@code MessageGroupId} or {@code MessageDeduplicationId}: 1 to 128 of ASCII's
	 * letters, digits and punctuation, as SQS takes them; {@code null} if not given.
	 */
	private static String groupId(SqsRequest request, String member) {
		String id = request.string(member);
		if (id == null) {
			return null;
		}
		if (!OutgoingMessage.isValidId(id)) {
			throw SqsError.INVALID_PARAMETER_VALUE.exception("Value " + id + " for parameter " + member
					+ " is invalid. Reason: 1 to 128 of a-z, A-Z, 0-9 and punctuation.");
		}
		return id;
	}

	/** A send whose refusal of body and attributes over the maximum is SQS's. */
	private static <T> T sent(Supplier<T> send) {
		try {
			return send.get();
		}
		catch (InvalidRequestException ex) {
			throw SqsError.INVALID_PARAMETER_VALUE.exception(ex.detail());
		}
	}

	/** A message's body as UTF-8, of SQS's characters ({@link MessageCharacters}). */
	private static byte[] body(SqsRequest request, int maxBytes) {
		String text = request.required("MessageBody");
		try {
			byte[] body = MessageText.utf8(text, maxBytes);
			MessageCharacters.check(text, "The message body");
			return body;
		}
		catch (MessageText.Refused ex) {
			throw switch (ex.reason()) {
				case EMPTY ->
					SqsError.MISSING_PARAMETER.exception("The request must contain the parameter MessageBody.");
				case TOO_LARGE -> SqsError.INVALID_PARAMETER_VALUE.exception("One or more parameters are invalid. "
						+ "Reason: Message must be shorter than " + (maxBytes + 1) + " bytes.");
				case NOT_TEXT -> SqsError.INVALID_MESSAGE_CONTENTS
					.exception("The message body is not text: it holds half of a UTF-16 surrogate pair.");
			};
		}
	}

	private static MessageAttributes messageAttributes(SqsRequest request) {
		JsonNode given = request.members().get("MessageAttributes");
		return (given == null || given.isNull()) ? MessageAttributes.NONE
				: JsonAttributes.read(given, AttributeForm.INSTANCE);
	}

	/**
	 * Attributes as SQS writes them: each {@code {"DataType","StringValue"}} or, for
	 * {@code Binary}, {@code {"DataType","BinaryValue"}} (base64). The list values SQS
	 * reserves are refused, and a {@code String} value (custom types too) holding a
	 * character SQS does not allow ({@link MessageCharacters}); other members are
	 * ignored, as SQS ignores them.
	 */
	private enum AttributeForm implements JsonAttributes.Form {

		INSTANCE;

		@Override
		public RuntimeException notAMap() {
			return SqsRequest.invalid("MessageAttributes", "must be a map");
		}

		@Override
		public JsonAttributes.Typed entry(String name, JsonNode value) {
			if (!value.isObject()) {
				throw SqsRequest.invalid("MessageAttributes", "maps each name to {DataType, StringValue}");
			}
			if (nonEmptyList(value, "StringListValues") || nonEmptyList(value, "BinaryListValues")) {
				throw SqsError.UNSUPPORTED_OPERATION
					.exception("StringListValues and BinaryListValues are reserved in SQS and not supported.");
			}
			String type = text(value, "DataType");
			boolean binary = type != null && type.startsWith("Binary");
			if (text(value, binary ? "StringValue" : "BinaryValue") != null) {
				throw SqsError.INVALID_PARAMETER_VALUE.exception("Message attribute '" + name + "' of type " + type
						+ " carries " + (binary ? "a BinaryValue" : "a StringValue") + " only.");
			}
			String text = text(value, binary ? "BinaryValue" : "StringValue");
			if (text != null && (type.equals("String") || type.startsWith("String."))) {
				MessageCharacters.check(text, "Message attribute '" + name + "'");
			}
			return new JsonAttributes.Typed(type, text);
		}

		private static String text(JsonNode object, String field) {
			JsonNode value = object.get(field);
			if (value == null || value.isNull()) {
				return null;
			}
			if (!value.isString()) {
				throw SqsRequest.invalid(field, "must be a string");
			}
			return value.stringValue();
		}

		private static boolean nonEmptyList(JsonNode object, String field) {
			JsonNode value = object.get(field);
			if (value != null && !value.isNull() && !value.isArray()) {
				throw SqsRequest.invalid(field, "must be a list");
			}
			return value != null && value.isArray() && !value.isEmpty();
		}

	}

}
