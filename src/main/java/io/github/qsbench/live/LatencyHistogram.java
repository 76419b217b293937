package io.github.qsbench.live;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;

/**
 * The {@code http.server.requests} timers of the queue API added into one histogram at
 * one moment, and the quantiles of what happened between two such moments, computed as
 * Prometheus's {@code histogram_quantile} over a {@code rate} of the bucket series does:
 * so the page's p99 is the dashboard's p99. Bucket counts are taken as cumulative (each
 * bucket counts the requests at or under its bound) and as counted since start, as the
 * Prometheus registry keeps them.
 */
final class LatencyHistogram {

	/** Cumulative count by upper bound in seconds, without the +Inf bucket. */
	private final TreeMap<Double, Double> buckets = new TreeMap<>();

	private double count;

	private double totalSeconds;

	void add(Timer timer) {
		HistogramSnapshot snapshot = timer.takeSnapshot();
		this.count += snapshot.count();
		this.totalSeconds += snapshot.total(TimeUnit.SECONDS);
		for (CountAtBucket bucket : snapshot.histogramCounts()) {
			this.buckets.merge(bucket.bucket(TimeUnit.SECONDS), bucket.count(), Double::sum);
		}
	}

	double count() {
		return this.count;
	}

	double totalSeconds() {
		return this.totalSeconds;
	}

	/**
	 * The {@code q} quantile, in seconds, of the requests recorded since {@code earlier},
	 * or {@code null} when none was. Interpolates linearly inside the bucket the rank
	 * falls in (from 0 for the first); a rank in the +Inf bucket answers the highest
	 * finite bound, as Prometheus does.
	 */
	Double quantileSince(LatencyHistogram earlier, double q) {
		double total = this.count - earlier.count;
		if (total <= 0) {
			return null;
		}
		double rank = q * total;
		double lowerBound = 0;
		double below = 0;
		for (Map.Entry<Double, Double> bucket : this.buckets.entrySet()) {
			double upperBound = bucket.getKey();
			double cumulative = Math.max(below, bucket.getValue() - earlier.buckets.getOrDefault(upperBound, 0.0));
			if (cumulative >= rank) {
				if (cumulative == below) {
					return upperBound;
				}
				return lowerBound + (upperBound - lowerBound) * (rank - below) / (cumulative - below);
			}
			lowerBound = upperBound;
			below = cumulative;
		}
		return this.buckets.isEmpty() ? null : lowerBound;
	}

}
