/**
 * FIFO queues: groups delivered in order, deduplication, sequence numbers, receive
 * attempts ({@code FifoQueues}), the groups' order kept in memory or in Redis
 * ({@link io.github.qsbench.application.fifo.FifoGroups}) and, in the same store, the
 * sequences, deduplication window and attempts
 * ({@link io.github.qsbench.application.fifo.FifoState}); what the other rooms call goes
 * through {@link io.github.qsbench.application.fifo.FifoOperations}.
 *
 * <p>
 * May import: application, application.queues, application.fair, core; nothing.
 */
package io.github.qsbench.application.fifo;
