package io.github.qsbench.jmh.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * What a study measured, read from its results folder as scripts/study.sh leaves it: one
 * JMH result per core cell and round, one lean-client result per end-to-end cell and
 * round, {@code runs.tsv} (when each ran, at what load average) and {@code machine.txt}.
 */
record StudyData(List<CoreRun> core, List<EndToEndRun> e2e, List<String> runLog, List<String> machine) {

	/**
	 * One fork of one core cell in one round: its measured iterations, messages delivered
	 * per µs.
	 */
	record CoreRun(String variant, Setup setup, int round, double[] iterations) {

		double score() {
			return Arrays.stream(this.iterations).average().orElseThrow();
		}

		/** The second half of the measured iterations over the first, less 1. */
		double drift() {
			int half = this.iterations.length / 2;
			double first = Arrays.stream(this.iterations, 0, half).average().orElseThrow();
			double second = Arrays.stream(this.iterations, this.iterations.length - half, this.iterations.length)
				.average()
				.orElseThrow();
			return second / first - 1;
		}

	}

	/** One service start under one load: what the lean client reported of its window. */
	record EndToEndRun(String strategy, String load, int round, double messagesPerSecond, double cpuUsPerMessage,
			double p50Us, double p99Us, double clientCpuUsPerMessage, double drift, long lost, long errors,
			double refusedPerSecond, long duplicates) {

	}

	static StudyData read(StudyPlan plan, Path results) throws IOException {
		ObjectMapper json = new ObjectMapper();
		List<CoreRun> core = new ArrayList<>();
		for (int round = 1; round <= plan.core().rounds(); round++) {
			for (StudyPlan.Core.Cell cell : plan.core().cells()) {
				Path file = cell.file(results, round);
				if (Files.exists(file)) {
					JsonNode secondary = json.readTree(file.toFile()).get(0).path("secondaryMetrics");
					JsonNode reader = secondary.path("reader").path("rawData").get(0);
					JsonNode delivered = secondary.path("delivered").path("rawData").get(0);
					JsonNode empty = secondary.path("empty").path("rawData").get(0);
					double[] iterations = new double[reader.size()];
					for (int i = 0; i < iterations.length; i++) {
						double d = delivered.get(i).asDouble();
						double e = empty.get(i).asDouble();
						iterations[i] = (d + e > 0) ? reader.get(i).asDouble() * d / (d + e) : 0;
					}
					core.add(new CoreRun(cell.variant(), cell.setup(), round, iterations));
				}
			}
		}
		List<EndToEndRun> e2e = new ArrayList<>();
		for (int round = 1; round <= plan.e2e().rounds(); round++) {
			for (StudyPlan.EndToEnd.Cell cell : plan.e2e().cells()) {
				Path file = cell.file(results, round);
				if (Files.exists(file)) {
					JsonNode r = json.readTree(file.toFile());
					long completes = r.path("completes").asLong();
					long firstHalf = r.path("completesFirstHalf").asLong();
					double window = r.path("window").asDouble();
					// a window that completed nothing has no cost per message: NaN, left
					// out of comparisons
					double cpu = (completes > 0) ? r.path("cpuUsPerCycle").asDouble() : Double.NaN;
					e2e.add(new EndToEndRun(cell.strategy(), cell.load().name(), round,
							r.path("cyclesPerSecond").asDouble(), cpu, r.path("latencyUs").path("p50").asDouble(),
							r.path("latencyUs").path("p99").asDouble(), r.path("clientCpuUsPerCycle").asDouble(),
							(firstHalf > 0) ? (double) (completes - firstHalf) / firstHalf - 1 : Double.NaN,
							r.path("lost").asLong(), r.path("errors").asLong(), r.path("refused").asLong() / window,
							r.path("duplicates").asLong()));
				}
			}
		}
		return new StudyData(core, e2e, lines(results.resolve("runs.tsv")), lines(results.resolve("machine.txt")));
	}

	private static List<String> lines(Path file) throws IOException {
		return Files.exists(file) ? Files.readAllLines(file) : List.of();
	}

	/**
	 * The variant's round scores in {@code setup}, by round (1-based; empty where it did
	 * not run).
	 */
	Optional<CoreRun> core(String variant, Setup setup, int round) {
		return this.core.stream()
			.filter(r -> r.variant().equals(variant) && r.setup().equals(setup) && r.round() == round)
			.findFirst();
	}

	Optional<EndToEndRun> e2e(String strategy, String load, int round) {
		return this.e2e.stream()
			.filter(r -> r.strategy().equals(strategy) && r.load().equals(load) && r.round() == round)
			.findFirst();
	}

	List<CoreRun> core(String variant, Setup setup) {
		return this.core.stream().filter(r -> r.variant().equals(variant) && r.setup().equals(setup)).toList();
	}

	List<EndToEndRun> e2e(String strategy, String load) {
		return this.e2e.stream().filter(r -> r.strategy().equals(strategy) && r.load().equals(load)).toList();
	}

}
