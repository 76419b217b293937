package io.github.qsbench.application.queues;

import java.util.List;
import java.util.Optional;
import java.util.SortedSet;

import io.github.qsbench.application.Checks;
import io.github.qsbench.application.Departures;
import io.github.qsbench.application.InvalidRequestException;
import io.github.qsbench.application.QueueEvents;
import io.github.qsbench.application.QueueNames;
import io.github.qsbench.application.QuietCounts;
import io.github.qsbench.application.fair.FairQueues;
import io.github.qsbench.core.CapacityExceededException;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.QueueStats;

/**
 * What the service does with queues as wholes, for every way in: their settings
 * ({@link Settings}), which exist and their counts, purge and deletion
 * ({@link QueueLifecycle}), and the redrive of dead-letter queues ({@link DeadLetters}).
 * What is done with one message is the message path's
 * ({@code messages.MessageOperations}). Refusals are exceptions an adapter answers in its
 * protocol, as the message path's are.
 */
public class QueueOperations {

	private final Settings settings;

	private final DeadLetters deadLetters;

	private final QueueLifecycle queues;

	private final FairQueues fair;

	/** What follows a message leaving a queue: its FIFO or fair-queue group. */
	private final Departures departures;

	/**
	 * @param core the core this layer calls (the strategy, or a decorator of it)
	 * @param explicit the queues created explicitly, which exist while empty
	 * @param settings the queues' settings, kept in {@code explicit}
	 * @param deadLetters where dead letters are moved, and redriven from
	 * @param fifo the FIFO queues' groups, which follow what leaves a FIFO queue
	 * @param fair the fair queues' groups, which follow what leaves a standard queue
	 */
	public QueueOperations(QueueServiceCore core, ExplicitQueues explicit, QueueEvents events, Settings settings,
			DeadLetters deadLetters, FifoOrder fifo, FairQueues fair) {
		this.settings = settings;
		this.deadLetters = deadLetters;
		this.fair = fair;
		this.departures = Departures.byKind(fifo, fair);
		this.queues = new QueueLifecycle(core, explicit, events, fifo, fair, this.departures);
	}

	/**
	 * The queue's settings: its lease (its own, or the service's), its delay (its own, or
	 * none), its retention (or none), its dead-letter policy.
	 */
	public QueueSettings settings(String queue) {
		return this.settings.settings(queue);
	}

	/**
	 * Creates the queue explicitly (it stays until deleted) or changes its settings (its
	 * own lease, delay, retention, dead-letter policy, largest message and tags); fields
	 * left out keep their value.
	 * @return whether this call created it
	 * @throws InvalidRequestException for a setting out of SQS's range or not supported,
	 * a dead-letter queue that does not exist, or is the queue itself, tags SQS refuses
	 * or more than {@value QueueTags#MAX_TAGS} of them
	 * @throws CapacityExceededException if it did not exist and no more queues may be
	 * created ({@code qs.limits.max-queues}, in-process strategies)
	 */
	public boolean configure(String queue, QueueSettings.Change change) {
		return this.settings.configure(queue, change);
	}

	/** The queues whose dead-letter queue this is, by name. */
	public SortedSet<String> deadLetterSources(String queue) {
		return this.settings.deadLetterSources(queue);
	}

	/**
	 * Moves up to {@code max} messages from a dead-letter queue back to the queue each
	 * came from, or all to {@code to}: each as it was there (body and attributes), as a
	 * new message that has not been delivered. Each leaves the dead-letter queue once, by
	 * the completion of the lease this call took; only messages held when it began move,
	 * so it ends even if what it moves comes back (to this queue itself, or a source that
	 * dead-letters to it at once).
	 * @return how many moved
	 */
	public int redrive(String queue, String to, int max) {
		return this.deadLetters.redrive(queue, to, max);
	}

	/** Where messages are moved, for the move tasks that share it. */
	DeadLetters deadLetters() {
		return this.deadLetters;
	}

	/**
	 * Removes every message the queue held when the call began, ready, in flight or
	 * delayed, as SQS's {@code PurgeQueue} does: messages pushed while it runs may go
	 * too. Written once for every strategy, with what each offers: it leases the ready
	 * messages and completes them, then discards by id the ones a browse finds (in
	 * flight, delayed). So each message leaves exactly once, by the strategy's own
	 * completion or discard, whether a consumer completes it at the same moment or not; a
	 * consumer holding a purged message then gets {@link Completion#NOT_FOUND}.
	 * @return how many messages it removed
	 */
	public int purge(String queue) {
		return this.queues.purge(queue);
	}

	/**
	 * Deletes the queue: forgets that it was created explicitly, then purges it, so that
	 * the core removes it once empty (and its leases with it: a consumer holding one of
	 * its messages gets {@link Completion#NOT_FOUND}).
	 * @return whether it existed (created explicitly, or holding messages)
	 */
	public boolean deleteQueue(String queue) {
		return this.queues.deleteQueue(queue);
	}

	/** Whether the queue was created explicitly (it stays until deleted). */
	public boolean isExplicit(String queue) {
		return this.queues.isExplicit(queue);
	}

	/** Whether the queue was created explicitly or holds messages now. */
	public boolean exists(String queue) {
		return this.queues.exists(queue);
	}

	/**
	 * Every queue that exists, by name, with its counts: those created explicitly, empty
	 * or not, and those holding messages. What both faces list.
	 */
	public List<QueueStats> queues() {
		return this.queues.queues();
	}

	/**
	 * The queue's counts, or nothing if it holds no message now (a queue created
	 * explicitly may still exist: {@link #isExplicit}).
	 */
	public Optional<QueueStats> queue(String name) {
		return this.queues.queue(name);
	}

	/**
	 * Whether this instance knows the standard queue to have message groups (a fair
	 * queue).
	 */
	public boolean hasGroups(String queue) {
		Checks.queueName(queue);
		return !QueueNames.isFifo(queue) && this.fair.tracks(queue);
	}

	/**
	 * SQS's fair-queue counts of a standard queue: of its messages in quiet groups (a
	 * message without a group is a tenant of its own, never noisy).
	 */
	public QuietCounts quietCounts(String queue) {
		Checks.queueName(queue);
		return this.fair.quietCounts(queue);
	}

	/**
	 * What a retention sweep tells of the messages it removes, so that a FIFO queue's
	 * groups, or a fair queue's, follow.
	 */
	public Departures departures() {
		return this.departures;
	}

}
