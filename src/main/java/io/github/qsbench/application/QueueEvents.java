package io.github.qsbench.application;

import java.util.List;
import java.util.function.Supplier;

import io.github.qsbench.core.Capacity;
import io.github.qsbench.core.Lease;

/**
 * What the application layer reports as it happens, for an observer such as the service's
 * meters: the layer calls one method per event, after the core answered, on the thread
 * that made the call; it never waits for the observer. An implementation must be thread
 * safe and cheap (it runs on the request path) and must not call back into the
 * application.
 */
public interface QueueEvents {

	/** Messages accepted by one push or batch push. */
	void pushed(int messages);

	/** A push or batch push refused because a cap was reached; nothing was pushed. */
	void refused(Capacity.Limit limit);

	/**
	 * The messages one poll delivered, a first delivery or again by each's
	 * {@link Lease#delivery()}; never empty.
	 */
	void delivered(List<Lease> leases);

	/** A poll that found nothing; a long poll counts once, when its wait ends. */
	void emptyPoll();

	/** Messages completed by one completion or completion batch. */
	void completed(int messages);

	/**
	 * Messages one purge (or a queue's deletion) removed: {@code ready} never delivered,
	 * {@code inFlight} delivered at least once, {@code delayed} pushed with a delay that
	 * had not passed.
	 */
	void purged(int ready, int inFlight, int delayed);

	/** Messages one retention sweep dropped, by the state they were in, as a purge. */
	void expired(int ready, int inFlight, int delayed);

	/** A message due for its dead-letter queue, and what became of it. */
	void deadLettered(DeadLetterOutcome outcome);

	/**
	 * Messages one redrive, or one step of the move tasks, moved out of dead-letter
	 * queues.
	 */
	void redriven(int messages);

	/**
	 * A standard queue was seen with message groups (a fair queue): {@code counts} reads
	 * its fair-queue counts, until {@link #fairQueueGone}.
	 */
	default void fairQueue(String queue, Supplier<QuietCounts> counts) {
	}

	/** A fair queue was deleted. */
	default void fairQueueGone(String queue) {
	}

	/** What became of a message due for its dead-letter queue. */
	enum DeadLetterOutcome {

		MOVED,

		/** A cap refused it in the dead-letter queue: it stays in its queue. */
		REFUSED

	}

}
