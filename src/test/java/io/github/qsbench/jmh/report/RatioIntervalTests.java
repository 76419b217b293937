package io.github.qsbench.jmh.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

import io.github.qsbench.jmh.report.RatioInterval.Verdict;

/**
 * {@link RatioInterval} on inputs whose intervals follow by hand from Student's t
 * quantiles (t(0.975; 1) = 12.7062, t(0.975; 2) = 4.3027, t(0.975; 4) = 2.7764).
 */
class RatioIntervalTests {

	@Test
	void welchOnLogsWithOneSideConstant() {
		// logs of a: 0, ln 2, 2 ln 2 (mean ln 2, sd ln 2); b has no spread: df = n - 1 =
		// 2.
		RatioInterval r = RatioInterval.of(new double[] { 1, 2, 4 }, new double[] { 1, 1, 1 });

		assertThat(r.ratio()).isCloseTo(2, within(1e-12));
		assertThat(r.low()).isCloseTo(0.357462, within(1e-6));
		assertThat(r.high()).isCloseTo(11.189997, within(1e-6));
		assertThat(r.verdict()).isEqualTo(Verdict.OVERLAPS);
		assertThat(r.label("faster", "slower")).isEqualTo("not distinguishable");
	}

	@Test
	void welchWithEqualSpreadsHasPooledDegreesOfFreedom() {
		// logs 1, 2, 3 against 0, 1, 2: difference 1, each variance 1, df = 4.
		double e = Math.E;
		RatioInterval r = RatioInterval.of(new double[] { e, e * e, e * e * e }, new double[] { 1, e, e * e });

		assertThat(r.ratio()).isCloseTo(e, within(1e-12));
		assertThat(r.low()).isCloseTo(0.281687, within(1e-6));
		assertThat(r.high()).isCloseTo(26.231420, within(1e-5));
	}

	@Test
	void separatedSamplesAreFasterOrSlower() {
		double[] a = { Math.exp(1.0), Math.exp(1.1), Math.exp(0.9) };
		double[] b = { Math.exp(0.0), Math.exp(0.1), Math.exp(-0.1) };

		RatioInterval faster = RatioInterval.of(a, b);
		assertThat(faster.low()).isCloseTo(2.166914, within(1e-6));
		assertThat(faster.high()).isCloseTo(3.409944, within(1e-6));
		assertThat(faster.label("faster", "slower")).isEqualTo("faster");
		assertThat(faster.format()).isEqualTo("2.72 [2.17, 3.41]");

		RatioInterval slower = RatioInterval.of(b, a);
		assertThat(slower.verdict()).isEqualTo(Verdict.BELOW);
		assertThat(slower.label("faster", "slower")).isEqualTo("slower");
		assertThat(slower.low()).isCloseTo(1 / faster.high(), within(1e-12));
	}

	@Test
	void pairedTakesTheRatioOfEachPair() {
		// log ratios ln 2 and 2 ln 2: mean 1.5 ln 2, se ln 2 / 2, df = 1.
		RatioInterval r = RatioInterval.paired(new double[] { 2, 4 }, new double[] { 1, 1 });

		assertThat(r.ratio()).isCloseTo(Math.pow(2, 1.5), within(1e-12));
		assertThat(r.low()).isCloseTo(0.0345996, within(1e-7));
		assertThat(r.high()).isCloseTo(231.21679, within(1e-4));
		assertThat(r.n()).isEqualTo(2);
	}

	@Test
	void noSpreadGivesAPointInterval() {
		RatioInterval r = RatioInterval.of(new double[] { 3, 3 }, new double[] { 1.5, 1.5 });

		assertThat(r.low()).isEqualTo(r.high()).isCloseTo(2, within(1e-12));
		assertThat(r.verdict()).isEqualTo(Verdict.ABOVE);
	}

	@Test
	void tooFewOrNonPositiveReplicatesGiveNoInterval() {
		RatioInterval one = RatioInterval.of(new double[] { 2 }, new double[] { 1, 1 });
		assertThat(one.ratio()).isCloseTo(2, within(1e-12));
		assertThat(one.verdict()).isEqualTo(Verdict.UNKNOWN);
		assertThat(one.format()).isEqualTo("2.00 [no interval]");

		RatioInterval zero = RatioInterval.of(new double[] { 0, 1 }, new double[] { 1, 1 });
		assertThat(zero.ratio()).isNaN();
		assertThat(zero.label("faster", "slower")).isEqualTo("no interval");
		assertThat(zero.format()).isEqualTo("n/a");
	}

	@Test
	void smallRatiosKeepTwoSignificantDigits() {
		RatioInterval r = RatioInterval.of(new double[] { 0.00036, 0.00036 }, new double[] { 1, 1 });

		assertThat(r.format()).isEqualTo("0.00036 [0.00036, 0.00036]");
	}

	@Test
	void pairedNeedsPairs() {
		assertThatThrownBy(() -> RatioInterval.paired(new double[] { 1, 2 }, new double[] { 1 }))
			.isInstanceOf(IllegalArgumentException.class);
	}

}
