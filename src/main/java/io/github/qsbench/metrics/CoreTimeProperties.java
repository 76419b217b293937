package io.github.qsbench.metrics;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the core-time meter ({@link CoreTimedQueueService}), under
 * {@code qs.metrics.core-time.*}.
 *
 * @param enabled whether every call into the queue core is timed as {@code qs.core}; off,
 * the application layer calls the strategy directly and the meter is not registered (the
 * switch exists to measure what the meter costs)
 */
@ConfigurationProperties("qs.metrics.core-time")
public record CoreTimeProperties(@DefaultValue("true") boolean enabled) {

}
