/**
 * The application layer, which every adapter calls: the message path (QueueOperations),
 * settings, dead letters, redrive and move tasks, purge and deletion, retention, long
 * polls, and the limits both faces read. It reports what happened through QueueEvents and
 * never calls metrics, configuration or an adapter. Spring Boot's web server is named
 * once: the long polls stop just after its graceful shutdown begins.
 *
 * <p>
 * May import: core, application.queues; org.slf4j, org.springframework.beans,
 * org.springframework.context, org.springframework.scheduling,
 * org.springframework.boot.web.server.context.
 */
package io.github.qsbench.application;
