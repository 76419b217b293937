package io.github.qsbench.jmh.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Findings} rewrites only its generated blocks of the page and refuses a page that
 * lacks one; it sees a first cell's warm-up bias through the strategies' own costs; it
 * pools the cells of several end-to-end parts and keeps their service starts apart, and
 * the parts warmed to different limits; a cell measured again warmer keeps only the
 * warmer runs; JMH cells run with different settings each say their own.
 */
class FindingsTests {

	@Test
	void replacesOnlyTheGeneratedBlocks() {
		String page = "# t\n\nprose $1 stays\n<!-- generated:a -->\nold\n<!-- /generated:a -->\nmore\n"
				+ "<!-- generated:b -->\n<!-- /generated:b -->\n";

		String out = Findings.replaceBlocks(page, Map.of("a", "new $0 table\n", "b", "B\n"));

		assertThat(out).isEqualTo("# t\n\nprose $1 stays\n<!-- generated:a -->\nnew $0 table\n<!-- /generated:a -->\n"
				+ "more\n<!-- generated:b -->\nB\n<!-- /generated:b -->\n");
	}

	@Test
	void refusesAPageWithoutABlock() {
		assertThatThrownBy(() -> Findings.replaceBlocks("<!-- generated:a -->\n<!-- /generated:a -->\n",
				Map.of("a", "x\n", "b", "y\n")))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("b");
	}

	@Test
	void everyQuestionComparesTwoStrategies() {
		assertThat(Findings.QUESTIONS).allSatisfy((q) -> assertThat(q.a()).isNotEqualTo(q.b()));
	}

	@Test
	void setsTheThesissReaderRatioBesideItsTotal() {
		// thesis 1-4: Total 8.29 / 6.05 ops/us, Reader 5.23 / 0.0435 (its reader starved)
		Findings.Question q = Findings.QUESTIONS.get(0);

		assertThat(new Findings().thesisRatio(new Setup(1, 4), q)).isEqualTo("1.37; Reader 120.25");
		assertThat(new Findings().thesisRatio(new Setup(2, 2), q)).isEmpty();
	}

	@Test
	void seesTheFirstCellsBiasThroughTheStrategiesOwnCosts() {
		// a cheap and a ten times dearer strategy; either costs 2x when its cell runs
		// first
		List<Findings.E2eRun> cheap = List.of(run("a", 1, 20.4, 0), run("a", 2, 19.6, 0), run("a", 3, 10.2, 1),
				run("a", 4, 9.8, 1));
		List<Findings.E2eRun> dear = List.of(run("b", 1, 198, 0), run("b", 2, 101, 1), run("b", 3, 99, 1),
				run("b", 4, 202, 0), run("b", 5, 100, -1));

		RatioInterval bias = Findings.firstCellBias(List.of(cheap, dear));

		assertThat(bias.ratio()).isCloseTo(2.0, within(0.05));
		assertThat(bias.low()).isGreaterThan(1.5);
		assertThat(bias.n()).isEqualTo(4);
		assertThat(bias.m()).isEqualTo(4);
		assertThat(Findings.firstCellBias(List.of(List.of(run("a", 1, 20, 0), run("a", 2, 10, 1))))).isNull();
	}

	@Test
	void poolsTheCellsOfSeveralPartsAndKeepsTheirStartsApart(@TempDir Path dir) throws IOException {
		// two parts with a start of the same name: two starts, not one
		Path first = part(dir.resolve("e2e"), "4-4/b1/w0/25-virtual");
		Path second = part(dir.resolve("e2e-separating"), "many-queues/b1/w0/25-virtual");
		Findings findings = new Findings();

		findings.readE2e(first);
		findings.readE2e(second);

		Map<String, String> blocks = findings.blocks("charts", "");
		assertThat(blocks.get("e2e")).contains("#### 4-4/b1/w0/25-virtual", "#### many-queues/b1/w0/25-virtual");
		assertThat(blocks.get("e2e-warmup")).contains("| 25-virtual | 3 | 2 | 2 | 2 | 1.10 (1.10–1.10) |");
	}

	@Test
	void keepsApartThePartsWarmedToDifferentLimits(@TempDir Path dir) throws IOException {
		Findings findings = new Findings();

		findings.readE2e(part(dir.resolve("e2e"), "4-4/b1/w0/25-virtual", 3));
		findings.readE2e(part(dir.resolve("e2e-1-4"), "1-4/b1/w0/25-virtual", 8));

		assertThat(findings.blocks("charts", "").get("e2e-warmup")).contains("up to the limit its part set",
				"| 25-virtual | 3 | 1 | 1 | 2 | 1.10 (1.10–1.10) |",
				"| 25-virtual | 8 | 1 | 1 | 2 | 1.10 (1.10–1.10) |");
	}

	@Test
	void keepsOnlyTheRunsOfTheWarmerPartWhereACellWasMeasuredAgain(@TempDir Path dir) throws IOException {
		Path cold = part(dir.resolve("e2e-thesis"), "1-1/b1/w0/25-virtual", 3);
		Path warm = part(dir.resolve("e2e-thesis-warm"), "1-1/b1/w0/25-virtual", 8);
		Path other = part(dir.resolve("e2e"), "4-4/b1/w0/25-virtual", 3);

		// either order of reading gives the same page
		for (List<Path> order : List.of(List.of(cold, other, warm), List.of(warm, other, cold))) {
			Findings findings = new Findings();
			for (Path p : order) {
				findings.readE2e(p);
			}

			String e2e = findings.blocks("charts", "").get("e2e");
			assertThat(e2e).contains("set aside:\n\n- 1-1/b1/w0/25-virtual: 6 runs of `e2e-thesis`",
					"(warmed by at most 3 windows)\n");
			// three rounds each, not six: the cold rounds are not pooled with the warm
			// ones
			assertThat(e2e.lines().filter(l -> l.startsWith("| synchronized |"))).hasSize(2)
				.allSatisfy(l -> assertThat(l).contains(" | 3 | "));
			assertThat(e2e).doesNotContain("4-4/b1/w0/25-virtual:");
			// the cold part's start is left out of the warm-up table with its runs
			assertThat(findings.blocks("charts", "").get("e2e-warmup")).contains(
					"Left out with their runs: 1 start whose cells were all measured again, warmer.",
					"| 25-virtual | 3 | 1 | 1 | 2 | 1.10 (1.10–1.10) |",
					"| 25-virtual | 8 | 1 | 1 | 2 | 1.10 (1.10–1.10) |");
		}
	}

	@Test
	void refusesAWarmupStartItsPartDoesNotPlan(@TempDir Path dir) throws IOException {
		Path p = part(dir.resolve("e2e"), "4-4/b1/w0/25-virtual");
		// named otherwise than order.tsv's start is rebuilt (as a renaming in the script
		// would leave it)
		Files.writeString(p.resolve("warmups.tsv"), """
				service\twindow\tseconds\tcpu_ticks\tcompleted\tcpu_us_per_message
				synchronized-25-virtual-round1\t1\t3\t1\t1\t110
				""");

		assertThatThrownBy(() -> new Findings().readE2e(p)).isInstanceOf(IllegalStateException.class)
			.hasMessageContaining("synchronized-25-virtual-round1");
	}

	@Test
	void saysEachCellsSettingsWhereTheCellsDiffer(@TempDir Path dir) throws IOException {
		Path round = Files.createDirectories(dir.resolve("round-1"));
		for (String strategy : List.of("CONCURRENT_ATOMIC", "SYNCHRONIZED")) {
			jmhResult(round.resolve("jdk25-parallel-" + strategy + "-1-1.json"), strategy, 4,
					Collections.nCopies(2, new double[] { 1.0, 1.1 }));
			jmhResult(round.resolve("jdk25-parallel-" + strategy + "-4-1.json"), strategy, 10,
					Collections.nCopies(5, new double[] { 1.0, 1.1 }));
		}
		Findings findings = new Findings();

		findings.readJmh(dir);

		String jmh = findings.blocks("charts", "").get("jmh");
		assertThat(jmh).contains("Settings differ between cells (each cell says its own)",
				"Settings: 4 × 500 ms warm-up, 4 × 500 ms measured, 2 forks per round. Warm-up check",
				"Settings: 10 × 500 ms warm-up, 4 × 500 ms measured, 5 forks per round. Warm-up check");
	}

	/**
	 * Writes a JMH result file of one strategy, its setup from the file's name: every
	 * metric's iterations are {@code forks}, one array per fork.
	 */
	static void jmhResult(Path file, String strategy, int warmups, List<double[]> forks) throws IOException {
		String[] setup = file.getFileName().toString().replaceAll(".*-(\\d+)-(\\d+)\\.json$", "$1 $2").split(" ");
		String metric = "{\"score\": 1.05, \"scoreError\": 0.1, \"scoreConfidence\": [0.95, 1.15], \"rawData\": "
				+ forks.stream().map(Arrays::toString).toList() + "}";
		Files.writeString(file, """
				[{"jmhVersion": "1.37", "benchmark": "QueueServiceBenchmark.Thrpt.group", "mode": "thrpt",
				  "threads": %d, "forks": %d, "jvm": "java", "jvmArgs": ["-XX:+UseParallelGC"],
				  "jdkVersion": "25.0.3", "vmName": "OpenJDK 64-Bit Server VM", "vmVersion": "25.0.3+9",
				  "warmupIterations": %d, "warmupTime": "500 ms", "measurementIterations": 4,
				  "measurementTime": "500 ms", "params": {"strategy": "%s"},
				  "primaryMetric": %s, "secondaryMetrics": {"reader": %s, "writer": %s, "delivered": %s}}]
				""".formatted(Integer.parseInt(setup[0]) + Integer.parseInt(setup[1]), forks.size(), warmups, strategy,
				metric, metric, metric, metric));
	}

	/** An e2e-study OUT with three rounds of two strategies in one cell. */
	private static Path part(Path dir, String cell) throws IOException {
		return part(dir, cell, 3);
	}

	/** The same, warmed up to {@code warmupLimit} windows a start. */
	private static Path part(Path dir, String cell, int warmupLimit) throws IOException {
		Files.createDirectories(dir);
		StringBuilder runs = new StringBuilder();
		for (int round = 1; round <= 3; round++) {
			for (String strategy : List.of("concurrent-atomic", "synchronized")) {
				runs.append(runs.isEmpty() ? "" : ",")
					.append("{\"cell\": \"%s\", \"strategy\": \"%s\", \"rep\": %d, \"messagesPerSecond\": %d, \"cpuMicrosPerMessage\": 100, \"ok\": true}"
						.formatted(cell, strategy, round, 1000 + round));
			}
		}
		Files.writeString(dir.resolve("figures.json"), "{\"runs\": [" + runs + "]}");
		Files.writeString(dir.resolve("settings.json"),
				"{\"warmupTolerance\": 0.1, \"warmupMax\": %d}".formatted(warmupLimit));
		Files.writeString(dir.resolve("order.tsv"),
				"1\tthis\tsynchronized\t25-virtual\tQueueSimulation\t" + cell + "\n");
		Files.writeString(dir.resolve("warmups.tsv"), """
				service\twindow\tseconds\tcpu_ticks\tcompleted\tcpu_us_per_message
				synchronized-25-virtual-r1\t1\t3\t1\t1\t110
				synchronized-25-virtual-r1\t2\t3\t1\t1\t100
				""");
		return dir;
	}

	private static Findings.E2eRun run(String strategy, int round, double cpu, int position) {
		return new Findings.E2eRun("4-4/b1/w0/25-virtual", strategy, round, 1000, cpu, 0.05, position);
	}

}
