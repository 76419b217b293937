package io.github.qsbench.jmh.report;

import java.util.Arrays;
import java.util.List;

/**
 * One score with the columns of the thesis's two tables (sections 4.1 and 4.2): score and
 * its 99.9% error, the confidence interval, the observed range and the standard deviation
 * of the iteration scores.
 */
record Stats(double score, double error, double ciMin, double ciMax, double obsMin, double obsMax, double sd) {

	/**
	 * Takes score, error and interval as JMH computed them (Student's t, 99.9%); range
	 * and standard deviation come from every measurement iteration of every fork.
	 */
	static Stats of(double score, double error, double ciMin, double ciMax, List<Double> iterations) {
		double min = Double.NaN;
		double max = Double.NaN;
		double sum = 0;
		for (double x : iterations) {
			min = Double.isNaN(min) ? x : Math.min(min, x);
			max = Double.isNaN(max) ? x : Math.max(max, x);
			sum += x;
		}
		int n = iterations.size();
		double mean = sum / n;
		double squares = 0;
		for (double x : iterations) {
			squares += (x - mean) * (x - mean);
		}
		double sd = (n > 1) ? Math.sqrt(squares / (n - 1)) : Double.NaN;
		return new Stats(score, error, ciMin, ciMax, min, max, sd);
	}

	/**
	 * The median: the middle value, or the mean of the middle two of an even count; NaN
	 * of none. The page's one meaning of "median".
	 */
	static double median(double[] values) {
		if (values.length == 0) {
			return Double.NaN;
		}
		double[] sorted = values.clone();
		Arrays.sort(sorted);
		int n = sorted.length;
		return (n % 2 == 1) ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	}

	static double median(List<Double> values) {
		return median(values.stream().mapToDouble(Double::doubleValue).toArray());
	}

	/** Mean of the iteration scores: for counters such as GC count, per iteration. */
	static double mean(List<Double> iterations) {
		return iterations.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
	}

}
