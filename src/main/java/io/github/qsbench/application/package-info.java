/**
 * The application layer, which every adapter calls, in rooms by concern: the message path
 * ({@code messages}: push, lease, long polls, completion), queues as wholes
 * ({@code queues}: settings, listing, purge, deletion, retention, dead letters and their
 * redrive and move tasks), FIFO queues ({@code fifo}), fair queues ({@code fair}) and
 * where one service keeps all of it ({@code stores}: in process or in Redis). This folder
 * holds what they all share: a message as sent, stored and received
 * ({@link io.github.qsbench.application.OutgoingMessage},
 * {@link io.github.qsbench.application.StoredMessage},
 * {@link io.github.qsbench.application.Received}), queue names, lease tokens, the checks
 * and limits both faces read, the refusal
 * ({@link io.github.qsbench.application.InvalidRequestException}), what the layer reports
 * ({@link io.github.qsbench.application.QueueEvents}) and the counts a store keeps for
 * the gauges ({@link io.github.qsbench.application.StoreGauges}). It never calls metrics,
 * configuration or an adapter.
 *
 * <p>
 * May import: core; nothing.
 */
package io.github.qsbench.application;
