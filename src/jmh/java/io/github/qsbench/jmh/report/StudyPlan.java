package io.github.qsbench.jmh.report;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import org.yaml.snakeyaml.Yaml;

import io.github.qsbench.core.strategy.Strategy;

/**
 * The study of docs/findings.md as {@code study/plan.yml} fixes it: the core's cells, the
 * end-to-end loads and cells, the questions, and every round's order, drawn from the
 * plan's seed so that a resumed or repeated study runs the same order.
 *
 * <p>
 * {@code java ... StudyPlan runs PLAN RESULTS} prints the runs not yet in RESULTS, one
 * per line in the order to run them (scripts/study.sh reads them); {@code dry-run} prints
 * the plan, its counts and its predicted time.
 */
record StudyPlan(long seed, double alpha, double margin, Core core, EndToEnd e2e, List<Question> questions,
		Question variability, String text) {

	/**
	 * The thesis's benchmark in process: {@code setups} × {@code variants}, one fork per
	 * round.
	 */
	record Core(int java, String jvmArgs, int rounds, int warmups, String warmupTime, int iterations,
			String iterationTime, double drift, List<Cell> cells) {

		/**
		 * One core cell: a strategy (with {@code @eager}, eager eviction) in a
		 * readers-writers setup.
		 */
		record Cell(String variant, Setup setup) {

			Strategy strategy() {
				return strategyOf(this.variant.replace("@eager", ""));
			}

			String eviction() {
				return this.variant.endsWith("@eager") ? "EAGER" : "LAZY";
			}

			Path file(Path results, int round) {
				return results.resolve("core/r" + round + "/" + this.setup + "/" + this.variant + ".json");
			}

		}

		double secondsPerFork() {
			return 1.5 + seconds(this.warmupTime) * this.warmups + seconds(this.iterationTime) * this.iterations;
		}

	}

	/** The lean client's load: RequestPathLoad's options. */
	record Load(String name, int producers, int consumers, int queues, int backlog, int hold, boolean refusals,
			String serviceArgs) {

		List<String> clientArgs() {
			// a completion answered 404 counted as a message delivered twice, not an
			// error: the
			// page shows the count beside each strategy's guarantee
			List<String> args = new ArrayList<>(
					List.of("--producers", "" + this.producers, "--consumers", "" + this.consumers, "--queues",
							"" + this.queues, "--backlog", "" + this.backlog, "--duplicates", "true"));
			if (this.hold > 0) {
				args.addAll(List.of("--hold", "" + this.hold));
			}
			if (this.refusals) {
				args.addAll(List.of("--refusals", "true"));
			}
			return args;
		}

	}

	/**
	 * The service under the lean client: each start measures one load of one strategy.
	 */
	record EndToEnd(int java, String jvmArgs, String serviceArgs, int rounds, int warmup, int window,
			Map<String, Load> loads, List<Cell> cells) {

		record Cell(String strategy, Load load) {

			Path file(Path results, int round) {
				return results.resolve("e2e/r" + round + "/" + this.load.name() + "/" + this.strategy + ".json");
			}

		}

		double secondsPerStart() {
			return 6 + this.warmup + this.window;
		}

	}

	/**
	 * One row of the answer table: {@code a} over {@code b}, in every core setup (unless
	 * {@code core} is false) and every load both were measured in ({@code loads}, when
	 * set, names the only loads).
	 */
	record Question(String title, String a, String b, String source, String claim, boolean thesis, boolean latency,
			boolean core, List<String> loads) {

	}

	/**
	 * One run, as scripts/study.sh reads it: tab-separated fields, kind, round, label,
	 * result file, Java version, then the kind's own (core: strategy constant, eviction,
	 * readers,writers, warm-up iterations and time, measured iterations and time, fork
	 * JVM options; e2e: strategy, JVM options, service arguments, client arguments,
	 * warm-up s, window s).
	 */
	record Run(String kind, int round, String line) {

	}

	static StudyPlan load(Path file) throws IOException {
		String text = Files.readString(file);
		Map<String, Object> root;
		try (Reader reader = Files.newBufferedReader(file)) {
			root = new Yaml().load(reader);
		}
		Map<String, Object> c = map(root, "core");
		List<Core.Cell> coreCells = new ArrayList<>();
		for (Map<String, Object> group : maps(c, "cells")) {
			for (Object setup : list(group, "setups")) {
				for (Object variant : list(group, "strategies")) {
					coreCells.add(new Core.Cell(variant.toString(), Setup.parse(setup.toString())));
				}
			}
		}
		coreCells.forEach(Core.Cell::strategy); // every name known
		Core core = new Core(integer(c, "java"), c.get("jvmArgs").toString(), integer(c, "rounds"),
				integer(map(c, "warmup"), "iterations"), map(c, "warmup").get("time").toString(),
				integer(map(c, "measurement"), "iterations"), map(c, "measurement").get("time").toString(),
				number(c, "drift"), List.copyOf(coreCells));
		Map<String, Object> e = map(root, "e2e");
		Map<String, Load> loads = new LinkedHashMap<>();
		map(e, "loads").forEach((name, value) -> {
			@SuppressWarnings("unchecked")
			Map<String, Object> l = (Map<String, Object>) value;
			loads.put(name,
					new Load(name, integer(l, "producers"), integer(l, "consumers"), integer(l, "queues"),
							integer(l, "backlog"), l.containsKey("hold") ? integer(l, "hold") : 0,
							Boolean.TRUE.equals(l.get("refusals")), String.valueOf(l.getOrDefault("serviceArgs", ""))));
		});
		List<EndToEnd.Cell> e2eCells = new ArrayList<>();
		for (Map<String, Object> group : maps(e, "cells")) {
			Load load = loads.get(group.get("load").toString());
			if (load == null) {
				throw new IllegalArgumentException("no load named " + group.get("load"));
			}
			for (Object strategy : list(group, "strategies")) {
				strategyOf(strategy.toString());
				e2eCells.add(new EndToEnd.Cell(strategy.toString(), load));
			}
		}
		EndToEnd e2e = new EndToEnd(integer(e, "java"), e.get("jvmArgs").toString(), e.get("serviceArgs").toString(),
				integer(e, "rounds"), integer(e, "warmup"), integer(e, "window"), Map.copyOf(loads),
				List.copyOf(e2eCells));
		List<Question> questions = maps(root, "questions").stream().map(StudyPlan::question).toList();
		return new StudyPlan(((Number) root.get("seed")).longValue(), number(root, "alpha"), number(root, "margin"),
				core, e2e, questions, question(map(root, "variability")), text);
	}

	private static Question question(Map<String, Object> q) {
		List<String> loads = q.containsKey("loads") ? list(q, "loads").stream().map(Object::toString).toList() : null;
		return new Question(String.valueOf(q.getOrDefault("title", "")), q.get("a").toString(), q.get("b").toString(),
				q.get("source").toString(), (q.get("claim") != null) ? q.get("claim").toString() : "",
				Boolean.TRUE.equals(q.get("thesis")), Boolean.TRUE.equals(q.get("latency")),
				!Boolean.FALSE.equals(q.get("core")), loads);
	}

	/**
	 * Every run of the plan in the order to run it: the core's rounds, each its cells in
	 * an order of its own, then the end-to-end rounds likewise. Drawn from
	 * {@code seed + round} (core) and {@code seed + 1000 + round} (end to end), so the
	 * order is the plan's alone.
	 */
	List<Run> runs(Path results) {
		List<Run> runs = new ArrayList<>();
		Core c = this.core;
		for (int round = 1; round <= c.rounds(); round++) {
			List<Core.Cell> order = new ArrayList<>(c.cells());
			Collections.shuffle(order, new Random(this.seed + round));
			for (Core.Cell cell : order) {
				runs.add(new Run("core", round, String.join("\t", "core", "" + round,
						cell.variant() + " " + cell.setup(), cell.file(results, round).toString(), "" + c.java(),
						cell.strategy().name(), cell.eviction(), cell.setup().readers() + "," + cell.setup().writers(),
						"" + c.warmups(), c.warmupTime(), "" + c.iterations(), c.iterationTime(), c.jvmArgs())));
			}
		}
		EndToEnd e = this.e2e;
		for (int round = 1; round <= e.rounds(); round++) {
			List<EndToEnd.Cell> order = new ArrayList<>(e.cells());
			Collections.shuffle(order, new Random(this.seed + 1000 + round));
			for (EndToEnd.Cell cell : order) {
				runs.add(new Run("e2e", round,
						String.join("\t", "e2e", "" + round, cell.strategy() + " " + cell.load().name(),
								cell.file(results, round).toString(), "" + e.java(), cell.strategy(), e.jvmArgs(),
								(e.serviceArgs() + " " + cell.load().serviceArgs()).trim(),
								String.join(" ", cell.load().clientArgs()), "" + e.warmup(), "" + e.window())));
			}
		}
		return runs;
	}

	/** Where a run line keeps its result file (its fourth field). */
	static Path fileOf(Run run) {
		return Path.of(run.line().split("\t")[3]);
	}

	/** The strategies measured end to end in {@code load}, in the plan's order. */
	Set<String> e2eStrategies(String load) {
		Set<String> strategies = new LinkedHashSet<>();
		this.e2e.cells().stream().filter(c -> c.load().name().equals(load)).forEach(c -> strategies.add(c.strategy()));
		return strategies;
	}

	static Strategy strategyOf(String profile) {
		return Strategy.ofProfile(profile)
			.orElseThrow(() -> new IllegalArgumentException("no strategy named " + profile + " in the Strategy enum"));
	}

	static double seconds(String jmhTime) {
		if (jmhTime.endsWith("ms")) {
			return Double.parseDouble(jmhTime.substring(0, jmhTime.length() - 2)) / 1000;
		}
		return Double.parseDouble(jmhTime.substring(0, jmhTime.length() - 1));
	}

	public static void main(String[] args) throws IOException {
		StudyPlan plan = load(Path.of(args[1]));
		Path results = Path.of(args[2]);
		List<Run> runs = plan.runs(results);
		List<Run> pending = runs.stream().filter(r -> !Files.exists(fileOf(r))).toList();
		if (args[0].equals("runs")) {
			pending.forEach(r -> System.out.println(r.line()));
			return;
		}
		long core = pending.stream().filter(r -> r.kind().equals("core")).count();
		long e2e = pending.size() - core;
		double seconds = core * plan.core().secondsPerFork() + e2e * plan.e2e().secondsPerStart();
		System.out.printf(Locale.ROOT,
				"%s, seed %d: core %d cells x %d rounds (JDK %d, %d x %s warm-up, %d x %s measured), "
						+ "end to end %d cells x %d rounds (JDK %d, %d s warm-up, %d s window)%n",
				args[1], plan.seed(), plan.core().cells().size(), plan.core().rounds(), plan.core().java(),
				plan.core().warmups(), plan.core().warmupTime(), plan.core().iterations(), plan.core().iterationTime(),
				plan.e2e().cells().size(), plan.e2e().rounds(), plan.e2e().java(), plan.e2e().warmup(),
				plan.e2e().window());
		System.out.printf(Locale.ROOT,
				"runs: %d of %d still to run (%d core forks, %d service starts): about %.0f min%n", pending.size(),
				runs.size(), core, e2e, seconds / 60);
		System.out.printf("questions: %d, and variability%n", plan.questions().size());
		pending.stream().limit(5).forEach(r -> System.out.println("  next: " + r.line().replace('\t', ' ')));
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> map(Map<String, Object> parent, String key) {
		Object value = parent.get(key);
		if (!(value instanceof Map)) {
			throw new IllegalArgumentException("study plan: " + key + " is missing");
		}
		return (Map<String, Object>) value;
	}

	@SuppressWarnings("unchecked")
	private static List<Map<String, Object>> maps(Map<String, Object> parent, String key) {
		return (List<Map<String, Object>>) parent.get(key);
	}

	private static List<?> list(Map<String, Object> parent, String key) {
		return (List<?>) parent.get(key);
	}

	private static int integer(Map<String, Object> parent, String key) {
		return ((Number) parent.get(key)).intValue();
	}

	private static double number(Map<String, Object> parent, String key) {
		return ((Number) parent.get(key)).doubleValue();
	}

}
