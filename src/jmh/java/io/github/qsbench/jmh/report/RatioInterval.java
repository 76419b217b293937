package io.github.qsbench.jmh.report;

import java.util.Arrays;
import java.util.Locale;

import org.apache.commons.math3.distribution.TDistribution;

/**
 * A ratio of two geometric means with its 95% confidence interval, from independent
 * replicates (JMH forks, or rounds of the end-to-end study): Welch's t-interval on the
 * difference of the mean logarithms, exponentiated. On the log scale a ratio's interval
 * is symmetric and a strategy twice as fast is as far from 1 as one half as fast; Welch's
 * form does not assume the two strategies spread alike. {@link #paired} is the one-sample
 * form on per-replicate ratios (a fork's last measured iteration over its first).
 *
 * <p>
 * The t quantile is commons-math3's (the library jmh-core computes its own intervals
 * with). Fewer than two replicates on a side, or a replicate that is not positive, give
 * no interval (NaN bounds), and {@link #verdict()} says so.
 *
 * @param ratio geometric mean of the first sample over that of the second
 * @param low lower bound of the 95% interval
 * @param high upper bound of the 95% interval
 * @param n replicates of the first sample
 * @param m replicates of the second sample (for {@link #paired}: the same pairs)
 */
public record RatioInterval(double ratio, double low, double high, int n, int m) {

	/** Two-sided confidence of every interval. */
	public static final double CONFIDENCE = 0.95;

	/** Where the interval lies against 1. */
	public enum Verdict {

		/** The whole interval above 1. */
		ABOVE,

		/** The whole interval below 1. */
		BELOW,

		/** The interval holds 1: the data do not tell the two apart. */
		OVERLAPS,

		/** Too few replicates, or one not positive, for an interval. */
		UNKNOWN

	}

	/**
	 * The ratio of {@code a}'s geometric mean to {@code b}'s, with Welch's t-interval on
	 * the logarithms.
	 */
	public static RatioInterval of(double[] a, double[] b) {
		double[] la = logs(a);
		double[] lb = logs(b);
		if (la == null || lb == null) {
			return new RatioInterval(Double.NaN, Double.NaN, Double.NaN, a.length, b.length);
		}
		double diff = mean(la) - mean(lb);
		if (la.length < 2 || lb.length < 2) {
			return new RatioInterval(Math.exp(diff), Double.NaN, Double.NaN, a.length, b.length);
		}
		double va = variance(la) / la.length;
		double vb = variance(lb) / lb.length;
		double se = Math.sqrt(va + vb);
		if (se == 0) {
			return new RatioInterval(Math.exp(diff), Math.exp(diff), Math.exp(diff), a.length, b.length);
		}
		// Welch-Satterthwaite degrees of freedom.
		double df = (va + vb) * (va + vb) / (va * va / (la.length - 1) + vb * vb / (lb.length - 1));
		double half = quantile(df) * se;
		return new RatioInterval(Math.exp(diff), Math.exp(diff - half), Math.exp(diff + half), a.length, b.length);
	}

	/**
	 * The geometric mean of {@code after[i] / before[i]} with the one-sample t-interval
	 * of the log ratios: for measurements that come in pairs, as the first and last
	 * iteration of one fork.
	 */
	public static RatioInterval paired(double[] after, double[] before) {
		if (after.length != before.length) {
			throw new IllegalArgumentException(after.length + " values after but " + before.length + " before");
		}
		double[] la = logs(after);
		double[] lb = logs(before);
		int n = after.length;
		if (la == null || lb == null || n == 0) {
			return new RatioInterval(Double.NaN, Double.NaN, Double.NaN, n, n);
		}
		double[] d = new double[n];
		Arrays.setAll(d, i -> la[i] - lb[i]);
		double mean = mean(d);
		if (n < 2) {
			return new RatioInterval(Math.exp(mean), Double.NaN, Double.NaN, n, n);
		}
		double half = quantile(n - 1) * Math.sqrt(variance(d) / n);
		return new RatioInterval(Math.exp(mean), Math.exp(mean - half), Math.exp(mean + half), n, n);
	}

	/** Where the interval lies against 1. */
	public Verdict verdict() {
		if (Double.isNaN(this.low) || Double.isNaN(this.high)) {
			return Verdict.UNKNOWN;
		}
		if (this.low > 1) {
			return Verdict.ABOVE;
		}
		return (this.high < 1) ? Verdict.BELOW : Verdict.OVERLAPS;
	}

	/**
	 * The verdict in words: {@code above} or {@code below} where the interval excludes 1,
	 * "not distinguishable" where it holds 1, "no interval" where there is none.
	 */
	public String label(String above, String below) {
		return switch (verdict()) {
			case ABOVE -> above;
			case BELOW -> below;
			case OVERLAPS -> "not distinguishable";
			case UNKNOWN -> "no interval";
		};
	}

	/**
	 * "1.23 [1.05, 1.44]", two significant digits below 0.1 ("0.00036 [0.00031,
	 * 0.00042]"); "n/a" where there is no ratio.
	 */
	public String format() {
		if (Double.isNaN(this.ratio)) {
			return "n/a";
		}
		if (Double.isNaN(this.low)) {
			return number(this.ratio) + " [no interval]";
		}
		return number(this.ratio) + " [" + number(this.low) + ", " + number(this.high) + "]";
	}

	private static String number(double x) {
		return String.format(Locale.ROOT, (x >= 0.1) ? "%.2f" : "%.2g", x);
	}

	/** Half the interval's width on the log2 scale, for symmetric error bars. */
	double log2HalfWidth() {
		return (Math.log(this.high) - Math.log(this.low)) / 2 / Math.log(2);
	}

	private static double quantile(double df) {
		return new TDistribution(df).inverseCumulativeProbability(1 - (1 - CONFIDENCE) / 2);
	}

	private static double[] logs(double[] values) {
		double[] logs = new double[values.length];
		for (int i = 0; i < values.length; i++) {
			if (!(values[i] > 0)) {
				return null;
			}
			logs[i] = Math.log(values[i]);
		}
		return logs;
	}

	private static double mean(double[] x) {
		double sum = 0;
		for (double v : x) {
			sum += v;
		}
		return sum / x.length;
	}

	private static double variance(double[] x) {
		double mean = mean(x);
		double squares = 0;
		for (double v : x) {
			squares += (v - mean) * (v - mean);
		}
		return squares / (x.length - 1);
	}

}
