/**
 * Fair queues: standard queues whose messages carry a group (a tenant), quiet groups'
 * messages delivered first ({@link io.github.qsbench.application.fair.FairQueues}); the
 * groups kept in memory or, for the redis strategy, in Redis
 * ({@link io.github.qsbench.application.fair.FairGroups}).
 *
 * <p>
 * May import: application, core; nothing.
 */
package io.github.qsbench.application.fair;
