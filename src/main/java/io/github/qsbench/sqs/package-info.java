/**
 * The SQS adapter: the AWS JSON 1.0 envelope (SqsFace), the query protocol's envelope
 * onto the same actions (QueryProtocol, translating by SQS's model of it), and one small
 * handler per family of actions, registered by action name in SqsActions.
 *
 * <p>
 * May import: application, application.messages, application.queues, core, http,
 * security; org.springframework, org.eclipse.jetty, jakarta.servlet, tools.jackson,
 * io.micrometer, org.slf4j.
 */
package io.github.qsbench.sqs;
