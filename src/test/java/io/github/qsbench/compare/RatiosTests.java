package io.github.qsbench.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The paired ratio, its interval and the verdicts, on cases worked by hand. */
class RatiosTests {

	@Test
	void paired_isTheGeometricMeanOfTheRoundsRatios_withATIntervalOnTheirLogs() {
		// ratios 2, 1 and 4 (logs ln2, 0, 2 ln2): mean ln2, sd ln2, t(2) = 4.303
		Ratios.Interval interval = Ratios.paired(new double[] { 200, 100, 400 }, new double[] { 100, 100, 100 });

		double half = 4.303 * Math.log(2) / Math.sqrt(3);
		assertThat(interval.ratio()).isCloseTo(2.0, within(1e-12));
		assertThat(interval.low()).isCloseTo(Math.exp(Math.log(2) - half), within(1e-12));
		assertThat(interval.high()).isCloseTo(Math.exp(Math.log(2) + half), within(1e-12));
		assertThat(interval.pairs()).isEqualTo(3);
	}

	@Test
	void paired_isSymmetricOnTheLogScale() {
		Ratios.Interval up = Ratios.paired(new double[] { 110, 130, 120 }, new double[] { 100, 100, 100 });
		Ratios.Interval down = Ratios.paired(new double[] { 100, 100, 100 }, new double[] { 110, 130, 120 });

		assertThat(up.ratio() * down.ratio()).isCloseTo(1.0, within(1e-12));
		assertThat(up.low() * down.high()).isCloseTo(1.0, within(1e-12));
	}

	@Test
	void paired_leavesOutRoundsWithoutAPositiveValue_andNeedsTwo() {
		assertThat(Ratios.paired(new double[] { 200, 0, 200 }, new double[] { 100, 100, Double.NaN })).isNull();
		assertThat(Ratios.paired(new double[] { 200, 0, 300 }, new double[] { 100, 100, 100 }).pairs()).isEqualTo(2);
	}

	@Test
	void verdicts() {
		assertThat(Ratios.verdict(interval(1.2, 1.1, 1.3), "faster", "slower")).isEqualTo("faster");
		assertThat(Ratios.verdict(interval(0.8, 0.7, 0.9), "faster", "slower")).isEqualTo("slower");
		assertThat(Ratios.verdict(interval(1.0, 0.96, 1.04), "faster", "slower")).isEqualTo("equivalent within ±5%");
		assertThat(Ratios.verdict(interval(1.0, 0.95, 1.05), "faster", "slower")).isEqualTo("equivalent within ±5%");
		assertThat(Ratios.verdict(interval(1.0, 0.90, 1.04), "faster", "slower")).isEqualTo("undetermined");
		assertThat(Ratios.verdict(interval(1.1, 0.99, 1.2), "faster", "slower")).isEqualTo("undetermined");
		assertThat(Ratios.verdict(null, "faster", "slower")).isEqualTo("undetermined");
		// a real difference inside the margin is still a difference
		assertThat(Ratios.verdict(interval(1.02, 1.01, 1.04), "faster", "slower")).isEqualTo("faster");
	}

	@Test
	void equivalence_needsRoundsThatAgree() {
		Ratios.Interval tight = Ratios.paired(new double[] { 1000, 1010, 995, 1005, 1000 },
				new double[] { 1000, 1000, 1000, 1000, 1000 });
		Ratios.Interval loose = Ratios.paired(new double[] { 1000, 1300, 800 }, new double[] { 1000, 1000, 1000 });

		assertThat(Ratios.verdict(tight, "faster", "slower")).isEqualTo("equivalent within ±5%");
		assertThat(Ratios.verdict(loose, "faster", "slower")).isEqualTo("undetermined");
	}

	@Test
	void tQuantiles() {
		assertThat(Ratios.t975(1)).isEqualTo(12.706);
		assertThat(Ratios.t975(19)).isEqualTo(2.093);
		assertThat(Ratios.t975(100)).isEqualTo(1.96);
	}

	@Test
	void geometricMean_ofThePositiveValues() {
		assertThat(Ratios.geometricMean(new double[] { 1, 4, 0 })).isCloseTo(2.0, within(1e-12));
		assertThat(Ratios.geometricMean(new double[] { 0 })).isNull();
	}

	private static Ratios.Interval interval(double ratio, double low, double high) {
		return new Ratios.Interval(ratio, low, high, 3);
	}

}
