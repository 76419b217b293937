package io.github.qsbench.web.sqs;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.regex.Pattern;

import io.github.qsbench.application.DeadLetterPolicy;
import io.github.qsbench.application.ExplicitQueues;
import io.github.qsbench.application.InvalidRequestException;
import io.github.qsbench.application.LongPoll;
import io.github.qsbench.application.MessageAttributes;
import io.github.qsbench.application.StoredMessage;
import io.github.qsbench.application.MessageAttributes.Attribute;
import io.github.qsbench.application.QueueOperations;
import io.github.qsbench.application.QueueSettings;
import io.github.qsbench.core.CapacityExceededException;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.Lease;
import io.github.qsbench.core.LeaseChange;
import io.github.qsbench.core.Message;
import io.github.qsbench.core.QueueStats;
import io.github.qsbench.web.RequestJson;
import jakarta.servlet.http.HttpServletRequest;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The SQS actions, each a translation of its request's members into the queue operations
 * of the application layer ({@link QueueOperations}) and of their outcome into SQS's
 * answer. What SQS offers that this service has not built yet is refused with an error
 * that names it, never answered with a success that did nothing.
 */
final class SqsActions {

	/** Entries a batch may carry, and messages a receive may deliver, as in SQS. */
	static final int MAX_BATCH = 10;

	private static final int MAX_LIST_RESULTS = 1000;

	private static final int MAX_WAIT_SECONDS = 20;

	private static final int MAX_VISIBILITY_SECONDS = 43_200;

	private static final int MAX_DELAY_SECONDS = 900;

	/**
	 * The servlet async timeout beyond a receive's wait: a backstop only, since the long
	 * polls answer every waiter when its wait ends.
	 */
	static final Duration ASYNC_GRACE = Duration.ofSeconds(5);

	private static final String APPROXIMATE_NUMBER_OF_MESSAGES = "ApproximateNumberOfMessages";

	private static final String APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE = "ApproximateNumberOfMessagesNotVisible";

	private static final String APPROXIMATE_RECEIVE_COUNT = "ApproximateReceiveCount";

	private static final String ALL = "All";

	private static final String VISIBILITY_TIMEOUT = "VisibilityTimeout";

	private static final String DELAY_SECONDS = "DelaySeconds";

	private static final String MESSAGE_RETENTION_PERIOD = "MessageRetentionPeriod";

	private static final String APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED = "ApproximateNumberOfMessagesDelayed";

	/**
	 * SQS's queue attributes that this service cannot answer truly yet: never answered.
	 */
	private static final Set<String> QUEUE_ATTRIBUTES_NOT_KEPT = Set.of("CreatedTimestamp", "LastModifiedTimestamp",
			"Policy", "RedriveAllowPolicy", "KmsMasterKeyId", "KmsDataKeyReusePeriodSeconds", "SqsManagedSseEnabled",
			"FifoQueue", "ContentBasedDeduplication", "DeduplicationScope", "FifoThroughputLimit");

	/** SQS's message system attributes; only the receive count is kept. */
	private static final Set<String> MESSAGE_ATTRIBUTES = Set.of(ALL, APPROXIMATE_RECEIVE_COUNT, "SentTimestamp",
			"SenderId", "ApproximateFirstReceiveTimestamp", "AWSTraceHeader", "SqsManagedSseEnabled",
			"MessageDeduplicationId", "MessageGroupId", "SequenceNumber", "DeadLetterQueueSourceArn");

	/** What SQS allows as a batch entry's id. */
	private static final Pattern BATCH_ENTRY_ID = Pattern.compile("[A-Za-z0-9_-]{1,80}");

	private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

	private final QueueOperations queues;

	private final ExplicitQueues explicit;

	private final QueueUrls urls;

	/** Reads a {@code RedrivePolicy}, JSON inside a string. */
	private final JsonMapper mapper = RequestJson.mapper(4096);

	private final int maxMessageBytes;

	/**
	 * The attributes every queue has, with the same values; {@code VisibilityTimeout} and
	 * {@code DelaySeconds} are each queue's own.
	 */
	private final Map<String, String> settings;

	SqsActions(QueueOperations queues, ExplicitQueues explicit, QueueUrls urls, int maxMessageBytes) {
		this.queues = queues;
		this.explicit = explicit;
		this.urls = urls;
		this.maxMessageBytes = maxMessageBytes;
		this.settings = Map.of("ReceiveMessageWaitTimeSeconds", "0", "MaximumMessageSize",
				Integer.toString(maxMessageBytes));
	}

	/**
	 * Creates a queue that exists while empty (see {@link ExplicitQueues}); idempotent.
	 * Attributes are accepted only where they equal what every queue has.
	 */
	ObjectNode createQueue(SqsRequest request, HttpServletRequest http) {
		String name = request.required("QueueName");
		if (!QueueOperations.isQueueName(name)) {
			throw SqsError.INVALID_PARAMETER_VALUE
				.exception("Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length."
						+ (name.endsWith(".fifo") ? " FIFO queues are not supported." : ""));
		}
		if (request.present("tags")) {
			throw SqsError.UNSUPPORTED_OPERATION.exception("Queue tags are not stored: create the queue without tags.");
		}
		Map<String, String> attributes = request.stringMap("Attributes");
		for (String attribute : attributes.keySet()) {
			if (attribute.startsWith("Approximate") || attribute.equals("QueueArn")) {
				throw invalidAttributeName(attribute);
			}
		}
		configure(name, attributes);
		return JSON.objectNode().put("QueueUrl", this.urls.url(http, name));
	}

	ObjectNode getQueueUrl(SqsRequest request, HttpServletRequest http) {
		String name = request.required("QueueName");
		String owner = request.string("QueueOwnerAWSAccountId");
		if (!QueueOperations.isQueueName(name) || (owner != null && !this.urls.isAccount(owner))
				|| !this.queues.exists(name)) {
			throw QueueUrls.doesNotExist();
		}
		return JSON.objectNode().put("QueueUrl", this.urls.url(http, name));
	}

	/**
	 * Queues created explicitly and queues holding messages, by name; pages by name after
	 * {@code NextToken}, which is the last name of the page before.
	 */
	ObjectNode listQueues(SqsRequest request, HttpServletRequest http) {
		String prefix = request.string("QueueNamePrefix");
		Integer maxResults = request.integer("MaxResults", 1, MAX_LIST_RESULTS);
		String after = request.string("NextToken");
		if (after != null && (maxResults == null || !QueueOperations.isQueueName(after))) {
			throw SqsRequest.invalid("NextToken", "must be the NextToken of a ListQueues answer with MaxResults");
		}
		TreeSet<String> names = new TreeSet<>();
		for (QueueStats queue : this.queues.queues()) {
			names.add(queue.name());
		}
		ObjectNode answer = JSON.objectNode();
		ArrayNode urls = answer.putArray("QueueUrls");
		int limit = (maxResults != null) ? maxResults : MAX_LIST_RESULTS;
		String last = null;
		for (String name : (after != null) ? names.tailSet(after, false) : names) {
			if (prefix != null && !name.startsWith(prefix)) {
				continue;
			}
			if (urls.size() == limit) {
				if (maxResults != null) {
					answer.put("NextToken", last);
				}
				break;
			}
			urls.add(this.urls.url(http, name));
			last = name;
		}
		return answer;
	}

	ObjectNode sendMessage(SqsRequest request) {
		String queue = existingQueue(request);
		Outgoing outgoing = outgoing(request);
		Message message = this.queues.push(queue, outgoing.stored(), outgoing.delaySeconds());
		return outgoing.answer(JSON.objectNode().put("MessageId", Long.toString(message.id())));
	}

	/**
	 * Pushes the valid entries together, in order, all or none (those of each delay
	 * together, when entries ask for different delays: then a cap that refuses one
	 * delay's entries answers them in {@code Failed}); an entry that is not valid is
	 * answered in {@code Failed} and pushes nothing, as in SQS.
	 */
	ObjectNode sendMessageBatch(SqsRequest request) {
		String queue = existingQueue(request);
		List<SqsRequest> entries = batchEntries(request);
		ObjectNode answer = JSON.objectNode();
		ArrayNode successful = answer.putArray("Successful");
		ArrayNode failed = answer.putArray("Failed");
		List<String> ids = new ArrayList<>(entries.size());
		List<Outgoing> outgoing = new ArrayList<>(entries.size());
		List<byte[]> bodies = new ArrayList<>(entries.size());
		long total = 0;
		for (SqsRequest entry : entries) {
			try {
				Outgoing one = outgoing(entry);
				total += one.stored().length;
				outgoing.add(one);
				bodies.add(one.stored());
				ids.add(entry.string("Id"));
			}
			catch (SqsException ex) {
				failed(failed, entry.string("Id"), ex);
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
			List<Message> messages;
			try {
				messages = this.queues.pushAll(queue, members.stream().map(bodies::get).toList(), group.getKey());
			}
			catch (CapacityExceededException ex) {
				if (byDelay.size() == 1) {
					throw ex;
				}
				for (int i : members) {
					failed(failed, ids.get(i), SqsError.OVER_LIMIT
						.exception("A cap is reached (" + ex.limit().property() + ", " + ex.max() + "): not sent."));
				}
				continue;
			}
			for (int i = 0; i < messages.size(); i++) {
				int entry = members.get(i);
				outgoing.get(entry)
					.answer(successful.addObject()
						.put("Id", ids.get(entry))
						.put("MessageId", Long.toString(messages.get(i).id())));
			}
		}
		return answer;
	}

	/**
	 * Leases up to {@code MaxNumberOfMessages} at once, or, with {@code WaitTimeSeconds},
	 * waits for them without holding a thread: then answers through the suspension.
	 * @return the answer, or {@code null} if the receive waits
	 */
	ObjectNode receiveMessage(SqsRequest request, Suspension suspension) {
		String queue = existingQueue(request);
		Integer max = request.integer("MaxNumberOfMessages", 1, MAX_BATCH);
		Integer wait = request.integer("WaitTimeSeconds", 0, MAX_WAIT_SECONDS);
		Integer visibility = request.integer("VisibilityTimeout", 0, MAX_VISIBILITY_SECONDS);
		boolean receiveCount = false;
		List<String> names = new ArrayList<>(request.strings("AttributeNames"));
		names.addAll(request.strings("MessageSystemAttributeNames"));
		for (String name : names) {
			if (!MESSAGE_ATTRIBUTES.contains(name)) {
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
		Consumer<ObjectNode> later = suspension.suspend(duration.plus(ASYNC_GRACE), poll::end);
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
	 * What a send pushes (body and attributes as the core keeps them) and the digests it
	 * answers.
	 */
	/**
	 * A message to send: stored form, MD5s, and its delay ({@code null}: the queue's).
	 */
	private record Outgoing(byte[] stored, String md5OfBody, String md5OfAttributes, Integer delaySeconds) {

		ObjectNode answer(ObjectNode answer) {
			answer.put("MD5OfMessageBody", this.md5OfBody);
			if (this.md5OfAttributes != null) {
				answer.put("MD5OfMessageAttributes", this.md5OfAttributes);
			}
			return answer;
		}

	}

	private Outgoing outgoing(SqsRequest request) {
		byte[] body = body(request);
		MessageAttributes attributes = messageAttributes(request);
		byte[] stored;
		try {
			stored = attributes.store(body, this.maxMessageBytes);
		}
		catch (InvalidRequestException ex) {
			throw SqsError.INVALID_PARAMETER_VALUE.exception(ex.detail());
		}
		return new Outgoing(stored, Md5.hex(body), attributes.isEmpty() ? null : Md5.ofAttributes(attributes),
				request.integer("DelaySeconds", 0, MAX_DELAY_SECONDS));
	}

	/**
	 * {@code MessageAttributes}: each {@code {"DataType","StringValue"}} or, for
	 * {@code Binary}, {@code {"DataType","BinaryValue"}} (base64).
	 */
	private static MessageAttributes messageAttributes(SqsRequest request) {
		JsonNode given = request.members().get("MessageAttributes");
		if (given == null || given.isNull()) {
			return MessageAttributes.NONE;
		}
		if (!given.isObject()) {
			throw SqsRequest.invalid("MessageAttributes", "must be a map");
		}
		Map<String, Attribute> attributes = new LinkedHashMap<>();
		try {
			for (Map.Entry<String, JsonNode> entry : given.properties()) {
				JsonNode value = entry.getValue();
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
					throw SqsError.INVALID_PARAMETER_VALUE
						.exception("Message attribute '" + entry.getKey() + "' of type " + type + " carries "
								+ (binary ? "a BinaryValue" : "a StringValue") + " only.");
				}
				attributes.put(entry.getKey(),
						Attribute.parse(type, text(value, binary ? "BinaryValue" : "StringValue")));
			}
			return MessageAttributes.of(attributes);
		}
		catch (InvalidRequestException ex) {
			throw SqsError.INVALID_PARAMETER_VALUE.exception(ex.detail());
		}
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
		return value != null && value.isArray() && !value.isEmpty();
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

	ObjectNode deleteMessage(SqsRequest request) {
		String queue = this.urls.queue(request.required("QueueUrl"));
		delete(queue, request.required("ReceiptHandle"));
		return JSON.objectNode();
	}

	/**
	 * Deletes the entries' messages in one completion of the core (on Redis one round
	 * trip for the batch, not one per entry), each entry answered on its own as
	 * {@code DeleteMessage} would answer it: an entry whose handle is not one this
	 * service hands out fails without reaching the core.
	 */
	ObjectNode deleteMessageBatch(SqsRequest request) {
		String queue = this.urls.queue(request.required("QueueUrl"));
		ObjectNode answer = JSON.objectNode();
		ArrayNode successful = answer.putArray("Successful");
		ArrayNode failed = answer.putArray("Failed");
		List<String> ids = new ArrayList<>();
		List<QueueOperations.ToComplete> handles = new ArrayList<>();
		for (SqsRequest entry : batchEntries(request)) {
			try {
				String handle = entry.required("ReceiptHandle");
				handles.add(new QueueOperations.ToComplete(ReceiptHandles.id(handle), handle));
				ids.add(entry.string("Id"));
			}
			catch (SqsException ex) {
				failed(failed, entry.string("Id"), ex);
			}
		}
		List<Completion> completions = handles.isEmpty() ? List.of() : this.queues.completeAll(queue, handles);
		for (int i = 0; i < completions.size(); i++) {
			try {
				deleted(queue, handles.get(i).lease(), completions.get(i));
				successful.addObject().put("Id", ids.get(i));
			}
			catch (SqsException ex) {
				failedUnlessQueueGone(failed, ids.get(i), ex);
			}
		}
		return answer;
	}

	/**
	 * A batch of receipt-handle actions: each entry done on its own and answered in
	 * {@code Successful} or {@code Failed}, as in SQS; a queue that does not exist fails
	 * the whole request.
	 */
	private ObjectNode eachEntry(SqsRequest request, BiConsumer<String, SqsRequest> action) {
		String queue = this.urls.queue(request.required("QueueUrl"));
		List<SqsRequest> entries = batchEntries(request);
		ObjectNode answer = JSON.objectNode();
		ArrayNode successful = answer.putArray("Successful");
		ArrayNode failed = answer.putArray("Failed");
		for (SqsRequest entry : entries) {
			String id = entry.string("Id");
			try {
				action.accept(queue, entry);
				successful.addObject().put("Id", id);
			}
			catch (SqsException ex) {
				failedUnlessQueueGone(failed, id, ex);
			}
		}
		return answer;
	}

	/**
	 * Makes the visibility timeout of the delivery a receipt handle names end
	 * {@code VisibilityTimeout} seconds from now (0: visible at once); the handle stays
	 * valid.
	 */
	ObjectNode changeMessageVisibility(SqsRequest request) {
		String queue = this.urls.queue(request.required("QueueUrl"));
		changeVisibility(queue, request.required("ReceiptHandle"), visibility(request));
		return JSON.objectNode();
	}

	ObjectNode changeMessageVisibilityBatch(SqsRequest request) {
		return eachEntry(request,
				(queue, entry) -> changeVisibility(queue, entry.required("ReceiptHandle"), visibility(entry)));
	}

	private static int visibility(SqsRequest request) {
		Integer visibility = request.integer(VISIBILITY_TIMEOUT, 0, MAX_VISIBILITY_SECONDS);
		if (visibility == null) {
			throw SqsError.MISSING_PARAMETER
				.exception("The request must contain the parameter " + VISIBILITY_TIMEOUT + ".");
		}
		return visibility;
	}

	/**
	 * As SQS answers: a handle whose message is gone, or that was received again since,
	 * cannot change anything.
	 */
	private void changeVisibility(String queue, String handle, int seconds) {
		LeaseChange change = this.queues.changeLease(queue, ReceiptHandles.id(handle), handle, seconds);
		switch (change) {
			case CHANGED -> {
			}
			case NOT_FOUND -> {
				if (!this.queues.exists(queue)) {
					throw QueueUrls.doesNotExist();
				}
				throw SqsError.INVALID_PARAMETER_VALUE.exception("Value " + handle + " for parameter ReceiptHandle "
						+ "is invalid. Reason: Message does not exist or is not available for visibility timeout "
						+ "change.");
			}
			case NOT_DELIVERED -> throw ReceiptHandles.invalid(handle);
			case STALE_LEASE -> throw SqsError.MESSAGE_NOT_INFLIGHT.exception("The receipt handle \"" + handle
					+ "\" is no longer current: its visibility timeout lapsed and the message was received again "
					+ "since (or is being received now).");
		}
	}

	/**
	 * Deletes the delivery a receipt handle names. A handle whose message is gone already
	 * is answered as deleted (a retried delete must not fail, as in SQS); one whose
	 * message was received again since is refused: the newer handle deletes it.
	 */
	private void delete(String queue, String handle) {
		deleted(queue, handle, this.queues.complete(queue, ReceiptHandles.id(handle), handle));
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
			case NOT_DELIVERED -> throw ReceiptHandles.invalid(handle);
			case STALE_LEASE -> throw SqsError.RECEIPT_HANDLE_IS_INVALID.exception("The receipt handle \"" + handle
					+ "\" is no longer current: its visibility timeout lapsed and the message was received again "
					+ "since. The newer receipt handle deletes it.");
		}
	}

	/**
	 * The attributes asked for ({@code All}: every one this service has); attributes it
	 * cannot answer truly (timestamps, retention, policies) are left out, as SQS leaves
	 * out what does not apply.
	 */
	ObjectNode getQueueAttributes(SqsRequest request) {
		String queue = existingQueue(request);
		Set<String> names = new HashSet<>(request.strings("AttributeNames"));
		for (String name : names) {
			if (!name.equals(ALL) && !name.equals(APPROXIMATE_NUMBER_OF_MESSAGES)
					&& !name.equals(APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE) && !name.equals("QueueArn")
					&& !name.equals(APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED) && !name.equals("RedrivePolicy")
					&& !name.equals(VISIBILITY_TIMEOUT) && !name.equals(DELAY_SECONDS)
					&& !name.equals(MESSAGE_RETENTION_PERIOD) && !this.settings.containsKey(name)
					&& !QUEUE_ATTRIBUTES_NOT_KEPT.contains(name)) {
				throw invalidAttributeName(name);
			}
		}
		boolean all = names.contains(ALL);
		ObjectNode answer = JSON.objectNode();
		ObjectNode attributes = answer.putObject("Attributes");
		QueueStats stats = this.queues.queue(queue).orElse(new QueueStats(queue, 0, 0));
		if (all || names.contains(APPROXIMATE_NUMBER_OF_MESSAGES)) {
			attributes.put(APPROXIMATE_NUMBER_OF_MESSAGES, Integer.toString(stats.ready()));
		}
		if (all || names.contains(APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE)) {
			attributes.put(APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE, Integer.toString(stats.inflight()));
		}
		if (all || names.contains(APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED)) {
			attributes.put(APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED, Integer.toString(stats.delayed()));
		}
		this.settings.forEach((name, value) -> {
			if (all || names.contains(name)) {
				attributes.put(name, value);
			}
		});
		if (all || names.contains("QueueArn")) {
			attributes.put("QueueArn", this.urls.arn(queue));
		}
		QueueSettings settings = this.queues.settings(queue);
		if (all || names.contains(VISIBILITY_TIMEOUT)) {
			attributes.put(VISIBILITY_TIMEOUT, Long.toString(settings.leaseSeconds()));
		}
		if (all || names.contains(DELAY_SECONDS)) {
			attributes.put(DELAY_SECONDS, Integer.toString(settings.delaySeconds()));
		}
		if (settings.retentionSeconds() != null && (all || names.contains(MESSAGE_RETENTION_PERIOD))) {
			attributes.put(MESSAGE_RETENTION_PERIOD, Integer.toString(settings.retentionSeconds()));
		}
		DeadLetterPolicy policy = settings.deadLetters();
		if (policy != null && (all || names.contains("RedrivePolicy"))) {
			attributes.put("RedrivePolicy",
					JSON.objectNode()
						.put("deadLetterTargetArn", this.urls.arn(policy.queue()))
						.put("maxReceiveCount", policy.maxDeliveries())
						.toString());
		}
		return answer;
	}

	/**
	 * Purges at once, where SQS takes up to a minute; unlike SQS, a second purge within
	 * the minute is not refused ({@code PurgeQueueInProgress}), since nothing is in
	 * progress.
	 */
	ObjectNode purgeQueue(SqsRequest request) {
		this.queues.purge(existingQueue(request));
		return JSON.objectNode();
	}

	/** Deletes the queue and its messages at once (SQS takes up to a minute). */
	ObjectNode deleteQueue(SqsRequest request) {
		if (!this.queues.deleteQueue(this.urls.queue(request.required("QueueUrl")))) {
			throw QueueUrls.doesNotExist();
		}
		return JSON.objectNode();
	}

	/** The queues whose {@code RedrivePolicy} names this one, by name. */
	ObjectNode listDeadLetterSourceQueues(SqsRequest request, HttpServletRequest http) {
		String queue = existingQueue(request);
		ObjectNode answer = JSON.objectNode();
		ArrayNode urls = answer.putArray("queueUrls");
		this.queues.deadLetterSources(queue).forEach(source -> urls.add(this.urls.url(http, source)));
		return answer;
	}

	/**
	 * Sets what queues have of their own: {@code RedrivePolicy} (empty removes it); and
	 * {@code VisibilityTimeout}, {@code DelaySeconds},
	 * {@code ReceiveMessageWaitTimeSeconds} and {@code MaximumMessageSize} at the values
	 * every queue has.
	 */
	ObjectNode setQueueAttributes(SqsRequest request) {
		String queue = existingQueue(request);
		configure(queue, request.stringMap("Attributes"));
		return JSON.objectNode();
	}

	private void configure(String queue, Map<String, String> attributes) {
		Long lease = null;
		Integer delay = null;
		Integer retention = null;
		DeadLetterPolicy policy = null;
		for (Map.Entry<String, String> attribute : attributes.entrySet()) {
			String name = attribute.getKey();
			String value = attribute.getValue();
			switch (name) {
				case VISIBILITY_TIMEOUT -> lease = (long) whole(name, value);
				case DELAY_SECONDS -> delay = whole(name, value);
				case MESSAGE_RETENTION_PERIOD -> retention = whole(name, value);
				case "RedrivePolicy" -> policy = value.isEmpty() ? QueueSettings.Change.REMOVE : redrivePolicy(value);
				case "ReceiveMessageWaitTimeSeconds", "MaximumMessageSize" -> {
					if (!this.settings.get(name).equals(value)) {
						throw SqsError.UNSUPPORTED_OPERATION.exception("Queue attribute " + name
								+ " cannot be set: every queue has " + name + " " + this.settings.get(name) + ".");
					}
				}
				default -> {
					if (!QUEUE_ATTRIBUTES_NOT_KEPT.contains(name)) {
						throw invalidAttributeName(name);
					}
					throw SqsError.UNSUPPORTED_OPERATION
						.exception("Queue attribute " + name + " is not kept by this service.");
				}
			}
		}
		try {
			this.queues.configure(queue, new QueueSettings.Change(lease, delay, retention, policy));
		}
		catch (InvalidRequestException ex) {
			throw SqsError.INVALID_ATTRIBUTE_VALUE.exception(ex.detail());
		}
	}

	private static int whole(String name, String value) {
		try {
			return Integer.parseInt(value);
		}
		catch (NumberFormatException ex) {
			throw SqsError.INVALID_ATTRIBUTE_VALUE.exception("Invalid value for the parameter " + name + ".");
		}
	}

	/**
	 * {@code {"deadLetterTargetArn":"arn:aws:sqs:<region>:<account>:<queue>",
	 * "maxReceiveCount":N}}, the count as a number or a string, as SQS takes it.
	 */
	private DeadLetterPolicy redrivePolicy(String json) {
		JsonNode policy;
		try {
			policy = this.mapper.readTree(json);
		}
		catch (JacksonException ex) {
			policy = null;
		}
		JsonNode arn = (policy != null && policy.isObject()) ? policy.get("deadLetterTargetArn") : null;
		JsonNode count = (policy != null && policy.isObject()) ? policy.get("maxReceiveCount") : null;
		if (arn == null || !arn.isString() || count == null || !(count.isString() || count.isIntegralNumber())) {
			throw SqsError.INVALID_ATTRIBUTE_VALUE.exception("Invalid value for the parameter RedrivePolicy. Reason: "
					+ "it is {\"deadLetterTargetArn\":\"arn:...\",\"maxReceiveCount\":N}.");
		}
		String queue = this.urls.queueOfArn(arn.stringValue());
		if (queue == null) {
			throw SqsError.INVALID_ATTRIBUTE_VALUE.exception("Invalid value for the parameter RedrivePolicy. Reason: "
					+ "deadLetterTargetArn " + arn.stringValue() + " is not a queue of this service.");
		}
		int maxReceiveCount = count.isString() ? whole("RedrivePolicy.maxReceiveCount", count.stringValue())
				: count.canConvertToInt() ? count.intValue() : -1;
		try {
			return new DeadLetterPolicy(queue, maxReceiveCount);
		}
		catch (InvalidRequestException ex) {
			throw SqsError.INVALID_ATTRIBUTE_VALUE.exception("Invalid value for the parameter RedrivePolicy. Reason: "
					+ "maxReceiveCount is 1 to " + DeadLetterPolicy.MAX_DELIVERIES + ".");
		}
	}

	private String existingQueue(SqsRequest request) {
		String queue = this.urls.queue(request.required("QueueUrl"));
		if (!this.queues.exists(queue)) {
			throw QueueUrls.doesNotExist();
		}
		return queue;
	}

	/**
	 * A message's body as UTF-8, after refusing what a send may carry but this service
	 * cannot keep yet: system attributes would be dropped.
	 */
	private byte[] body(SqsRequest request) {
		String text = request.required("MessageBody");
		if (request.present("MessageSystemAttributes")) {
			throw SqsError.UNSUPPORTED_OPERATION.exception("Message system attributes (AWSTraceHeader) are not stored, "
					+ "and a message is not accepted only to lose them: send it without MessageSystemAttributes.");
		}
		if (request.present("MessageGroupId") || request.present("MessageDeduplicationId")) {
			throw SqsError.INVALID_PARAMETER_VALUE.exception(
					"MessageGroupId and MessageDeduplicationId are for FIFO queues, which this service does not have.");
		}
		if (text.isEmpty()) {
			throw SqsError.MISSING_PARAMETER.exception("The request must contain the parameter MessageBody.");
		}
		if (text.length() > this.maxMessageBytes) {
			throw tooLong();
		}
		ByteBuffer bytes;
		try {
			bytes = StandardCharsets.UTF_8.newEncoder()
				.onMalformedInput(CodingErrorAction.REPORT)
				.onUnmappableCharacter(CodingErrorAction.REPORT)
				.encode(CharBuffer.wrap(text));
		}
		catch (CharacterCodingException ex) {
			throw SqsError.INVALID_MESSAGE_CONTENTS
				.exception("The message body is not text: it holds half of a UTF-16 surrogate pair.");
		}
		if (bytes.remaining() > this.maxMessageBytes) {
			throw tooLong();
		}
		return Arrays.copyOf(bytes.array(), bytes.remaining());
	}

	private SqsException tooLong() {
		return SqsError.INVALID_PARAMETER_VALUE.exception("One or more parameters are invalid. Reason: Message must be "
				+ "shorter than " + (this.maxMessageBytes + 1) + " bytes.");
	}

	/** A batch's entries: 1 to 10, each with its own valid {@code Id}. */
	private static List<SqsRequest> batchEntries(SqsRequest request) {
		List<SqsRequest> entries = request.entries("Entries");
		if (entries.isEmpty()) {
			throw SqsError.EMPTY_BATCH_REQUEST.exception("There should be at least one entry in the request.");
		}
		if (entries.size() > MAX_BATCH) {
			throw SqsError.TOO_MANY_ENTRIES_IN_BATCH_REQUEST.exception("Maximum number of entries per request are "
					+ MAX_BATCH + ". You have sent " + entries.size() + ".");
		}
		Set<String> ids = new HashSet<>();
		for (SqsRequest entry : entries) {
			String id = entry.required("Id");
			if (!BATCH_ENTRY_ID.matcher(id).matches()) {
				throw SqsError.INVALID_BATCH_ENTRY_ID.exception("A batch entry id can only contain alphanumeric "
						+ "characters, hyphens and underscores. It can be at most 80 letters long.");
			}
			if (!ids.add(id)) {
				throw SqsError.BATCH_ENTRY_IDS_NOT_DISTINCT.exception("Id " + id + " repeated.");
			}
		}
		return entries;
	}

	/**
	 * A batch entry's failure, answered in {@code Failed}; but a queue that does not
	 * exist fails the whole request, as in SQS.
	 */
	private static void failedUnlessQueueGone(ArrayNode failed, String id, SqsException ex) {
		if (ex.error() == SqsError.QUEUE_DOES_NOT_EXIST) {
			throw ex;
		}
		failed(failed, id, ex);
	}

	private static void failed(ArrayNode failed, String id, SqsException ex) {
		failed.addObject()
			.put("Id", id)
			.put("SenderFault", true)
			.put("Code", ex.error().code())
			.put("Message", ex.getMessage());
	}

	private static SqsException invalidAttributeName(String name) {
		return SqsError.INVALID_ATTRIBUTE_NAME.exception("Unknown Attribute " + name + ".");
	}

	/**
	 * How a receive that has to wait is answered later: set up by the face, which puts
	 * the request in the servlet's async mode.
	 */
	interface Suspension {

		/**
		 * Called once, on the request's thread, once the receive waits.
		 * @param timeout the request's async timeout: the wait plus a grace
		 * @param end ends the wait at once, answering it with nothing unless it was
		 * answered already: for the request's own timeout and errors
		 * @return what answers the request, from whichever thread finds its messages
		 */
		Consumer<ObjectNode> suspend(Duration timeout, Runnable end);

	}

}
