/**
 * The qs_* meters: QueueMetrics observes the application (a QueueEvents listener),
 * CoreTimedQueueService times the calls into the core (wired by config beside the
 * application), and the contention meter reads JFR.
 *
 * <p>
 * May import: application, core, core.strategy; io.micrometer, org.springframework,
 * org.slf4j.
 */
package io.github.qsbench.metrics;
