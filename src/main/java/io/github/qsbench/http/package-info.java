/**
 * What both faces share: answering filters and their registration, async answers and the
 * count of suspended requests (one way to suspend a long poll), request timers, the
 * header deadline, the error handler and controller, and the parsers of message text,
 * attributes and settings.
 *
 * <p>
 * May import: application, application.messages, application.queues; org.springframework,
 * org.eclipse.jetty, jakarta.servlet, tools.jackson, io.micrometer, io.swagger,
 * org.slf4j.
 */
package io.github.qsbench.http;
