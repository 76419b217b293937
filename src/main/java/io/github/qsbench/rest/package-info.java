/**
 * The REST adapter: the fast path (a filter for plain push, poll, long poll and
 * completion), the Spring MVC controllers for the rest, their answers and problems, and
 * the OpenAPI description.
 *
 * <p>
 * May import: application, application.messages, application.queues, core, http,
 * security; org.springframework, org.springdoc, jakarta.servlet, tools.jackson,
 * com.fasterxml.jackson.annotation, io.micrometer, io.swagger.
 */
package io.github.qsbench.rest;
