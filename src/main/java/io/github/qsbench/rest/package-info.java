/**
 * The REST adapter: the hot routes (push, poll, long poll and completion) implemented
 * once with their route table, the fast path (a filter that serves them for plain
 * requests), the Spring MVC controllers (which serve them too, and the rest), their
 * answers and problems, and the OpenAPI description.
 *
 * <p>
 * May import: application, application.messages, application.queues, core, http,
 * security; org.springframework, org.springdoc, jakarta.servlet, tools.jackson,
 * com.fasterxml.jackson.annotation, io.micrometer, io.swagger.
 */
package io.github.qsbench.rest;
