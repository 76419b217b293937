package io.github.qsbench.jmh.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The study report of the committed results (docs/archive/jmh-study/results: two runs,
 * four setups, both completions) has its sections in order, and its tables hold what
 * those results and the thesis's published tables give: the rankings, and the ratios to
 * ReadWriteLock's and Synchronized's Totals.
 */
class StudyReportTests {

	private static final Path RESULTS = Path.of("docs/archive/jmh-study/results");

	@Test
	void reportsTheSectionsInOrder() throws IOException {
		String report = report();

		List<String> headings = List.of("# JMH study: the thesis's queue-service benchmark, reproduced",
				"## Machine and settings", "### Known deviations from the thesis's core", "## Summary",
				"## Ranking by messages delivered", "## The guarded completion and the JDK",
				"## Uncontended (1 reader, 1 writer)", "## Contended readers (4 readers, 1 writer)",
				"## Contended writers (1 reader, 4 writers)", "## Contended readers + writers (4 readers, 4 writers)",
				"## Beyond the thesis", "### Allocation and garbage collection (`-prof gc`)",
				"### Collectors and JDKs");

		// where each heading starts (AssertJ's containsSubsequence takes seconds on a
		// report of this size)
		List<Integer> at = headings.stream().map(heading -> report.indexOf("\n" + heading + "\n")).toList();
		assertThat(report).startsWith(headings.get(0) + "\n");
		assertThat(at.subList(1, at.size())).doesNotContain(-1).isSorted();
	}

	@Test
	void tablesHoldTheResultsRankingsAndRatios() throws IOException {
		String report = report();

		// the thesis's published order, and ours with ≈ where the intervals overlap
		assertThat(report).contains("| Uncontended 1-1 | CP > CA > S > RWL | LL > LA ≈ RL ≈ SL");
		// Total ÷ ReadWriteLock's and ÷ Synchronized's: the thesis's, then the two runs'
		assertThat(report).contains("| 1-1 | Synchronized | 1.85× | 0.77× | 0.85× | 1.00× | 1.00× | 1.00× |")
			.contains("| 1-1 | ConcurrentPojo | 2.92× | 1.20× | 1.23× | 1.58× | 1.56× | 1.44× |")
			.contains("| 1-1 | FairReadWriteLock | n/a | 0.16× | n/a | n/a | 0.21× | n/a |");
	}

	private static String report() throws IOException {
		List<JmhResult> results = new ArrayList<>();
		try (Stream<Path> files = Files.list(RESULTS)) {
			for (Path file : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
				results.addAll(JmhResult.read(file));
			}
		}
		return new StudyReport(results, ThesisResults.load(), "").markdown();
	}

}
