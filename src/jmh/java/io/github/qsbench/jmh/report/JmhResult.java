package io.github.qsbench.jmh.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

import io.github.qsbench.core.strategy.Strategy;

/**
 * One benchmark of a JMH JSON result file ({@code -rf json}): one strategy in one setup
 * under one JVM and collector, with the metrics the report uses.
 *
 * @param run the JVM and collector it ran on
 * @param setup readers and writers, from the result file's name
 * @param strategy the {@code strategy} parameter
 * @param completion the {@code completion} parameter ({@code GUARDED} where the result
 * file predates it)
 * @param settings what JMH was told (iterations, forks, parameters), for the report
 * header
 * @param scores Total (JMH's primary metric of the group), Reader and Writer
 * @param iterationMeans per-iteration means of the secondary metrics that are not scores:
 * {@code delivered}, {@code empty} and the gc profiler's
 * @param forks the messages delivered per µs fork by fork, the unit of the study's
 * intervals
 */
record JmhResult(Run run, Setup setup, Strategy strategy, String completion, Settings settings, Map<Role, Stats> scores,
		Map<String, Double> iterationMeans, Forks forks) {

	private static final Pattern SETUP_IN_NAME = Pattern.compile("-(\\d+)-(\\d+)\\.json$");

	private static final Pattern GC_FLAG = Pattern.compile("-XX:\\+Use(\\w+)GC");

	/** The completion every result had before the benchmark could choose. */
	static final String GUARDED = "GUARDED";

	/**
	 * The JVM and collector of a run; the collector is the one named on the fork's
	 * command line, {@code flags} the fork's other VM options (say
	 * {@code -XX:+UseBiasedLocking}), but for the heap's size, the temporary folder and
	 * where the Redis strategy's server is ({@code -Dqs.redis.*}), which change no
	 * measurement of the JVM's.
	 */
	record Run(String jdkVersion, String vm, String gc, String flags) implements Comparable<Run> {

		String label() {
			return "JDK " + jdkVersion + " / " + gc + (flags.isEmpty() ? "" : " " + flags);
		}

		/**
		 * For narrow table headers and chart legends: "JDK 17 Parallel", "JDK 17 Parallel
		 * +UseBiasedLocking".
		 */
		String shortLabel() {
			return "JDK " + major() + " " + gc.replaceFirst("GC$", "")
					+ (flags.isEmpty() ? "" : " " + flags.replace("-XX:", ""));
		}

		int major() {
			return Integer.parseInt(jdkVersion.split("[.+-]")[0]);
		}

		private static final Comparator<Run> ORDER = Comparator.comparingInt(Run::major)
			.thenComparing(run -> !run.gc().equals("ParallelGC"))
			.thenComparing(Run::gc)
			.thenComparing(Run::flags);

		/**
		 * By JDK, then Parallel (the thesis's Java 8 default) before the other
		 * collectors.
		 */
		@Override
		public int compareTo(Run other) {
			return ORDER.compare(this, other);
		}

	}

	record Settings(String jmhVersion, String benchmark, String mode, int warmupIterations, String warmupTime,
			int measurementIterations, String measurementTime, int forks, String jvm, List<String> jvmArgs,
			Map<String, String> params) {

	}

	/**
	 * The {@code delivered} metric (messages delivered per µs) of each fork, iteration by
	 * iteration. Each fork is a fresh JVM, so forks are independent replicates.
	 *
	 * @param iterations per fork, its measured iterations in order (none empty)
	 */
	record Forks(List<double[]> iterations) {

		static Forks of(JsonNode metric) {
			List<double[]> forks = new ArrayList<>();
			for (JsonNode fork : metric.path("rawData")) {
				List<Double> values = new ArrayList<>();
				fork.forEach(x -> values.add(number(x)));
				if (!values.isEmpty()) {
					forks.add(values.stream().mapToDouble(Double::doubleValue).toArray());
				}
			}
			return new Forks(List.copyOf(forks));
		}

		/** Each fork's mean over its measured iterations: the study's unit. */
		double[] means() {
			return this.iterations.stream().mapToDouble(f -> Arrays.stream(f).average().orElseThrow()).toArray();
		}

		/** Each fork's first measured iteration. */
		double[] first() {
			return this.iterations.stream().mapToDouble(f -> f[0]).toArray();
		}

		/** Each fork's last measured iteration. */
		double[] last() {
			return this.iterations.stream().mapToDouble(f -> f[f.length - 1]).toArray();
		}

	}

	enum Role {

		Total, Reader, Writer

	}

	/**
	 * Reads one result file of one setup. JMH's JSON records the thread count but not how
	 * {@code -tg} split it, so the file name must end in {@code -READERS-WRITERS.json},
	 * as the study script names it.
	 */
	static List<JmhResult> read(Path file) throws IOException {
		Matcher name = SETUP_IN_NAME.matcher(file.getFileName().toString());
		if (!name.find()) {
			throw new IllegalArgumentException(file + ": name must end in -READERS-WRITERS.json");
		}
		Setup setup = new Setup(Integer.parseInt(name.group(1)), Integer.parseInt(name.group(2)));
		JsonNode root = new ObjectMapper().readTree(Files.readString(file));
		List<JmhResult> results = new ArrayList<>();
		for (JsonNode benchmark : root) {
			results.add(of(benchmark, setup));
		}
		return results;
	}

	private static JmhResult of(JsonNode b, Setup setup) {
		List<String> jvmArgs = new ArrayList<>();
		b.path("jvmArgs").forEach(a -> jvmArgs.add(a.asString()));
		Matcher gc = GC_FLAG.matcher(String.join(" ", jvmArgs));
		String flags = jvmArgs.stream()
			.filter(a -> !GC_FLAG.matcher(a).matches() && !a.startsWith("-Djava.io.tmpdir=") && !a.startsWith("-Xms")
					&& !a.startsWith("-Xmx") && !a.startsWith("-Dqs.redis."))
			.collect(Collectors.joining(" "));
		Run run = new Run(b.path("jdkVersion").asString(),
				b.path("vmName").asString() + " " + b.path("vmVersion").asString(),
				gc.find() ? gc.group(1) + "GC" : "JVM default GC", flags);

		Map<String, String> params = new LinkedHashMap<>();
		b.path("params").properties().forEach(e -> params.put(e.getKey(), e.getValue().asString()));
		Settings settings = new Settings(b.path("jmhVersion").asString(), b.path("benchmark").asString(),
				b.path("mode").asString(), b.path("warmupIterations").asInt(), b.path("warmupTime").asString(),
				b.path("measurementIterations").asInt(), b.path("measurementTime").asString(), b.path("forks").asInt(),
				b.path("jvm").asString(), jvmArgs, params);

		if (b.path("threads").asInt() != setup.threads()) {
			throw new IllegalArgumentException(
					"file name says setup " + setup + " but JMH ran " + b.path("threads").asInt() + " threads");
		}

		JsonNode secondary = b.path("secondaryMetrics");
		Map<Role, Stats> scores = new LinkedHashMap<>();
		scores.put(Role.Total, stats(b.path("primaryMetric")));
		scores.put(Role.Reader, stats(secondary.path("reader")));
		scores.put(Role.Writer, stats(secondary.path("writer")));

		Map<String, Double> means = new LinkedHashMap<>();
		secondary.properties().forEach(e -> {
			if (!e.getKey().equals("reader") && !e.getKey().equals("writer")) {
				means.put(e.getKey(), Stats.mean(iterations(e.getValue())));
			}
		});
		return new JmhResult(run, setup, Strategy.valueOf(params.get("strategy")),
				params.getOrDefault("completion", GUARDED), settings, scores, means,
				Forks.of(secondary.path("delivered")));
	}

	private static Stats stats(JsonNode metric) {
		JsonNode ci = metric.path("scoreConfidence");
		return Stats.of(number(metric.path("score")), number(metric.path("scoreError")), number(ci.get(0)),
				number(ci.get(1)), iterations(metric));
	}

	private static List<Double> iterations(JsonNode metric) {
		List<Double> all = new ArrayList<>();
		for (JsonNode fork : metric.path("rawData")) {
			fork.forEach(x -> all.add(number(x)));
		}
		return all;
	}

	/**
	 * JMH writes a score it could not compute (an error from one iteration) as the string
	 * "NaN".
	 */
	private static double number(JsonNode node) {
		return node.isNumber() ? node.doubleValue() : Double.parseDouble(node.asString());
	}

}
