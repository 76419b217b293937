/**
 * The message path, behind
 * {@link io.github.qsbench.application.messages.MessageOperations}: push, lease at once
 * or as a long poll ({@code awaitLease}), lease changes, completion, peek, with
 * {@link io.github.qsbench.application.messages.AsyncMessageOperations} for a caller that
 * must not wait for the store; and the long polls waiting for a message
 * ({@link io.github.qsbench.application.messages.LongPolls}), which stop just after the
 * web server's graceful shutdown begins.
 *
 * <p>
 * May import: application, application.queues, application.fifo, application.fair, core;
 * org.slf4j, org.springframework.context, org.springframework.boot.web.server.context.
 */
package io.github.qsbench.application.messages;
