/**
 * The wiring: the strategy a profile chose, the typed qs.* properties, the beans that
 * assemble core, store, application and meters, and the start-up failure analyses.
 *
 * <p>
 * May import: core, core.strategy, application, application.messages, application.queues,
 * application.fifo, application.fair, application.stores, metrics, redis;
 * org.springframework, io.micrometer, org.slf4j.
 */
package io.github.qsbench.config;
