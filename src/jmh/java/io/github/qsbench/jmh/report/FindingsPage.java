package io.github.qsbench.jmh.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

import io.github.qsbench.core.Eviction;
import io.github.qsbench.core.strategy.Strategy;
import io.github.qsbench.jmh.report.JmhResult.Role;
import io.github.qsbench.jmh.report.PairedRatio.Comparison;
import io.github.qsbench.jmh.report.PairedRatio.Result;
import io.github.qsbench.jmh.report.PairedRatio.Spread;
import io.github.qsbench.jmh.report.PairedRatio.Verdict;
import io.github.qsbench.jmh.report.StudyData.CoreRun;
import io.github.qsbench.jmh.report.StudyData.EndToEndRun;
import io.github.qsbench.jmh.report.StudyPlan.Question;

/**
 * Writes docs/findings.md and its forest plot from a study's plan and results alone, so
 * that the same results give the same page byte for byte
 * ({@code scripts/study.sh --report-only}, checked in CI). The page opens with the
 * answer: one row per question, each cell a ratio with its corrected interval and
 * verdict; then the plot, what the figures say, and the cell-by-cell tables the answers
 * come from.
 *
 * <pre>
 * java ... FindingsPage study/plan.yml results/study docs/findings.md
 * </pre>
 */
final class FindingsPage {

	static final List<Setup> SETUPS = List.of(new Setup(1, 1), new Setup(4, 1), new Setup(1, 4), new Setup(4, 4));

	private final StudyPlan plan;

	private final StudyData data;

	/** Every comparison's corrected result, by key: question index, column, measure. */
	private final Map<String, Result> results = new LinkedHashMap<>();

	private final Map<String, Spread> spreads = new LinkedHashMap<>();

	private final List<ForestPlot.Row> forest = new ArrayList<>();

	private final ThesisResults thesis = ThesisResults.load();

	FindingsPage(StudyPlan plan, StudyData data) {
		this.plan = plan;
		this.data = data;
		compare();
	}

	public static void main(String[] args) throws IOException {
		StudyPlan plan = StudyPlan.load(Path.of(args[0]));
		StudyData data = StudyData.read(plan, Path.of(args[1]));
		Path page = Path.of(args[2]);
		FindingsPage findings = new FindingsPage(plan, data);
		Files.writeString(page, findings.markdown());
		Path plot = page.resolveSibling("findings/forest.svg");
		Files.createDirectories(plot.getParent());
		Files.writeString(plot, ForestPlot.svg(findings.forest, plan.margin()));
		System.out.println("wrote " + page + " and " + plot);
	}

	// ---- the comparisons, family by family ----

	private void compare() {
		Map<String, List<Comparison>> families = new LinkedHashMap<>();
		List<Question> questions = this.plan.questions();
		for (int i = 0; i < questions.size(); i++) {
			Question q = questions.get(i);
			if (q.core()) {
				for (Setup setup : SETUPS) {
					List<Double> logs = new ArrayList<>();
					for (int round = 1; round <= this.plan.core().rounds(); round++) {
						Optional<CoreRun> a = this.data.core(q.a(), setup, round);
						Optional<CoreRun> b = this.data.core(q.b(), setup, round);
						if (a.isPresent() && b.isPresent()) {
							logs.add(Math.log(a.get().score() / b.get().score()));
						}
					}
					add(families, "core " + setup, "delivered", i, logs);
				}
			}
			for (String load : this.plan.e2e().loads().keySet().stream().sorted().toList()) {
				if (q.loads() != null && !q.loads().contains(load)) {
					continue;
				}
				add(families, "e2e " + load, "msgs/s", i, e2eLogs(q, load, EndToEndRun::messagesPerSecond));
				add(families, "e2e " + load, "CPU/msg", i, e2eLogs(q, load, EndToEndRun::cpuUsPerMessage));
				if (q.latency()) {
					add(families, "e2e " + load, "p99", i, e2eLogs(q, load, EndToEndRun::p99Us));
				}
			}
		}
		families.forEach((family, comparisons) -> PairedRatio.holm(comparisons, this.plan.alpha(), this.plan.margin())
			.forEach(r -> this.results.put(r.comparison().key(), r)));
		for (Question q : questions) {
			int i = questions.indexOf(q);
			this.results.forEach((key, r) -> {
				if (key.startsWith(i + "|")) {
					String[] parts = key.split("\\|");
					this.forest.add(new ForestPlot.Row(q.a() + " ÷ " + q.b() + " · " + parts[1] + " " + parts[2], r));
				}
			});
		}
		spreads();
	}

	private List<Double> e2eLogs(Question q, String load, ToDoubleFunction<EndToEndRun> figure) {
		List<Double> logs = new ArrayList<>();
		for (int round = 1; round <= this.plan.e2e().rounds(); round++) {
			Optional<EndToEndRun> a = this.data.e2e(q.a(), load, round);
			Optional<EndToEndRun> b = this.data.e2e(q.b(), load, round);
			if (a.isPresent() && b.isPresent()) {
				double log = Math.log(figure.applyAsDouble(a.get()) / figure.applyAsDouble(b.get()));
				if (Double.isFinite(log)) { // a window that completed nothing compares
											// with none
					logs.add(log);
				}
			}
		}
		return logs;
	}

	private static void add(Map<String, List<Comparison>> families, String column, String measure, int question,
			List<Double> logs) {
		if (logs.size() >= 2) {
			families.computeIfAbsent(column + "|" + measure, k -> new ArrayList<>())
				.add(new Comparison(question + "|" + column + "|" + measure,
						logs.stream().mapToDouble(Double::doubleValue).toArray()));
		}
	}

	/** Variability: σ of log round scores, a over b, per setup; Holm over the setups. */
	private void spreads() {
		Question v = this.plan.variability();
		List<Spread> first = new ArrayList<>();
		for (Setup setup : SETUPS) {
			double[] a = logScores(v.a(), setup);
			double[] b = logScores(v.b(), setup);
			if (a.length >= 3 && b.length >= 3) {
				first.add(Spread.of(setup.toString(), a, b, this.plan.alpha()));
			}
		}
		List<Spread> byP = new ArrayList<>(first);
		byP.sort((x, y) -> Double.compare(x.p(), y.p()));
		boolean stopped = false;
		double level = this.plan.alpha();
		for (int k = 0; k < byP.size(); k++) {
			Spread s = byP.get(k);
			if (!stopped) {
				level = this.plan.alpha() / (byP.size() - k);
				stopped = s.p() > level;
			}
			Setup setup = Setup.parse(s.key());
			this.spreads.put(s.key(), Spread.of(s.key(), logScores(v.a(), setup), logScores(v.b(), setup), level));
		}
	}

	private double[] logScores(String variant, Setup setup) {
		return this.data.core(variant, setup).stream().mapToDouble(r -> Math.log(r.score())).toArray();
	}

	// ---- the page ----

	String markdown() {
		StringBuilder page = new StringBuilder();
		double m = this.plan.margin() * 100;
		page.append("# Findings: what each way of writing thread-safe code costs\n\n");
		page.append(String.format(Locale.ROOT, """
				Each cell is a ÷ b with its 95%% interval, corrected by Holm within its column: in the core
				(JMH, JDK %d) messages delivered per µs, %d rounds as the unit; end to end (HTTP, JDK %d, virtual
				threads) messages per second and the service's CPU per message, %d paired starts as the unit.
				▲ a's figure higher (faster; for CPU and p99, dearer), ▼ lower, ≈ **equivalent within ±%.0f%%**,
				? undetermined; † a fork still warming. How it was run and every table: below the plot.

				""", this.plan.core().java(), this.plan.core().rounds(), this.plan.e2e().java(),
				this.plan.e2e().rounds(), m));
		page.append("| question | a ÷ b | core 1-1 | core 4-1 | core 1-4 | core 4-4 | end to end | said before |\n");
		page.append("|---|---|---|---|---|---|---|---|\n");
		List<Question> questions = this.plan.questions();
		for (int i = 0; i < questions.size(); i++) {
			Question q = questions.get(i);
			page.append("| ")
				.append(q.title())
				.append(" | `")
				.append(q.a())
				.append("` ÷ `")
				.append(q.b())
				.append("` |");
			for (Setup setup : SETUPS) {
				page.append(' ').append(coreCell(i, q, setup)).append(" |");
			}
			page.append(' ').append(e2eCell(i)).append(" | ").append(claim(q)).append(" |\n");
		}
		Question v = this.plan.variability();
		page.append("| variability: σ of round scores | `").append(v.a()).append("` ÷ `").append(v.b()).append("` |");
		for (Setup setup : SETUPS) {
			Spread s = this.spreads.get(setup.toString());
			page.append(' ').append((s == null) ? "" : spreadCell(s)).append(" |");
		}
		page.append(" | ").append(v.source()).append(": ").append(v.claim()).append(" |\n\n");
		page.append("![Every ratio of the table with its corrected interval, on a log scale](findings/forest.svg)\n\n");
		page.append(summary());
		page.append(method());
		page.append(coreTables());
		page.append(e2eTables());
		page.append(runs());
		return page.toString();
	}

	private String coreCell(int i, Question q, Setup setup) {
		Result r = this.results.get(i + "|core " + setup + "|delivered");
		if (r == null) {
			return "";
		}
		boolean warming = warming(q.a(), setup) || warming(q.b(), setup);
		return format(r) + (warming ? " †" : "");
	}

	private String e2eCell(int i) {
		List<String> parts = new ArrayList<>();
		for (String load : this.plan.e2e().loads().keySet().stream().sorted().toList()) {
			Result msgs = this.results.get(i + "|e2e " + load + "|msgs/s");
			Result cpu = this.results.get(i + "|e2e " + load + "|CPU/msg");
			Result p99 = this.results.get(i + "|e2e " + load + "|p99");
			if (msgs != null) {
				parts.add(load + ": " + format(msgs) + "; CPU " + format(cpu)
						+ ((p99 != null) ? "; p99 " + format(p99) : ""));
			}
		}
		return String.join("<br>", parts);
	}

	private String claim(Question q) {
		List<String> parts = new ArrayList<>();
		if (q.thesis()) {
			List<String> ratios = new ArrayList<>();
			for (Setup setup : SETUPS) {
				Map<Strategy, Stats> total = this.thesis.of(setup).getOrDefault(Role.Total, Map.of());
				Stats a = total.get(StudyPlan.strategyOf(q.a()));
				Stats b = total.get(StudyPlan.strategyOf(q.b()));
				if (a != null && b != null) {
					ratios.add(setup + " " + number(a.score() / b.score()));
				}
			}
			parts.add(q.source() + " (Total): " + String.join(", ", ratios));
		}
		else {
			parts.add(q.source() + (q.claim().isEmpty() ? "" : ": " + q.claim()));
		}
		return String.join("; ", parts);
	}

	static String format(Result r) {
		if (Double.isNaN(r.low())) {
			return "? " + number(r.ratio());
		}
		return r.verdict().mark() + " " + number(r.ratio()) + " [" + number(r.low()) + ", " + number(r.high()) + "]";
	}

	private static String spreadCell(Spread s) {
		String mark = (s.low() > 1) ? "▲" : (s.high() < 1) ? "▼" : "?";
		return mark + " " + number(s.ratio()) + " [" + number(s.low()) + ", " + number(s.high()) + "]";
	}

	/** Three significant figures, or fewer decimals for large ratios. */
	static String number(double x) {
		if (Double.isNaN(x)) {
			return "n/a";
		}
		double a = Math.abs(x);
		String f = (a >= 10_000 || a < 0.001) ? "%.1e"
				: (a >= 100) ? "%.0f" : (a >= 10) ? "%.1f" : (a >= 0.1) ? "%.2f" : "%.3f";
		return String.format(Locale.ROOT, f, x);
	}

	private boolean warming(String variant, Setup setup) {
		double[] drifts = this.data.core(variant, setup).stream().mapToDouble(CoreRun::drift).toArray();
		return drifts.length > 0 && Math.abs(Stats.median(drifts)) > this.plan.core().drift();
	}

	/** What the figures say, every number from the results. */
	private String summary() {
		StringBuilder s = new StringBuilder("## What the figures say\n\n");
		Map<String, int[]> counts = new LinkedHashMap<>();
		this.results.forEach((key, r) -> {
			String[] parts = key.split("\\|");
			String kind = parts[1].startsWith("core") ? "the core" : "end to end, " + parts[2];
			counts.computeIfAbsent(kind, k -> new int[4])[r.verdict().ordinal()]++;
		});
		counts.forEach((kind,
				c) -> s.append(String.format(Locale.ROOT,
						"- %s: %d comparisons, %d higher, %d lower, %d equivalent within ±%.0f%%, %d undetermined.%n",
						kind, c[0] + c[1] + c[2] + c[3], c[0], c[1], c[2], this.plan.margin() * 100, c[3])));
		Result largestCore = null;
		Result largestE2e = null;
		for (Map.Entry<String, Result> e : this.results.entrySet()) {
			Result r = e.getValue();
			boolean core = e.getKey().contains("|core ");
			boolean msgs = e.getKey().endsWith("|msgs/s");
			if (core && (largestCore == null
					|| Math.abs(Math.log(r.ratio())) > Math.abs(Math.log(largestCore.ratio())))) {
				largestCore = r;
			}
			if (msgs && (largestE2e == null
					|| Math.abs(Math.log(r.ratio())) > Math.abs(Math.log(largestE2e.ratio())))) {
				largestE2e = r;
			}
		}
		if (largestCore != null && largestE2e != null) {
			// the reading only where the figures bear it out: the core's widest gap the
			// wider
			boolean diluted = Math.abs(Math.log(largestCore.ratio())) > Math.abs(Math.log(largestE2e.ratio()));
			s.append(String.format(Locale.ROOT, """
					- The widest gap in the core is %s (%s); end to end the widest in messages per second is %s (%s)%s
					""", number(largestCore.ratio()), describe(largestCore.comparison().key()),
					number(largestE2e.ratio()), describe(largestE2e.comparison().key()),
					diluted ? ":\n  what thread safety costs in the core is diluted by what a request costs around it."
							: "."));
		}
		for (String load : this.plan.e2e().loads().keySet().stream().sorted().toList()) {
			List<EndToEndRun> runs = this.data.e2e().stream().filter(r -> r.load().equals(load)).toList();
			if (!runs.isEmpty()) {
				double cpu = Stats.median(runs.stream().map(EndToEndRun::cpuUsPerMessage).toList());
				double mps = Stats.median(runs.stream().map(EndToEndRun::messagesPerSecond).toList());
				long lost = runs.stream().mapToLong(EndToEndRun::lost).sum();
				s.append(String.format(Locale.ROOT,
						"- End to end under `%s`, a message (push, poll, delete) costs the service a median %.0f µs of CPU "
								+ "at %.0f messages/s over all its starts; %d lost in %d starts.%n",
						load, cpu, mps, lost, runs.size()));
			}
		}
		return s.append('\n').toString();
	}

	private String describe(String key) {
		String[] parts = key.split("\\|");
		Question q = this.plan.questions().get(Integer.parseInt(parts[0]));
		return "`" + q.a() + "` ÷ `" + q.b() + "`, " + parts[1];
	}

	private String method() {
		StudyPlan.Core c = this.plan.core();
		StudyPlan.EndToEnd e = this.plan.e2e();
		return String.format(Locale.ROOT, """
				## How it was run

				One command, `flock /tmp/qs-bench.lock scripts/study.sh --standard`, runs the plan in
				[study/plan.yml](../study/plan.yml) (seed %d) and resumes where it stopped; `scripts/study.sh
				--report-only` writes this page again from [results/study/](../results/study/) alone, and CI
				checks that it comes out byte for byte. Method and reasons: [studies.md](studies.md).

				- **Core**: `QueueServiceBenchmark.Thrpt` (the thesis's benchmark: 8 queues, readers poll and
				  complete, writers push), JDK %d, `%s`; %d rounds, each one fork of every cell in an order
				  shuffled for the round (`Random(seed + round)`); a fork warms %d × %s and measures %d × %s.
				  The unit is the round: a ratio's interval is Student's t over the %d per-round log ratios.
				  A cell is marked † when its forks' second measured half differs from the first by more than
				  %.0f%% (median over rounds).
				- **End to end**: the service jar, JDK %d, `%s %s`, under
				  `scripts/bench/RequestPathLoad.java` (raw sockets, closed loop, 100-byte messages) on the same
				  two CPUs; each start fresh, %d s of load, then a %d s window. A round starts every strategy of
				  a load once, in a shuffled order; the round pairs them (%d rounds).
				- **Corrections**: Holm's step-down within each column (each core setup, each load and measure
				  is a family); each interval at the level its step used, so the verdict and the interval agree.
				  Equivalent: the whole corrected interval within [%s, %s], the margin fixed in the plan before the run.

				""", this.plan.seed(), c.java(), c.jvmArgs(), c.rounds(), c.warmups(), c.warmupTime(), c.iterations(),
				c.iterationTime(), c.rounds(), c.drift() * 100, e.java(), e.jvmArgs(), e.serviceArgs(), e.warmup(),
				e.window(), e.rounds(), number(1 / (1 + this.plan.margin())), number(1 + this.plan.margin()));
	}

	private String coreTables() {
		StringBuilder s = new StringBuilder("## The core, cell by cell\n\n");
		s.append("Messages delivered per µs: the median of the rounds, their range, and the median warm-up drift ");
		s.append("(second measured half over the first).\n\n");
		s.append("| strategy | 1-1 | 4-1 | 1-4 | 4-4 |\n|---|---|---|---|---|\n");
		List<String> variants = this.plan.core().cells().stream().map(StudyPlan.Core.Cell::variant).distinct().toList();
		for (String variant : variants) {
			s.append("| `").append(variant).append("` |");
			for (Setup setup : SETUPS) {
				List<CoreRun> runs = this.data.core(variant, setup);
				if (runs.isEmpty()) {
					s.append(" |");
					continue;
				}
				double[] scores = runs.stream().mapToDouble(CoreRun::score).toArray();
				double drift = Stats.median(runs.stream().mapToDouble(CoreRun::drift).toArray());
				s.append(String.format(Locale.ROOT, " %s (%s–%s) drift %+.0f%%%s |", number(Stats.median(scores)),
						number(Arrays.stream(scores).min().orElseThrow()),
						number(Arrays.stream(scores).max().orElseThrow()), drift * 100,
						(Math.abs(drift) > this.plan.core().drift()) ? " †" : ""));
			}
			s.append('\n');
		}
		return s.append('\n').toString();
	}

	private String e2eTables() {
		StringBuilder s = new StringBuilder("## End to end, cell by cell\n\n");
		s.append("Medians over the starts: messages completed per second, the service's CPU per message, every ");
		s.append("request's round trip (p50, p99), the client's own CPU per message, the window's second half ");
		s.append("over its first, messages lost (pushed, never completed) and delivered twice (a completion ");
		s.append("answered 404: another consumer completed it first) in all starts, beside what the strategy ");
		s.append("promises.\n\n");
		for (String load : this.plan.e2e().loads().keySet().stream().sorted().toList()) {
			StudyPlan.Load l = this.plan.e2e().loads().get(load);
			s.append(String.format(Locale.ROOT, "**%s**: %d producers, %d consumers, %d queues%s%s%s.%n%n", load,
					l.producers(), l.consumers(), l.queues(),
					(l.backlog() > 0)
							? ", producers wait while " + l.backlog() + " messages are pushed and not completed" : "",
					(l.hold() > 0) ? ", each consumer holding " + l.hold() + " leased messages" : "",
					l.refusals()
							? ", producers unbounded, a push refused (429) retried after 1 ms, the service run with `"
									+ l.serviceArgs() + "`"
							: ""));
			s.append("| strategy | starts | msgs/s | CPU µs/msg | p50 µs | p99 µs | client CPU µs/msg | drift | lost "
					+ "| twice | promises |");
			s.append(l.refusals() ? " refused/s |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n"
					: "\n|---|---|---|---|---|---|---|---|---|---|---|\n");
			for (String strategy : this.plan.e2eStrategies(load)) {
				List<EndToEndRun> runs = this.data.e2e(strategy, load);
				if (runs.isEmpty()) {
					continue;
				}
				s.append(String.format(Locale.ROOT,
						"| `%s` | %d | %,.0f | %.1f | %.0f | %.0f | %.1f | %+.0f%% | %d | %d | %s |%s%n", strategy,
						runs.size(), median(runs, EndToEndRun::messagesPerSecond),
						median(runs, EndToEndRun::cpuUsPerMessage), median(runs, EndToEndRun::p50Us),
						median(runs, EndToEndRun::p99Us), median(runs, EndToEndRun::clientCpuUsPerMessage),
						median(runs, EndToEndRun::drift) * 100, runs.stream().mapToLong(EndToEndRun::lost).sum(),
						runs.stream().mapToLong(EndToEndRun::duplicates).sum(), promise(strategy),
						l.refusals()
								? String.format(Locale.ROOT, " %,.0f |", median(runs, EndToEndRun::refusedPerSecond))
								: ""));
			}
			s.append('\n');
		}
		return s.toString();
	}

	/** What the strategy promises a consumer under the service's lazy eviction. */
	private static String promise(String strategy) {
		return StudyPlan.strategyOf(strategy).delivery(Eviction.LAZY).name().toLowerCase(Locale.ROOT).replace('_', '-');
	}

	private static double median(List<EndToEndRun> runs, ToDoubleFunction<EndToEndRun> figure) {
		return Stats.median(runs.stream().mapToDouble(figure).toArray());
	}

	private String runs() {
		StringBuilder s = new StringBuilder("## The runs\n\n");
		this.data.machine().forEach(line -> s.append("- ").append(line).append('\n'));
		List<String[]> log = this.data.runLog().stream().skip(1).map(l -> l.split("\t")).toList();
		for (String kind : List.of("core", "e2e")) {
			List<String[]> rows = log.stream().filter(r -> r[0].equals(kind)).toList();
			if (!rows.isEmpty()) {
				double[] loads = rows.stream().mapToDouble(r -> Double.parseDouble(r[4])).toArray();
				s.append(String.format(Locale.ROOT,
						"- %s: %d runs, %s to %s UTC, load average at each run's start %s–%s (median %s)%n",
						kind.equals("core") ? "Core" : "End to end", rows.size(), rows.get(0)[2],
						rows.get(rows.size() - 1)[3], number(Arrays.stream(loads).min().orElseThrow()),
						number(Arrays.stream(loads).max().orElseThrow()), number(Stats.median(loads))));
			}
		}
		long errors = this.data.e2e().stream().mapToLong(EndToEndRun::errors).sum();
		s.append(String.format(Locale.ROOT, "- Errors answered in all end-to-end windows: %d.%n", errors));
		return s.toString();
	}

}
