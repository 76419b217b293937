/**
 * Where one service keeps its state, chosen once by the configuration:
 * {@link io.github.qsbench.application.stores.Stores} hands out the core, the explicit
 * queues, the FIFO groups (with the fair groups and the FIFO queues' sequences,
 * deduplication window and receive attempts), the message move tasks and the gauges'
 * counts, all in this process or all in Redis.
 *
 * <p>
 * May import: application, application.fair, application.queues, application.fifo, core;
 * nothing.
 */
package io.github.qsbench.application.stores;
