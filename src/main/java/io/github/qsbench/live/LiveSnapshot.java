package io.github.qsbench.live;

/**
 * One second of the service as the live page charts it, pushed to every open page. Each
 * quantity is named after the Prometheus series it is computed from, so the page and the
 * Grafana dashboard show the same numbers under the same names, and is {@code null} when
 * it cannot be computed for that second or its meter does not exist. Each field and its
 * series: docs/design/live-snapshot.md.
 */
public record LiveSnapshot(long time, String strategy, String jvm, String threads, Double pushedPerSecond,
		Double deliveredPerSecond, Double completedPerSecond, Double refusedPerSecond, Double requestsPerSecond,
		Double latencyP50Seconds, Double latencyP95Seconds, Double latencyP99Seconds, boolean coreMeasured,
		Double coreShare, Double coreMicrosPerMessage, boolean contentionMeasured, Double contentionSecondsPerSecond,
		Double ready, Double inflight, Double processCpuUsage, Double gcPauseSecondsPerSecond) {

}
