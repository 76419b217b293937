package io.github.qsbench.metrics;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the core-contention meter ({@link ContentionMetrics}), under
 * {@code qs.metrics.contention.*}.
 *
 * @param enabled whether the service streams JFR lock events to count
 * {@code qs.contention}; off, no JFR recording is started and the meter is not registered
 * at all (no data rather than a misleading 0)
 * @param stackTraces whether the lock events carry a stack trace, so that a wait is
 * counted only when the lock was taken directly by core code; without them a wait counts
 * when the lock is a core monitor or a read-write lock and the thread is a request thread
 * (cheaper, but blind to {@code ConcurrentHashMap} bin locks and to
 * {@code ReentrantLock}, which Jetty also uses on its request threads). On virtual
 * threads the traced parks ({@code jdk.MethodTrace}) carry a stack either way: it is what
 * names their lock
 */
@ConfigurationProperties("qs.metrics.contention")
public record ContentionProperties(@DefaultValue("true") boolean enabled, @DefaultValue("true") boolean stackTraces) {

}
