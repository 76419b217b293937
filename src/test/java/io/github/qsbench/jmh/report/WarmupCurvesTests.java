package io.github.qsbench.jmh.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link WarmupCurves} sets every iteration or window against its own fork's or start's
 * settled level, so strategies of different speeds share one curve; it finds where the
 * study's rule would have stopped a start and from where a start stays settled, and what
 * the core's warm-up check would have said after each warm-up.
 */
class WarmupCurvesTests {

	@Test
	void findsWhereTheRuleStopsAndWhereAStartSettles(@TempDir Path dir) throws IOException {
		StringBuilder tsv = new StringBuilder("service\twindow\tseconds\tcpu_ticks\tcompleted\tcpu_us_per_message\n");
		window(tsv, "warming-17-platform-r1", 900, 500, 180, 110, 90, 100, 98, 92, 112, 100);
		// never two windows within 10% in a row; settled (median of windows 6-10) at 150
		window(tsv, "jumpy-25-virtual-r1", 100, 150, 100, 150, 100, 150, 100, 150, 100, 150);
		Files.writeString(dir.resolve("warmups.tsv"), tsv);

		String md = WarmupCurves.endToEnd(dir, 0.10);

		assertThat(md).contains("median of windows 6-10", "windows of 3 s",
				"| warming-17-platform-r1 | 9.00 | 5.00 | 1.80 | 1.10 | 0.90 | 1.00 | 0.98 | 0.92 | 1.12 | 1.00 | 7 | 4 |",
				"| jumpy-25-virtual-r1 | 0.67 | 1.00 | 0.67 | 1.00 | 0.67 | 1.00 | 0.67 | 1.00 | 0.67 | 1.00 | not met | 10 |");
	}

	@Test
	void curvesTheCoreOverForksOfDifferentSpeedsAndChecksEachWarmup(@TempDir Path dir) throws IOException {
		// a fast and a ten times slower strategy, each settling at its third iteration
		FindingsTests.jmhResult(dir.resolve("jdk25-parallel-FAST-4-1.json"), "CONCURRENT_ATOMIC", 0,
				List.of(new double[] { 5, 8, 10, 10, 10, 10, 10, 10 }, new double[] { 5, 8, 10, 10, 10, 10, 10, 10 }));
		FindingsTests.jmhResult(dir.resolve("jdk25-parallel-SLOW-4-1.json"), "SYNCHRONIZED", 0,
				List.of(new double[] { 0.5, 0.8, 1, 1, 1, 1, 1, 1 }, new double[] { 0.5, 0.8, 1, 1, 1, 1, 1, 1 }));

		String md = WarmupCurves.core(dir, 4);

		assertThat(md)
			.contains("settled level (the median of iterations 5-8)",
					"| JDK 25 Parallel 4-1 | 4 | 0.50 | 0.80 | 1.00 | 1.00 | 1.00 | 1.00 | 1.00 | 1.00 |",
					// warmed by none, the check spans iterations 1-4: 10 / 5
					"| 0 × 500 ms | 2.00 [2.00, 2.00] |", "| 1 × 500 ms | 1.25 [1.25, 1.25] |",
					"| 2 × 500 ms | 1.00 [1.00, 1.00] |", "| 4 × 500 ms | 1.00 [1.00, 1.00] |")
			.doesNotContain("| 5 × 500 ms |");
	}

	private static void window(StringBuilder tsv, String service, double... cpu) {
		for (int i = 0; i < cpu.length; i++) {
			tsv.append(service).append('\t').append(i + 1).append("\t3\t1\t1\t").append(cpu[i]).append('\n');
		}
	}

}
