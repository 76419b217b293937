/**
 * The application layer, which every adapter calls: the message path (QueueOperations), settings, dead letters and redrive, purge and deletion, retention, long polls, and the limits both faces read. It reports what happened through QueueEvents and never calls metrics, configuration or an adapter.
 *
 * <p>
 * May import: core; org.slf4j, org.springframework.beans, org.springframework.context, org.springframework.scheduling.
 */
package io.github.qsbench.application;
