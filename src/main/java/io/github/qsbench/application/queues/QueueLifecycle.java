package io.github.qsbench.application.queues;

import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

import io.github.qsbench.application.Checks;
import io.github.qsbench.application.Departures;
import io.github.qsbench.application.Limits;
import io.github.qsbench.application.QueueEvents;
import io.github.qsbench.application.fair.FairQueues;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.Lease;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.QueueStats;

/**
 * Queues as wholes: which exist (created explicitly, or holding messages), their counts,
 * and their emptying (purge) and deletion. Thread safe; what races a purge is described
 * at {@link QueueOperations#purge}.
 */
final class QueueLifecycle {

	private final QueueServiceCore core;

	private final ExplicitQueues explicit;

	private final QueueEvents events;

	/** The FIFO queues' groups, which follow what a purge removes. */
	private final FifoOrder fifo;

	/** The fair queues' groups, which follow what a purge removes. */
	private final FairQueues fair;

	/** Both, told of what a purge removes. */
	private final Departures departures;

	QueueLifecycle(QueueServiceCore core, ExplicitQueues explicit, QueueEvents events, FifoOrder fifo, FairQueues fair,
			Departures departures) {
		this.core = core;
		this.fair = fair;
		this.departures = departures;
		this.fifo = fifo;
		this.explicit = explicit;
		this.events = events;
	}

	/** See {@link QueueOperations#purge}. */
	int purge(String queue) {
		Checks.queueName(queue);
		long before = this.core.lastId();
		Sweep removed = new Sweep(this.core, this.departures);
		do {
			List<Lease> leased;
			drain: while (!(leased = this.core.lease(queue, Limits.MAX_BATCH)).isEmpty()) {
				// one call for the batch: one round trip on a store across the network
				long[] ids = new long[leased.size()];
				int[] deliveries = new int[leased.size()];
				for (int i = 0; i < ids.length; i++) {
					ids[i] = leased.get(i).message().id();
					deliveries[i] = leased.get(i).delivery();
				}
				List<Completion> completions = this.core.completeAll(queue, ids, deliveries);
				for (int i = 0; i < ids.length; i++) {
					if (completions.get(i) == Completion.COMPLETED) {
						this.departures.left(queue, ids[i]);
						if (deliveries[i] == 1) {
							removed.ready++;
						}
						else {
							removed.inFlight++;
						}
					}
				}
				for (Lease lease : leased) {
					if (lease.message().id() > before) {
						break drain; // reached messages pushed since the purge began
					}
				}
			}
		}
		while (removed.discardHead(queue, before));
		this.events.purged(removed.ready, removed.inFlight, removed.delayed);
		return removed.total();
	}

	/** See {@link QueueOperations#deleteQueue}. */
	boolean deleteQueue(String queue) {
		Checks.queueName(queue);
		boolean existed = this.explicit.remove(queue) | this.core.queue(queue).isPresent();
		purge(queue);
		this.fifo.forget(queue);
		this.fair.forget(queue);
		return existed;
	}

	/** See {@link QueueOperations#isExplicit}. */
	boolean isExplicit(String queue) {
		Checks.queueName(queue);
		return this.explicit.contains(queue);
	}

	/** See {@link QueueOperations#exists}. */
	boolean exists(String queue) {
		Checks.queueName(queue);
		return this.explicit.contains(queue) || this.core.queue(queue).isPresent();
	}

	/** See {@link QueueOperations#queues}. */
	List<QueueStats> queues() {
		TreeMap<String, QueueStats> queues = new TreeMap<>();
		for (String name : this.explicit.names()) {
			queues.put(name, new QueueStats(name, 0, 0));
		}
		for (QueueStats stats : this.core.queues()) {
			queues.put(stats.name(), this.fair.stats(stats));
		}
		return List.copyOf(queues.values());
	}

	/** See {@link QueueOperations#queue}. */
	Optional<QueueStats> queue(String name) {
		Checks.queueName(name);
		return this.core.queue(name).map(this.fair::stats);
	}

}
