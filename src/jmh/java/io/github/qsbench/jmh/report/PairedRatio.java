package io.github.qsbench.jmh.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.apache.commons.math3.distribution.FDistribution;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * a ÷ b from paired replicates (a round of the core, a pair of service starts end to
 * end): the geometric mean of the per-pair ratios, its interval from Student's t on the
 * log ratios, and a verdict, corrected for its family by Holm's step-down.
 *
 * <p>
 * Holm's procedure tests the family's smallest p-value at α/m, the next at α/(m−1), and
 * so on until one fails. Each comparison's interval is printed at the level its step
 * used, and every comparison from the first that failed on at the level of that step: so
 * an interval excludes 1 exactly when the procedure rejects, and no verdict contradicts
 * its interval. "Equivalent" asks more: the whole corrected interval within the margin
 * [1/(1+margin), 1+margin] (two one-sided tests at half that level, conservative).
 */
final class PairedRatio {

	private PairedRatio() {
	}

	/** What the corrected interval says of a ÷ b. */
	enum Verdict {

		HIGHER, LOWER, EQUIVALENT, UNDETERMINED;

		/** ▲ ▼ ≈ ?: the answer table's marks. */
		String mark() {
			return switch (this) {
				case HIGHER -> "▲";
				case LOWER -> "▼";
				case EQUIVALENT -> "≈";
				case UNDETERMINED -> "?";
			};
		}

	}

	/** One comparison of a family: the log ratios of its pairs. */
	record Comparison(String key, double[] logRatios) {

		int n() {
			return this.logRatios.length;
		}

		double mean() {
			double sum = 0;
			for (double x : this.logRatios) {
				sum += x;
			}
			return sum / n();
		}

		double standardError() {
			double mean = mean();
			double squares = 0;
			for (double x : this.logRatios) {
				squares += (x - mean) * (x - mean);
			}
			return Math.sqrt(squares / (n() - 1) / n());
		}

		/** Two-sided p-value of "the mean log ratio is 0" (1 where it cannot be told). */
		double p() {
			if (n() < 2) {
				return 1;
			}
			double se = standardError();
			if (se == 0) {
				return (mean() == 0) ? 1 : 0;
			}
			double t = Math.abs(mean() / se);
			return 2 * new TDistribution(n() - 1).cumulativeProbability(-t);
		}

	}

	/**
	 * A comparison's ratio, corrected interval and verdict; {@code level} is the
	 * interval's α.
	 */
	record Result(Comparison comparison, double ratio, double low, double high, double level, Verdict verdict) {

	}

	/** Every comparison of one family, corrected together; in the order given. */
	static List<Result> holm(List<Comparison> family, double alpha, double margin) {
		List<Comparison> byP = new ArrayList<>(family);
		byP.sort(Comparator.comparingDouble(Comparison::p));
		int m = byP.size();
		List<Result> results = new ArrayList<>();
		boolean stopped = false;
		double level = alpha;
		for (int k = 0; k < m; k++) {
			Comparison c = byP.get(k);
			if (!stopped) {
				level = alpha / (m - k);
				stopped = c.p() > level;
			}
			results.add(result(c, level, margin));
		}
		return family.stream()
			.map(c -> results.stream().filter(r -> r.comparison() == c).findFirst().orElseThrow())
			.toList();
	}

	static Result result(Comparison c, double level, double margin) {
		double ratio = Math.exp(c.mean());
		if (c.n() < 2) {
			return new Result(c, ratio, Double.NaN, Double.NaN, level, Verdict.UNDETERMINED);
		}
		double half = new TDistribution(c.n() - 1).inverseCumulativeProbability(1 - level / 2) * c.standardError();
		double low = Math.exp(c.mean() - half);
		double high = Math.exp(c.mean() + half);
		return new Result(c, ratio, low, high, level, verdict(low, high, margin));
	}

	static Verdict verdict(double low, double high, double margin) {
		if (low >= 1 / (1 + margin) && high <= 1 + margin) {
			return Verdict.EQUIVALENT;
		}
		if (low > 1) {
			return Verdict.HIGHER;
		}
		return (high < 1) ? Verdict.LOWER : Verdict.UNDETERMINED;
	}

	/**
	 * σa ÷ σb of two samples' logarithms (the spread of round scores, as a ratio), with
	 * the F distribution's interval at {@code level} and its two-sided p-value.
	 */
	record Spread(String key, double ratio, double low, double high, double p) {

		static Spread of(String key, double[] logA, double[] logB, double level) {
			double va = variance(logA);
			double vb = variance(logB);
			double f = va / vb;
			FDistribution dist = new FDistribution(logA.length - 1, logB.length - 1);
			double p = 2 * Math.min(dist.cumulativeProbability(f), 1 - dist.cumulativeProbability(f));
			double low = Math.sqrt(f / dist.inverseCumulativeProbability(1 - level / 2));
			double high = Math.sqrt(f / dist.inverseCumulativeProbability(level / 2));
			return new Spread(key, Math.sqrt(f), low, high, Math.min(1, p));
		}

		private static double variance(double[] xs) {
			double mean = 0;
			for (double x : xs) {
				mean += x / xs.length;
			}
			double squares = 0;
			for (double x : xs) {
				squares += (x - mean) * (x - mean);
			}
			return squares / (xs.length - 1);
		}

	}

}
