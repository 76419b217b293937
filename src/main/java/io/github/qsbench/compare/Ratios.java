package io.github.qsbench.compare;

/**
 * Paired ratios: a strategy against the baseline round by round, both measured in the
 * same round moments apart, so the round's drift of a shared machine weighs on both. The
 * ratio is the geometric mean of the rounds' ratios; its 95% interval a one-sample
 * t-interval on their logarithms (n - 1 degrees of freedom), on which twice as fast and
 * half as fast are equally far from 1.
 */
final class Ratios {

	/** How close to 1 a whole interval must lie to call two strategies equivalent. */
	static final double EQUIVALENCE_MARGIN = 0.05;

	static final String EQUIVALENT = "equivalent within ±5%";

	static final String UNDETERMINED = "undetermined";

	/** Student's t, 0.975 quantile, for 1 to 30 degrees of freedom (beyond: 1.96). */
	private static final double[] T975 = { 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201,
			2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
			2.052, 2.048, 2.045, 2.042 };

	private Ratios() {
	}

	/**
	 * A ratio with its 95% interval over {@code pairs} rounds.
	 */
	record Interval(double ratio, double low, double high, int pairs) {
	}

	/**
	 * The paired ratio of {@code numerators} over {@code denominators} (same round at the
	 * same index); rounds where either is not a positive number are left out.
	 * @return the ratio with its interval, or {@code null} with fewer than two usable
	 * rounds
	 */
	static Interval paired(double[] numerators, double[] denominators) {
		double[] logs = new double[Math.min(numerators.length, denominators.length)];
		int n = 0;
		for (int i = 0; i < logs.length; i++) {
			double a = numerators[i];
			double b = denominators[i];
			if (a > 0 && b > 0 && Double.isFinite(a) && Double.isFinite(b)) {
				logs[n++] = Math.log(a / b);
			}
		}
		if (n < 2) {
			return null;
		}
		double mean = 0;
		for (int i = 0; i < n; i++) {
			mean += logs[i];
		}
		mean /= n;
		double squares = 0;
		for (int i = 0; i < n; i++) {
			squares += (logs[i] - mean) * (logs[i] - mean);
		}
		double half = t975(n - 1) * Math.sqrt(squares / (n - 1)) / Math.sqrt(n);
		return new Interval(Math.exp(mean), Math.exp(mean - half), Math.exp(mean + half), n);
	}

	/**
	 * What an interval says: {@code above} where it lies wholly above 1, {@code below}
	 * wholly below, {@link #EQUIVALENT} where it holds 1 and lies inside [0.95, 1.05],
	 * {@link #UNDETERMINED} otherwise (too wide to tell) or without an interval. An
	 * interval that leaves 1 inside the margin (say [1.01, 1.04]) reads {@code above}:
	 * the difference is real, and its size is the ratio's to read.
	 */
	static String verdict(Interval interval, String above, String below) {
		if (interval == null) {
			return UNDETERMINED;
		}
		if (interval.low() > 1) {
			return above;
		}
		if (interval.high() < 1) {
			return below;
		}
		if (interval.low() >= 1 - EQUIVALENCE_MARGIN && interval.high() <= 1 + EQUIVALENCE_MARGIN) {
			return EQUIVALENT;
		}
		return UNDETERMINED;
	}

	static double t975(int degreesOfFreedom) {
		if (degreesOfFreedom < 1) {
			throw new IllegalArgumentException("degrees of freedom: " + degreesOfFreedom);
		}
		return (degreesOfFreedom <= T975.length) ? T975[degreesOfFreedom - 1] : 1.96;
	}

	/** The geometric mean of the positive values, or {@code null} without one. */
	static Double geometricMean(double[] values) {
		double logs = 0;
		int n = 0;
		for (double value : values) {
			if (value > 0 && Double.isFinite(value)) {
				logs += Math.log(value);
				n++;
			}
		}
		return (n == 0) ? null : Math.exp(logs / n);
	}

}
