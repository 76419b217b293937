/**
 * What both faces share: answering filters and their registration, async answers and the
 * count of suspended requests (one way to suspend a long poll), request timers, the
 * header deadline, the error valve and controller, and the parsers of message text,
 * attributes and settings.
 *
 * <p>
 * May import: application, application.messages, application.queues; org.springframework,
 * org.apache.catalina, org.apache.coyote, org.apache.tomcat, jakarta.servlet,
 * tools.jackson, io.micrometer, io.swagger, org.slf4j.
 */
package io.github.qsbench.http;
