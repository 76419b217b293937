package io.github.qsbench.application.queues;

import java.time.Duration;
import java.time.InstantSource;
import java.util.SortedSet;
import java.util.concurrent.TimeUnit;

import io.github.qsbench.application.Checks;
import io.github.qsbench.application.InvalidRequestException;
import io.github.qsbench.application.Limits;
import io.github.qsbench.application.QueueNames;
import io.github.qsbench.core.CapacityExceededException;

/**
 * The queues' own settings, kept in {@link ExplicitQueues}: read with the service's
 * defaults filled in, changed within SQS's ranges, and resolved for one push or lease
 * (what the request asked for, else the queue's own, else the service's). Thread safe as
 * its store is.
 */
public final class Settings {

	private final ExplicitQueues explicit;

	/** The lease of a queue without one of its own, {@code qs.lease-timeout}. */
	private final long leaseSeconds;

	/**
	 * The largest message of a queue without one of its own, {@code qs.max-message-size}.
	 */
	private final int maxMessageBytes;

	/** Stamps each change: a queue's creation and modified times. */
	private final InstantSource clock;

	/**
	 * @param leaseTimeout the lease of a queue without one of its own, as the core was
	 * built with it
	 * @param maxMessageBytes the largest message of a queue without one of its own, and
	 * the most a queue's own may be
	 * @param clock stamps each change
	 */
	public Settings(ExplicitQueues explicit, Duration leaseTimeout, int maxMessageBytes, InstantSource clock) {
		this.explicit = explicit;
		this.clock = clock;
		this.leaseSeconds = leaseTimeout.toSeconds();
		this.maxMessageBytes = maxMessageBytes;
	}

	/**
	 * The most bytes a message pushed to the queue may carry, body and attributes as SQS
	 * counts them: the queue's own {@code maxMessageBytes}, else the service's
	 * {@code qs.max-message-size}; answered from memory (the queue's cached settings).
	 */
	public int maxMessageBytes(String queue) {
		Checks.queueName(queue);
		ExplicitQueues.Own own = this.explicit.own(queue);
		return (own != null && own.maxMessageBytes() != null) ? own.maxMessageBytes() : this.maxMessageBytes;
	}

	/**
	 * Whether the queue's settings are in memory ({@link ExplicitQueues#inMemory}) and
	 * ask for nothing beyond a plain push and lease: no delay and no dead-letter queue.
	 */
	public boolean plainInMemory(String queue) {
		if (!this.explicit.inMemory(queue)) {
			return false;
		}
		ExplicitQueues.Own own = this.explicit.own(queue);
		return own == null || (own.deadLetters() == null && (own.delaySeconds() == null || own.delaySeconds() == 0));
	}

	/** The delay asked for (checked), else the queue's own, else none. */
	public int delaySeconds(String queue, Integer delaySeconds) {
		if (delaySeconds != null) {
			return Checks.delaySeconds(delaySeconds);
		}
		Integer own = this.explicit.delaySeconds(queue);
		return (own != null) ? own : 0;
	}

	/** The lease asked for (checked), else the queue's own, else the service's. */
	public long leaseMillis(String queue, Integer leaseSeconds) {
		if (leaseSeconds != null) {
			return TimeUnit.SECONDS.toMillis(Checks.leaseSeconds(leaseSeconds));
		}
		Long own = this.explicit.leaseSeconds(queue);
		return TimeUnit.SECONDS.toMillis((own != null) ? own : this.leaseSeconds);
	}

	/** See {@link QueueOperations#settings}. */
	public QueueSettings settings(String queue) {
		Checks.queueName(queue);
		ExplicitQueues.Own own = this.explicit.own(queue);
		if (own == null) {
			own = ExplicitQueues.Own.NONE;
		}
		return new QueueSettings((own.leaseSeconds() != null) ? own.leaseSeconds() : this.leaseSeconds,
				(own.delaySeconds() != null) ? own.delaySeconds() : 0, own.retentionSeconds(), own.deadLetters(),
				(own.maxMessageBytes() != null) ? own.maxMessageBytes() : this.maxMessageBytes, own.tags(), own.fifo(),
				own.recorded(), own.createdSeconds(), own.modifiedSeconds());
	}

	/**
	 * See {@link QueueOperations#configure}: a queue's own largest message is
	 * {@link Limits#MIN_MESSAGE_BYTES} to the service's; its tags are checked as
	 * {@link QueueTags} says, their count by the store, atomically with the change.
	 * @throws CapacityExceededException if the queue did not exist and no more may be
	 * created
	 */
	public boolean configure(String queue, QueueSettings.Change change) {
		Checks.queueName(queue);
		if (change.leaseSeconds() != null) {
			Checks.leaseSeconds(change.leaseSeconds());
		}
		if (change.delaySeconds() != null) {
			Checks.delaySeconds(change.delaySeconds());
		}
		if (change.retentionSeconds() != null && (change.retentionSeconds() < Limits.MIN_RETENTION_SECONDS
				|| change.retentionSeconds() > Limits.MAX_RETENTION_SECONDS)) {
			throw InvalidRequestException.outOfRange("retentionSeconds", Limits.MIN_RETENTION_SECONDS,
					Limits.MAX_RETENTION_SECONDS);
		}
		checkFifo(queue, change);
		if (change.maxMessageBytes() != null && (change.maxMessageBytes() < Limits.MIN_MESSAGE_BYTES
				|| change.maxMessageBytes() > this.maxMessageBytes)) {
			throw InvalidRequestException.outOfRange("maxMessageBytes", Limits.MIN_MESSAGE_BYTES, this.maxMessageBytes);
		}
		DeadLetterPolicy policy = change.deadLetters();
		if (policy != null && policy != QueueSettings.Change.REMOVE) {
			Checks.queueName(policy.queue());
			if (QueueNames.isFifo(policy.queue()) != QueueNames.isFifo(queue)) {
				throw new InvalidRequestException("Invalid dead-letter queue",
						"A FIFO queue's dead-letter queue is a FIFO queue, and a standard queue's a standard one.");
			}
			if (policy.queue().equals(queue)) {
				throw new InvalidRequestException("Invalid dead-letter queue",
						"A queue cannot be its own dead-letter queue.");
			}
			if (!this.explicit.contains(policy.queue())) {
				throw new InvalidRequestException("Invalid dead-letter queue", "Dead-letter queue '" + policy.queue()
						+ "' does not exist: create it first (PUT /queues/" + policy.queue() + ").");
			}
		}
		return this.explicit.configure(queue, change.at(this.clock.millis() / 1000));
	}

	/**
	 * A queue whose name ends {@value QueueNames#FIFO_SUFFIX} is created as a FIFO queue,
	 * and no other queue has FIFO settings.
	 */
	private void checkFifo(String queue, QueueSettings.Change change) {
		if (!QueueNames.isFifo(queue)) {
			if (change.fifo() != null) {
				throw new InvalidRequestException("Not a FIFO queue",
						"Only a queue whose name ends " + QueueNames.FIFO_SUFFIX + " is a FIFO queue.");
			}
		}
		else if (change.fifo() == null && !this.explicit.contains(queue)) {
			throw new InvalidRequestException("FIFO queue not created as one",
					"A queue whose name ends " + QueueNames.FIFO_SUFFIX + " is a FIFO queue: create it as one.");
		}
		else if (change.fifo() != null) {
			ExplicitQueues.Own own = this.explicit.own(queue);
			((own != null && own.fifo() != null) ? own.fifo() : FifoSettings.DEFAULTS).with(change.fifo());
		}
	}

	/** The FIFO settings of a FIFO queue, {@code null} if it was not created. */
	public FifoSettings fifo(String queue) {
		ExplicitQueues.Own own = this.explicit.own(queue);
		return (own != null) ? own.fifo() : null;
	}

	/** See {@link QueueOperations#deadLetterSources}. */
	public SortedSet<String> deadLetterSources(String queue) {
		Checks.queueName(queue);
		return this.explicit.sources(queue);
	}

}
