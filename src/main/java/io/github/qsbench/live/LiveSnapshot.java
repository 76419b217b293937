package io.github.qsbench.live;

/**
 * One second of the service as the live page charts it, pushed to every open page. Each
 * quantity is named after the Prometheus series it is computed from, so the page and the
 * Grafana dashboard show the same numbers under the same names. A quantity is
 * {@code null} when it cannot be computed for that second (no request finished, no
 * message completed) or when its meter does not exist (see {@code coreMeasured} and
 * {@code contentionMeasured}).
 *
 * @param time end of the second, epoch milliseconds
 * @param strategy the strategy profile the service runs
 * @param jvm {@code java.vm.name} and {@code java.version}
 * @param threads {@code virtual} or {@code platform} request threads
 * @param pushedPerSecond {@code rate(qs_messages_pushed_total)}
 * @param deliveredPerSecond {@code rate(qs_messages_delivered_total)}, both
 * {@code redelivery} tags
 * @param completedPerSecond {@code rate(qs_messages_completed_total)}
 * @param refusedPerSecond {@code rate(qs_pushes_refused_total)}, every {@code limit}: the
 * 429s
 * @param requestsPerSecond
 * {@code rate(http_server_requests_seconds_count{uri=~"/queues.*"})}
 * @param latencyP50Seconds {@code histogram_quantile(0.5,
 * rate(http_server_requests_seconds_bucket{uri=~"/queues.*"}))}
 * @param latencyP95Seconds the same at 0.95
 * @param latencyP99Seconds the same at 0.99
 * @param coreMeasured whether {@code qs_core_seconds_total} exists
 * @param coreShare {@code rate(qs_core_seconds_total) /
 * rate(http_server_requests_seconds_sum{uri=~"/queues.*"})}
 * @param coreMicrosPerMessage
 * {@code rate(qs_core_seconds_total) / rate(qs_messages_completed_total)} in microseconds
 * @param contentionMeasured whether {@code qs_contention_seconds_total} exists
 * @param contentionSecondsPerSecond {@code rate(qs_contention_seconds_total)}
 * @param ready {@code qs_messages_ready}
 * @param inflight {@code qs_messages_inflight}
 * @param processCpuUsage {@code process_cpu_usage}, 0 to 1 of all processors
 * @param gcPauseSecondsPerSecond {@code rate(jvm_gc_pause_seconds_sum)}
 */
public record LiveSnapshot(long time, String strategy, String jvm, String threads, Double pushedPerSecond,
		Double deliveredPerSecond, Double completedPerSecond, Double refusedPerSecond, Double requestsPerSecond,
		Double latencyP50Seconds, Double latencyP95Seconds, Double latencyP99Seconds, boolean coreMeasured,
		Double coreShare, Double coreMicrosPerMessage, boolean contentionMeasured, Double contentionSecondsPerSecond,
		Double ready, Double inflight, Double processCpuUsage, Double gcPauseSecondsPerSecond) {

}
