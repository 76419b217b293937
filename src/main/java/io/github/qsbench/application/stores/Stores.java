package io.github.qsbench.application.stores;

import io.github.qsbench.application.StoreGauges;
import io.github.qsbench.application.fifo.FifoGroups;
import io.github.qsbench.application.fifo.InMemoryFifoGroups;
import io.github.qsbench.application.queues.ExplicitQueues;
import io.github.qsbench.application.queues.InMemoryExplicitQueues;
import io.github.qsbench.application.queues.InMemoryMoveTasks;
import io.github.qsbench.application.queues.MoveTaskStore;
import io.github.qsbench.core.QueueServiceCore;

/**
 * Where one service keeps everything: the core (its messages) and, beside it, what the
 * application layer keeps (explicit queues and their settings, FIFO groups with their
 * sequences and deduplication window, fair-queue groups, message move tasks). Chosen
 * once, by the configuration: all in this process ({@link #inProcess}), or all in Redis
 * (the redis strategy's store), so that every instance on it shares all of it.
 */
public interface Stores {

	/** The strategy: the core the application layer calls. */
	QueueServiceCore core();

	/** The explicit queues; the caller closes them if they are {@link AutoCloseable}. */
	ExplicitQueues explicitQueues();

	/**
	 * The FIFO groups, and through them the fair-queue groups ({@link FifoGroups#fair})
	 * and the FIFO queues' state ({@link FifoGroups#state}).
	 */
	FifoGroups fifoGroups();

	/** The message move tasks. */
	MoveTaskStore moveTasks();

	/**
	 * What the service's gauges read: the core's own counts in process (lock-free reads);
	 * for Redis a snapshot its store keeps current, so that a scrape runs no script per
	 * queue and writes nothing.
	 */
	StoreGauges gauges();

	/** Everything in this process's memory, beside an in-process strategy. */
	static Stores inProcess(QueueServiceCore core) {
		return new Of(core, new InMemoryExplicitQueues(core), new InMemoryFifoGroups(), new InMemoryMoveTasks(),
				StoreGauges.of(core));
	}

	/** The stores as given. */
	record Of(QueueServiceCore core, ExplicitQueues explicitQueues, FifoGroups fifoGroups, MoveTaskStore moveTasks,
			StoreGauges gauges) implements Stores {
	}

}
