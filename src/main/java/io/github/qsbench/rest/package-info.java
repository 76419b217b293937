/**
 * The REST adapter: the hot routes (push, poll, long poll and completion) implemented
 * once with their route table, the Jetty core handler that serves them for plain requests
 * on the thread that read them, the Spring MVC controllers (which serve them too, and the
 * rest), their answers and problems, and the OpenAPI description.
 *
 * <p>
 * May import: application, application.messages, application.queues, core, http,
 * security; org.springframework, org.springdoc, org.eclipse.jetty, jakarta.servlet,
 * tools.jackson, com.fasterxml.jackson.annotation, io.micrometer, io.swagger, org.slf4j.
 */
package io.github.qsbench.rest;
