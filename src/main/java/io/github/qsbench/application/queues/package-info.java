/**
 * Queues as wholes: the queues created explicitly and their own settings
 * ({@link io.github.qsbench.application.queues.ExplicitQueues}, in memory or in Redis),
 * read with the service's defaults and changed within SQS's ranges
 * ({@link io.github.qsbench.application.queues.Settings}), their tags and FIFO settings.
 *
 * <p>
 * May import: application, core; nothing.
 */
package io.github.qsbench.application.queues;
