package io.github.qsbench.rest;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.github.qsbench.application.PeekedMessage;
import io.github.qsbench.application.queues.DeadLetterPolicy;
import io.github.qsbench.application.queues.FifoSettings;
import io.github.qsbench.application.Received;
import io.github.qsbench.application.LeaseTokens;
import io.github.qsbench.application.MessageAttributes;
import io.github.qsbench.application.queues.QueueSettings;
import io.github.qsbench.application.QuietCounts;
import io.github.qsbench.application.Sent;
import io.github.qsbench.application.StoredMessage;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.Peeked;
import io.github.qsbench.core.QueueStats;

/** The JSON bodies of the API. */
final class MessageResponses {

	private MessageResponses() {
	}

	/** The answer to a push. */
	record Pushed(long id, String queue, @JsonInclude(JsonInclude.Include.NON_NULL) String sequenceNumber) {

		static Pushed of(String queue, Sent message) {
			return new Pushed(message.id(), queue, (message.sequenceNumber() != 0) ? message.sequenceText() : null);
		}

	}

	/**
	 * The answer to a poll that delivered a message; {@code lease} names this delivery
	 * (also sent as the {@code ETag}).
	 */
	record Delivered(long id, String queue, String body, int deliveries, String lease,
			@JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, AttributeValue> attributes,
			@JsonInclude(JsonInclude.Include.NON_NULL) DeadLetterView deadLetter,
			@JsonInclude(JsonInclude.Include.NON_NULL) String group,
			@JsonInclude(JsonInclude.Include.NON_NULL) String sequenceNumber) {

		static Delivered of(String queue, Received delivery) {
			StoredMessage stored = delivery.message();
			return new Delivered(delivery.id(), queue, stored.text(), delivery.delivery(),
					LeaseTokens.token(delivery.lease()), AttributeValue.of(stored.attributes()),
					DeadLetterView.of(stored), stored.system().group(), stored.system().sequenceText());
		}

	}

	/**
	 * One message attribute as JSON: its type and its value (base64 for {@code Binary}).
	 */
	record AttributeValue(String type, String value) {

		/** {@code null} for none, so that the field is left out. */
		static Map<String, AttributeValue> of(MessageAttributes attributes) {
			if (attributes.isEmpty()) {
				return null;
			}
			Map<String, AttributeValue> json = new LinkedHashMap<>();
			attributes.attributes().forEach((name, one) -> json.put(name, new AttributeValue(one.type(), one.text())));
			return json;
		}

	}

	/**
	 * A message as a browse saw it: nothing leased, so no lease; its group left out when
	 * it has none.
	 */
	record Browsed(long id, String queue, String body, String state, int deliveries,
			@JsonInclude(JsonInclude.Include.NON_NULL) String sentAt,
			@JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, AttributeValue> attributes,
			@JsonInclude(JsonInclude.Include.NON_NULL) DeadLetterView deadLetter,
			@JsonInclude(JsonInclude.Include.NON_NULL) String group) {

		static Browsed of(String queue, PeekedMessage browsed) {
			Peeked peeked = browsed.peeked();
			String state = switch (peeked.state()) {
				case READY -> "ready";
				case IN_FLIGHT -> "inflight";
				case DELAYED -> "delayed";
			};
			StoredMessage stored = browsed.message();
			long sent = stored.system().sentMillis();
			return new Browsed(peeked.message().id(), queue, stored.text(), state, peeked.deliveries(),
					(sent > 0) ? Instant.ofEpochMilli(sent).toString() : null, AttributeValue.of(stored.attributes()),
					DeadLetterView.of(stored), stored.system().group());
		}

	}

	/** The answer to a browse: the messages from the queue's head, maybe none. */
	record BrowsedBatch(List<Browsed> messages) {

		static BrowsedBatch of(String queue, List<PeekedMessage> peeked) {
			return new BrowsedBatch(peeked.stream().map(one -> Browsed.of(queue, one)).toList());
		}

	}

	/**
	 * A queue as {@code GET /queues/{queue}} shows it: its counts, how long ago its head
	 * (its oldest message not yet completed) was sent (left out when it holds none), its
	 * settings, whether it was created explicitly, and, for a dead-letter queue, the
	 * queues that name it (left out when none do), so that a client need not read every
	 * queue's settings to know where its dead letters come from.
	 */
	record QueueView(String name, int ready, int inflight, int delayed,
			@JsonInclude(JsonInclude.Include.NON_NULL) Long oldestMessageAgeSeconds, SettingsView settings,
			boolean explicit, @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> deadLetterSources,
			@JsonInclude(JsonInclude.Include.NON_NULL) FairView fair) {

		static QueueView of(String name, QueueStats stats, List<PeekedMessage> head, Instant now,
				QueueSettings settings, boolean explicit, Collection<String> deadLetterSources, QuietCounts fair) {
			long sent = head.isEmpty() ? 0 : head.get(0).message().system().sentMillis();
			Long age = (sent > 0) ? Math.max(0, Duration.between(Instant.ofEpochMilli(sent), now).toSeconds()) : null;
			return new QueueView(name, (stats != null) ? stats.ready() : 0, (stats != null) ? stats.inflight() : 0,
					(stats != null) ? stats.delayed() : 0, age, SettingsView.of(settings), explicit,
					List.copyOf(deadLetterSources), (fair != null) ? FairView.of(fair) : null);
		}

	}

	/**
	 * A fair queue's counts (a standard queue whose messages carry groups), SQS's five:
	 * {@code ApproximateNumberOfNoisyGroups} and, of the quiet groups' messages, those
	 * visible, in flight and delayed, and the age of the oldest ready one.
	 */
	record FairView(long noisyGroups, long quietVisible, long quietNotVisible, long quietDelayed,
			long quietOldestAgeSeconds) {

		static FairView of(QuietCounts counts) {
			return new FairView(counts.noisyGroups(), counts.visible(), counts.notVisible(), counts.delayed(),
					counts.oldestSeconds());
		}

	}

	/**
	 * A queue's settings; without a retention or a dead-letter queue, their fields are
	 * left out; {@code tags} by key, empty for none.
	 */
	record SettingsView(long leaseSeconds, int delaySeconds,
			@JsonInclude(JsonInclude.Include.NON_NULL) Integer retentionSeconds,
			@JsonInclude(JsonInclude.Include.NON_NULL) Integer maxDeliveries,
			@JsonInclude(JsonInclude.Include.NON_NULL) String deadLetterQueue, int maxMessageBytes,
			Map<String, String> tags, @JsonInclude(JsonInclude.Include.NON_NULL) FifoSettings fifo) {

		static SettingsView of(QueueSettings settings) {
			DeadLetterPolicy policy = settings.deadLetters();
			return new SettingsView(settings.leaseSeconds(), settings.delaySeconds(), settings.retentionSeconds(),
					(policy != null) ? policy.maxDeliveries() : null, (policy != null) ? policy.queue() : null,
					settings.maxMessageBytes(), settings.tags(), settings.fifo());
		}

	}

	/** The answer to a redrive. */
	record Redriven(int moved) {
	}

	/** Where a dead letter came from, as polls and browses show it. */
	record DeadLetterView(String source, int deliveries) {

		static DeadLetterView of(StoredMessage stored) {
			StoredMessage.DeadLetter origin = stored.deadLetter();
			return (origin != null) ? new DeadLetterView(origin.source(), origin.deliveries()) : null;
		}

	}

	/** The answer to a batch push: the ids in push order. */
	record PushedBatch(String queue, List<Long> ids) {

		static PushedBatch of(String queue, List<Sent> messages) {
			return new PushedBatch(queue, messages.stream().map(Sent::id).toList());
		}

	}

	/** The answer to a poll with {@code max}: 1 to max messages, each with its lease. */
	record DeliveredBatch(List<Delivered> messages) {

		static DeliveredBatch of(String queue, List<Received> leases) {
			return new DeliveredBatch(leases.stream().map(lease -> Delivered.of(queue, lease)).toList());
		}

	}

	/** The answer to a completions batch: one result per entry, in order. */
	record CompletionResults(List<CompletionResult> results) {
	}

	/**
	 * One entry's result: the status a {@code DELETE} of that id (with {@code If-Match}
	 * when the entry named a lease) would have answered.
	 */
	record CompletionResult(long id, int status) {

		static CompletionResult of(long id, Completion completion) {
			return new CompletionResult(id, switch (completion) {
				case COMPLETED -> 204;
				case NOT_FOUND -> 404;
				case NOT_DELIVERED -> 409;
				case STALE_LEASE -> 412;
			});
		}

	}

	/** The answer to a listing of queues. */
	record Queues(List<QueueStats> queues) {
	}

}
