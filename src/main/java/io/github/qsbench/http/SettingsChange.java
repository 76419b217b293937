package io.github.qsbench.http;

import java.util.HashMap;
import java.util.Map;

import io.github.qsbench.application.queues.DeadLetterPolicy;
import io.github.qsbench.application.queues.FifoSettings;
import io.github.qsbench.application.InvalidRequestException;
import io.github.qsbench.application.queues.QueueSettings;
import io.github.qsbench.application.queues.QueueTags;

/**
 * A change of a queue's settings, gathered setting by setting as a face reads them
 * (REST's {@code leaseSeconds}, SQS's {@code VisibilityTimeout}, ...) into the one change
 * the application takes. The rule both faces follow lives here: a dead-letter queue comes
 * with its {@code maxDeliveries}, and naming none removes it. Ranges are the
 * application's to check.
 */
public final class SettingsChange {

	private Long leaseSeconds;

	private Integer delaySeconds;

	private Integer retentionSeconds;

	private Integer maxDeliveries;

	private String deadLetterQueue;

	private boolean deadLetterQueueGiven;

	private Integer maxMessageBytes;

	private QueueTags.Change tags;

	private Boolean fifo;

	private Boolean contentBasedDeduplication;

	private String deduplicationScope;

	private String throughputLimit;

	private final Map<String, String> recorded = new HashMap<>();

	public SettingsChange leaseSeconds(int seconds) {
		this.leaseSeconds = (long) seconds;
		return this;
	}

	public SettingsChange delaySeconds(int seconds) {
		this.delaySeconds = seconds;
		return this;
	}

	public SettingsChange retentionSeconds(int seconds) {
		this.retentionSeconds = seconds;
		return this;
	}

	public SettingsChange maxDeliveries(int deliveries) {
		this.maxDeliveries = deliveries;
		return this;
	}

	public SettingsChange maxMessageBytes(int bytes) {
		this.maxMessageBytes = bytes;
		return this;
	}

	/** The tags to set and remove; {@code null} leaves them as they are. */
	public SettingsChange tags(QueueTags.Change change) {
		this.tags = change;
		return this;
	}

	/**
	 * Whether the queue is a FIFO queue (SQS's {@code FifoQueue}): {@code true} creates
	 * it as one; {@code false} says it is a standard queue.
	 */
	public SettingsChange fifo(boolean fifo) {
		this.fifo = fifo;
		return this;
	}

	/** A FIFO queue's {@code ContentBasedDeduplication}. */
	public SettingsChange contentBasedDeduplication(boolean contentBased) {
		this.contentBasedDeduplication = contentBased;
		return this;
	}

	/** A FIFO queue's {@code DeduplicationScope}. */
	public SettingsChange deduplicationScope(String scope) {
		this.deduplicationScope = scope;
		return this;
	}

	/** A FIFO queue's {@code FifoThroughputLimit}. */
	public SettingsChange throughputLimit(String limit) {
		this.throughputLimit = limit;
		return this;
	}

	/**
	 * A recorded setting (see {@code ExplicitQueues.Own#recorded}) to set, or, empty, to
	 * remove.
	 */
	public SettingsChange recorded(String name, String value) {
		this.recorded.put(name, value);
		return this;
	}

	/** The dead-letter queue by name; {@code null} removes the queue's. */
	public SettingsChange deadLetterQueue(String queue) {
		this.deadLetterQueue = queue;
		this.deadLetterQueueGiven = true;
		return this;
	}

	/**
	 * The change, settings not given left as they are.
	 * @throws InvalidRequestException for {@code maxDeliveries} without a dead-letter
	 * queue, a dead-letter queue without it, or one out of range
	 */
	public QueueSettings.Change change() {
		DeadLetterPolicy policy = null;
		if (this.deadLetterQueueGiven && this.deadLetterQueue == null) {
			if (this.maxDeliveries != null) {
				throw invalid("maxDeliveries needs a deadLetterQueue.");
			}
			policy = QueueSettings.Change.REMOVE;
		}
		else if (this.deadLetterQueueGiven || this.maxDeliveries != null) {
			if (this.deadLetterQueue == null || this.maxDeliveries == null) {
				throw invalid("maxDeliveries and deadLetterQueue come together.");
			}
			policy = new DeadLetterPolicy(this.deadLetterQueue, this.maxDeliveries);
		}
		return new QueueSettings.Change(this.leaseSeconds, this.delaySeconds, this.retentionSeconds, policy,
				this.maxMessageBytes, this.tags, fifoSettings(), this.recorded, null);
	}

	/**
	 * The FIFO settings asked for: {@code null} for a standard queue; settings of a FIFO
	 * queue on a queue said to be standard are refused.
	 */
	private FifoSettings fifoSettings() {
		boolean any = this.contentBasedDeduplication != null || this.deduplicationScope != null
				|| this.throughputLimit != null;
		if (Boolean.FALSE.equals(this.fifo)) {
			if (any) {
				throw new InvalidRequestException("Invalid FIFO settings",
						"ContentBasedDeduplication, DeduplicationScope and FifoThroughputLimit are a FIFO queue's.");
			}
			return null;
		}
		return (any || Boolean.TRUE.equals(this.fifo))
				? new FifoSettings(this.contentBasedDeduplication, this.deduplicationScope, this.throughputLimit)
				: null;
	}

	private static InvalidRequestException invalid(String detail) {
		return new InvalidRequestException("Invalid settings", detail);
	}

}
