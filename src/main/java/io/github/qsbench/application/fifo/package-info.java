/**
 * FIFO queues: groups delivered in order, deduplication, sequence numbers, receive
 * attempts ({@code FifoQueues}), the groups' order kept in memory or in Redis
 * ({@link io.github.qsbench.application.fifo.FifoGroups}) and, in the same store, the
 * sequences, deduplication window and attempts
 * ({@link io.github.qsbench.application.fifo.FifoState}), and, where instances share the
 * store, the sends in progress ({@link io.github.qsbench.application.fifo.FifoSends}),
 * which {@link io.github.qsbench.application.fifo.FifoSettlement} settles when an
 * instance's death cut one; what the other rooms call goes through
 * {@link io.github.qsbench.application.fifo.FifoOperations}.
 *
 * <p>
 * May import: application, application.queues, application.fair, core; org.slf4j,
 * org.springframework.context.
 */
package io.github.qsbench.application.fifo;
