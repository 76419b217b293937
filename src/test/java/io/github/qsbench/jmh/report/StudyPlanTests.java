package io.github.qsbench.jmh.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.qsbench.jmh.report.StudyPlan.Run;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The committed plan runs every cell once per round, in an order of the round's own drawn
 * from the seed (so a resumed study runs what an uninterrupted one would), and its page
 * is a function of its results: the same results, the same bytes, the answer in the first
 * 40 lines and the whole page under 300.
 */
class StudyPlanTests {

	static final Path PLAN = Path.of("study/plan.yml");

	@Test
	void everyCellRunsOncePerRoundInAnOrderOfTheRoundsOwn() throws IOException {
		StudyPlan plan = StudyPlan.load(PLAN);
		List<Run> runs = plan.runs(Path.of("r"));

		assertThat(runs).hasSize(
				plan.core().cells().size() * plan.core().rounds() + plan.e2e().cells().size() * plan.e2e().rounds());
		assertThat(runs.stream().map(StudyPlan::fileOf).distinct()).hasSize(runs.size());
		List<String> first = order(runs, "core", 1);
		List<String> second = order(runs, "core", 2);
		assertThat(second).containsExactlyInAnyOrderElementsOf(first).isNotEqualTo(first);
		assertThat(order(StudyPlan.load(PLAN).runs(Path.of("r")), "core", 1)).isEqualTo(first);
		assertThat(order(runs, "e2e", 1)).isNotEqualTo(order(runs, "e2e", 2));
	}

	@Test
	void thePlanMeetsTheStudysFloor() throws IOException {
		StudyPlan plan = StudyPlan.load(PLAN);

		assertThat(plan.core().rounds()).isGreaterThanOrEqualTo(6);
		assertThat(plan.e2e().rounds()).isGreaterThanOrEqualTo(10);
		for (String load : List.of("4-4", "deep-inflight")) {
			assertThat(plan.e2eStrategies(load)).contains("synchronized", "read-write-lock", "concurrent-pojo",
					"concurrent-atomic");
		}
	}

	@Test
	void thePageIsAFunctionOfItsResultsWithTheAnswerOnTheFirstScreen(@TempDir Path results) throws IOException {
		StudyPlan plan = StudyPlan.load(PLAN);
		Random random = new Random(7);
		for (Run run : plan.runs(results)) {
			Path file = StudyPlan.fileOf(run);
			Files.createDirectories(file.getParent());
			String strategy = run.line().split("\t")[2].split(" ")[0];
			// synchronized twice as slow as the rest in the core, every strategy alike
			// end to end
			double speed = (strategy.equals("synchronized") ? 0.5 : 1.0) * (1 + 0.01 * random.nextGaussian());
			Files.writeString(file,
					run.kind().equals("core") ? jmh(speed) : client(10_000 * (1 + 0.005 * random.nextGaussian())));
		}
		StudyData data = StudyData.read(plan, results);

		String page = new FindingsPage(plan, data).markdown();

		assertThat(new FindingsPage(plan, StudyData.read(plan, results)).markdown()).isEqualTo(page);
		List<String> lines = page.lines().toList();
		assertThat(lines).hasSizeLessThan(300);
		String firstScreen = String.join("\n", lines.subList(0, 40));
		assertThat(firstScreen).contains("| `synchronized` against a `ReadWriteLock` |", "findings/forest.svg");
		String row = lines.stream()
			.filter((l) -> l.startsWith("| `synchronized` against a `ReadWriteLock`"))
			.findFirst()
			.orElseThrow();
		assertThat(row).contains("▼ 0.50").contains("4-4: ≈ 1.00");
		assertThat(ForestPlot.svg(List.of(), 0.05)).startsWith("<svg");
	}

	private static List<String> order(List<Run> runs, String kind, int round) {
		return runs.stream()
			.filter((r) -> r.kind().equals(kind) && r.round() == round)
			.map((r) -> r.line().split("\t")[2])
			.toList();
	}

	/**
	 * A JMH result as the study reads it: readers' polls per µs, all of them delivering.
	 */
	private static String jmh(double pollsPerMicrosecond) {
		String iterations = String.join(",",
				java.util.Collections.nCopies(6, String.format(Locale.ROOT, "%.4f", pollsPerMicrosecond)));
		String ones = String.join(",", java.util.Collections.nCopies(6, "1.0"));
		return "[{\"secondaryMetrics\":{\"reader\":{\"rawData\":[[" + iterations + "]]},\"delivered\":{\"rawData\":[["
				+ ones + "]]},\"empty\":{\"rawData\":[[" + ones.replace("1.0", "0.0") + "]]}}}]";
	}

	/**
	 * A lean-client result: a window of 8 s at {@code rate} messages per second, 50 µs of
	 * CPU each.
	 */
	private static String client(double rate) {
		long completes = Math.round(rate * 8);
		return String.format(Locale.ROOT,
				"{\"window\":8.0,\"completes\":%d,\"completesFirstHalf\":%d,\"cyclesPerSecond\":%.1f,\"cpuUsPerCycle\":50.0,"
						+ "\"clientCpuUsPerCycle\":10.0,\"lost\":0,\"errors\":0,\"refused\":0,\"latencyUs\":{\"p50\":100.0,\"p99\":900.0}}",
				completes, completes / 2, rate);
	}

}
