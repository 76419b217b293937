package io.github.qsbench.jmh.report;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.qsbench.jmh.report.PairedRatio.Comparison;
import io.github.qsbench.jmh.report.PairedRatio.Result;
import io.github.qsbench.jmh.report.PairedRatio.Verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The study's arithmetic: a paired ratio's interval is Student's t over the log ratios;
 * Holm steps down through a family and prints each interval at its step's level, so that
 * the verdict and the interval never disagree; "equivalent" needs the whole interval
 * within the margin.
 */
class PairedRatioTests {

	@Test
	void aPairedIntervalIsStudentsTOverTheLogRatios() {
		// log ratios 0.1, 0.2, 0.3: mean 0.2, sd 0.1, se 0.0577; t(0.975, 2) = 4.3027
		Result r = PairedRatio.result(new Comparison("k", new double[] { 0.1, 0.2, 0.3 }), 0.05, 0.05);

		assertThat(r.ratio()).isCloseTo(Math.exp(0.2), within(1e-12));
		assertThat(r.low()).isCloseTo(Math.exp(0.2 - 4.302653 * 0.1 / Math.sqrt(3)), within(1e-5));
		assertThat(r.high()).isCloseTo(Math.exp(0.2 + 4.302653 * 0.1 / Math.sqrt(3)), within(1e-5));
		// 0.2 - 0.248 < 0: three pairs cannot tell a 22% gap from none
		assertThat(r.verdict()).isEqualTo(Verdict.UNDETERMINED);
	}

	@Test
	void holmStepsDownAndStopsAtTheFirstComparisonItCannotReject() {
		Comparison clear = comparison("clear", 0.50, 0.52, 0.48, 0.51, 0.49, 0.50);
		Comparison small = comparison("small", 0.03, 0.05, 0.02, 0.06, 0.04, 0.03);
		Comparison none = comparison("none", 0.02, -0.03, 0.01, -0.02, 0.03, -0.01);

		List<Result> results = PairedRatio.holm(List.of(none, small, clear), 0.05, 0.05);

		// in the order given; the smallest p at α/3, the next at α/2, the last at α/1
		assertThat(results).extracting((r) -> r.comparison().key()).containsExactly("none", "small", "clear");
		assertThat(results.get(2).level()).isCloseTo(0.05 / 3, within(1e-12));
		assertThat(results.get(1).level()).isCloseTo(0.05 / 2, within(1e-12));
		assertThat(results.get(0).level()).isCloseTo(0.05, within(1e-12));
		assertThat(results.get(2).verdict()).isEqualTo(Verdict.HIGHER);
		assertThat(results.get(1).verdict()).isEqualTo(Verdict.HIGHER);
		assertThat(results.get(0).verdict()).isEqualTo(Verdict.EQUIVALENT);
	}

	@Test
	void afterHolmStopsEveryLaterIntervalKeepsTheStoppingLevelAndHoldsOne() {
		Comparison clear = comparison("clear", 0.50, 0.52, 0.48, 0.51, 0.49, 0.50);
		Comparison noisy = comparison("noisy", 0.30, -0.20, 0.40, -0.10, 0.25, 0.05);
		Comparison borderline = comparison("borderline", 0.09, 0.01, 0.12, -0.02, 0.08, 0.05);

		List<Result> results = PairedRatio.holm(List.of(clear, noisy, borderline), 0.05, 0.05);

		Result stopped = results.stream().filter((r) -> r.verdict() == Verdict.UNDETERMINED).findFirst().orElseThrow();
		for (Result r : results) {
			boolean excludesOne = r.low() > 1 || r.high() < 1;
			assertThat(excludesOne).as(r.comparison().key())
				.isEqualTo(r.verdict() == Verdict.HIGHER || r.verdict() == Verdict.LOWER);
			if (r.comparison().p() >= stopped.comparison().p()) {
				assertThat(r.level()).isEqualTo(stopped.level());
			}
		}
	}

	@Test
	void equivalentOnlyWhenTheWholeIntervalLiesWithinTheMargin() {
		assertThat(PairedRatio.verdict(0.96, 1.04, 0.05)).isEqualTo(Verdict.EQUIVALENT);
		assertThat(PairedRatio.verdict(1.01, 1.04, 0.05)).isEqualTo(Verdict.EQUIVALENT);
		assertThat(PairedRatio.verdict(0.94, 1.04, 0.05)).isEqualTo(Verdict.UNDETERMINED);
		assertThat(PairedRatio.verdict(1.01, 1.06, 0.05)).isEqualTo(Verdict.HIGHER);
		assertThat(PairedRatio.verdict(0.80, 0.97, 0.05)).isEqualTo(Verdict.LOWER);
	}

	@Test
	void aSpreadRatioUsesTheFDistribution() {
		double[] a = { 0.0, 0.2, -0.2, 0.1, -0.1, 0.0 };
		double[] b = { 0.0, 0.02, -0.02, 0.01, -0.01, 0.0 };

		PairedRatio.Spread s = PairedRatio.Spread.of("1-1", a, b, 0.05);

		assertThat(s.ratio()).isCloseTo(10, within(1e-9));
		// F(0.975; 5, 5) = 7.1464: the interval is sqrt(100 / 7.1464) .. sqrt(100 *
		// 7.1464)
		assertThat(s.low()).isCloseTo(Math.sqrt(100 / 7.146382), within(1e-4));
		assertThat(s.high()).isCloseTo(Math.sqrt(100 * 7.146382), within(1e-3));
		assertThat(s.p()).isLessThan(0.001);
	}

	private static Comparison comparison(String key, double... logRatios) {
		return new Comparison(key, logRatios);
	}

}
