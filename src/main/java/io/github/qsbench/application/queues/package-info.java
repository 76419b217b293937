/**
 * Queues as wholes, behind {@link io.github.qsbench.application.queues.QueueOperations}:
 * the queues created explicitly and their own settings
 * ({@link io.github.qsbench.application.queues.ExplicitQueues}, in memory or in Redis),
 * read with the service's defaults
 * ({@link io.github.qsbench.application.queues.Settings}), which exist and their counts,
 * purge and deletion, retention sweeps, and dead letters: moved when a poll finds them,
 * redriven at once or by message move tasks, kept in memory or in Redis
 * ({@link io.github.qsbench.application.queues.MoveTaskStore}). It reaches the FIFO
 * queues' groups only through {@link io.github.qsbench.application.queues.FifoOrder}.
 * Background work (retention sweeps, move-task steps, the FIFO settlement) runs as a
 * {@link io.github.qsbench.application.queues.PeriodicPass}.
 *
 * <p>
 * May import: application, application.fair, core; org.slf4j, org.springframework.beans,
 * org.springframework.context, org.springframework.scheduling,
 * org.springframework.boot.web.server.context.
 */
package io.github.qsbench.application.queues;
