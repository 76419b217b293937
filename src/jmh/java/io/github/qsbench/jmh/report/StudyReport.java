package io.github.qsbench.jmh.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.github.qsbench.core.strategy.Strategy;
import io.github.qsbench.jmh.report.JmhResult.Role;
import io.github.qsbench.jmh.report.JmhResult.Run;
import io.github.qsbench.jmh.report.JmhResult.Settings;

/**
 * Writes the study's Markdown report and one chart per setup from JMH's JSON results,
 * with the thesis's published tables (chapter 4) beside ours.
 *
 * <p>
 * Usage: {@code StudyReport RESULTS_DIR REPORT_DIR}. Every {@code *.json} in RESULTS_DIR
 * is read; {@code RESULTS_DIR/notes.md}, if present, is copied into the header (the study
 * script records the command and the machine's load there). Writes
 * {@code REPORT_DIR/REPORT.md} and {@code REPORT_DIR/<setup>.png}.
 */
public final class StudyReport {

	static final String REPORT = "REPORT.md";

	/**
	 * The results with the guarded completion, which every table but the completion
	 * section reads.
	 */
	private final List<JmhResult> results;

	/** Every result, also those with the thesis's unguarded completion. */
	private final List<JmhResult> all;

	private final ThesisResults thesis;

	private final String notes;

	/**
	 * Runs in report order; the first is the primary one, whose tables are shown in full.
	 */
	private final List<Run> runs;

	private final List<Setup> setups;

	/**
	 * The strategies measured in any run, in enum order: the tables and charts show
	 * these, so a study of some strategies reports no empty rows for the others.
	 */
	private final List<Strategy> strategies;

	private final StringBuilder md = new StringBuilder();

	StudyReport(List<JmhResult> results, ThesisResults thesis, String notes) {
		if (results.isEmpty()) {
			throw new IllegalArgumentException("no JMH results");
		}
		this.all = results;
		this.results = results.stream().filter(r -> r.completion().equals(JmhResult.GUARDED)).toList();
		if (this.results.isEmpty()) {
			throw new IllegalArgumentException("no JMH results with completion=" + JmhResult.GUARDED);
		}
		this.thesis = thesis;
		this.notes = notes;
		this.runs = this.results.stream().map(JmhResult::run).distinct().sorted().toList();
		this.setups = this.results.stream().map(JmhResult::setup).distinct().sorted().toList();
		this.strategies = this.results.stream().map(JmhResult::strategy).distinct().sorted().toList();
	}

	public static void main(String[] args) throws IOException {
		if (args.length != 2) {
			System.err.println("usage: StudyReport RESULTS_DIR REPORT_DIR");
			System.exit(2);
		}
		System.setProperty("java.awt.headless", "true");
		Path resultsDir = Path.of(args[0]);
		Path reportDir = Path.of(args[1]);
		List<JmhResult> results = new ArrayList<>();
		try (Stream<Path> files = Files.list(resultsDir)) {
			for (Path file : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
				results.addAll(JmhResult.read(file));
			}
		}
		Path notesFile = resultsDir.resolve("notes.md");
		String notes = Files.exists(notesFile) ? Files.readString(notesFile).strip() : "";
		Files.createDirectories(reportDir);
		StudyReport report = new StudyReport(results, ThesisResults.load(), notes);
		Files.writeString(reportDir.resolve(REPORT), report.markdown());
		report.writeCharts(reportDir);
		System.out.println("Report: " + reportDir.resolve(REPORT) + " (" + results.size() + " benchmarks, "
				+ report.runs.size() + " runs, " + report.setups.size() + " setups)");
	}

	String markdown() {
		header();
		summary();
		delivered();
		completion();
		for (Setup setup : this.setups) {
			setupSection(setup);
		}
		beyondTheThesis();
		return this.md.toString();
	}

	void writeCharts(Path dir) throws IOException {
		Run primary = this.runs.get(0);
		for (Setup setup : this.setups) {
			Map<Run, Map<Strategy, Double>> ratios = new LinkedHashMap<>();
			for (Run run : this.runs) {
				ratios.put(run, ratiosTo(totals(scores(run, setup)), Strategy.SYNCHRONIZED));
			}
			Charts.write(dir.resolve(setup.key() + ".png"), setup, this.strategies, primary, scores(primary, setup),
					ratios, ratiosTo(totals(this.thesis.of(setup)), Strategy.SYNCHRONIZED));
		}
	}

	// ---------------------------------------------------------------- header

	private void header() {
		int cpus = Runtime.getRuntime().availableProcessors();
		line("# JMH study: the thesis's queue-service benchmark, reproduced");
		line();
		line("Generated " + ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ISO_LOCAL_DATE) + " by `"
				+ StudyReport.class.getName() + "` from " + this.all.size()
				+ " JMH results. The thesis is M. Andersson, \"Java concurrency benchmark\", Stockholm University, 2017;"
				+ " its figures are its published tables (chapter 4), copied into `src/jmh/resources/thesis/`.");
		line();
		line("## Machine and settings");
		line();
		line("- Machine: " + Machine.cpuModel() + ", **" + cpus + " CPUs** available to the JVM, " + Machine.memory()
				+ ", " + System.getProperty("os.name") + " " + System.getProperty("os.version") + " ("
				+ System.getProperty("os.arch") + ")");
		line("- Thesis machine: Intel i7-4720HQ, 4 cores / 8 hardware threads @ 2.6 GHz, Windows 10,"
				+ " Oracle HotSpot 1.8.0_131 (Parallel GC, Java 8's default)");
		Settings s = this.all.get(0).settings();
		line("- JMH " + distinct(r -> r.settings().jmhVersion()) + ", benchmark `"
				+ distinct(r -> r.settings().benchmark()) + "`, mode " + distinct(r -> r.settings().mode())
				+ ", ops/us");
		line("- Warmup " + distinct(r -> r.settings().warmupIterations() + " × " + r.settings().warmupTime())
				+ ", measurement "
				+ distinct(r -> r.settings().measurementIterations() + " × " + r.settings().measurementTime())
				+ ", forks " + distinct(r -> String.valueOf(r.settings().forks()))
				+ " (thesis: 20 × 1 s, 20 × 1 s, 10)");
		line("- Parameters: "
				+ s.params()
					.keySet()
					.stream()
					.filter(k -> !k.equals("strategy"))
					.map(k -> "`" + k + "` = " + distinct(r -> r.settings().params().get(k)))
					.collect(Collectors.joining(", "))
				+ "; `strategy` = "
				+ this.strategies.stream().map(Strategy::tableName).collect(Collectors.joining(", ")));
		line("- Setups (readers-writers): "
				+ this.setups.stream().map(Setup::toString).collect(Collectors.joining(", ")));
		line();
		table(List.of("Run", "JVM", "Fork JVM arguments"),
				this.runs.stream()
					.map(run -> List.of((run == this.runs.get(0) ? "**" + run.label() + "** (primary)" : run.label()),
							run.vm(), "`" + String.join(" ", first(run).settings().jvmArgs()) + "`"))
					.toList());
		line();
		for (Setup setup : this.setups) {
			if (setup.threads() > cpus) {
				line("> **Warning:** setup " + setup + " runs " + setup.threads() + " threads on " + cpus
						+ " CPUs: its threads take turns on the CPUs, so its scores measure time-sharing as much as"
						+ " contention (the thesis ran at most 8 threads on 8 hardware threads).");
				line();
			}
		}
		if (!this.notes.isEmpty()) {
			line("### Run notes");
			line();
			line(this.notes);
			line();
		}
		line("### Known deviations from the thesis's core");
		line();
		line("- Every push takes its id from one `AtomicLong` shared by all queues (the thesis's messages had no"
				+ " service-wide id), a point of contention for writers in every strategy.");
		line("- `complete(Message)` marks the message under write access of its queue, nested in a read access of"
				+ " the map; the thesis called `message.complete()` without any guard. This costs readers a second"
				+ " map and queue access per delivered message, most of all for the locks. Every table but the"
				+ " completion section is of this guarded completion (`completion` = GUARDED); the benchmark's"
				+ " `completion` = THESIS is the thesis's unguarded one, see \"The guarded completion and the JDK\".");
		line("- Our writer reuses one body string per thread; `push(queue, body)` still creates a message per push"
				+ " (the thesis pushed the same message object).");
		line("- `idLookup=false` is the thesis-faithful setting measured here; the HTTP service runs"
				+ " `idLookup=true` (an id index, guarded by the strategy). Rerun with `--id-lookup true` to measure it.");
		if (this.strategies.contains(Strategy.REDIS)) {
			line("- " + Strategy.REDIS.tableName()
					+ " (`RedisQS`) is not in-process: every push, poll and completion is"
					+ " one Lua script on a redis-server on this machine (in memory, over loopback, started by the study"
					+ " script), so its score is bounded by that round trip and by the server, which runs on the same CPUs"
					+ " as the benchmark's threads; `-prof gc` counts this JVM's allocation only, and its ids come from"
					+ " Redis, not the `AtomicLong`. Each iteration's service starts on an empty namespace.");
		}
		line("- Java 17/25 instead of Java 8, Linux instead of Windows, " + Runtime.getRuntime().availableProcessors()
				+ " CPUs instead of 8 hardware threads.");
		line();
		line("Absolute scores do not carry across machines: compare rankings and ratios within one run.");
		line("Score legend (thesis 4.1): Rel. G. is the gain over the next ranked implementation, Acc. G. the gain"
				+ " over the last one; Error is the half-width of the 99.9% confidence interval. Deviations (4.2):"
				+ " CI min/max, observed min/max and the standard deviation over every measurement iteration of every fork.");
		line();
	}

	// ---------------------------------------------------------------- summary

	private void summary() {
		line("## Summary");
		line();
		line("Ranking on Total (best first; "
				+ this.strategies.stream()
					.map(strategy -> abbreviation(strategy) + " = " + strategy.tableName())
					.collect(Collectors.joining(", "))
				+ "; `≈` where the 99.9% confidence intervals of neighbours overlap, so that"
				+ " order is not established):");
		line();
		List<String> head = new ArrayList<>(List.of("Setup", "Thesis 2017"));
		this.runs.forEach(r -> head.add(r.shortLabel()));
		List<List<String>> rows = new ArrayList<>();
		for (Setup setup : this.setups) {
			List<String> row = new ArrayList<>(List.of(setup.title() + " " + setup,
					ordered(this.thesis.of(setup).get(Role.Total), StudyReport::abbreviation)));
			this.runs.forEach(r -> row.add(ordered(scores(r, setup).get(Role.Total), StudyReport::abbreviation)));
			rows.add(row);
		}
		table(head, rows);
		line();
		line("Total as a ratio to ReadWriteLock's and to Synchronized's Total in the same setup and run:");
		line();
		ratioTable(this.setups, true);
		line();
	}

	private void ratioTable(List<Setup> setups, boolean withSetup) {
		List<String> head = new ArrayList<>();
		if (withSetup) {
			head.add("Setup");
		}
		head.add("Implementation");
		for (Strategy base : List.of(Strategy.READ_WRITE_LOCK, Strategy.SYNCHRONIZED)) {
			String to = " ÷ " + base.tableName();
			head.add("Thesis" + to);
			this.runs.forEach(r -> head.add(r.shortLabel() + to));
		}
		List<List<String>> rows = new ArrayList<>();
		for (Setup setup : setups) {
			for (Strategy strategy : this.strategies) {
				List<String> row = new ArrayList<>();
				if (withSetup) {
					row.add(setup.toString());
				}
				row.add(strategy.tableName());
				for (Strategy base : List.of(Strategy.READ_WRITE_LOCK, Strategy.SYNCHRONIZED)) {
					row.add(ratio(ratiosTo(totals(this.thesis.of(setup)), base).get(strategy)));
					this.runs.forEach(r -> row.add(ratio(ratiosTo(totals(scores(r, setup)), base).get(strategy))));
				}
				rows.add(row);
			}
		}
		table(head, rows);
	}

	// ---------------------------------------------------------------- messages delivered

	/**
	 * Messages delivered per microsecond: the Reader score times the share of its polls
	 * that found a message (the score is timed over the measurement window alone, the
	 * counters are not).
	 */
	static double delivered(JmhResult result) {
		double delivered = result.iterationMeans().getOrDefault("delivered", Double.NaN);
		double empty = result.iterationMeans().getOrDefault("empty", Double.NaN);
		return result.scores().get(Role.Reader).score() * delivered / (delivered + empty);
	}

	private static double allocation(JmhResult result) {
		return result.iterationMeans().getOrDefault("gc.alloc.rate.norm", Double.NaN);
	}

	private static boolean exactlyOnce(Strategy strategy) {
		return strategy.delivery(io.github.qsbench.core.Eviction.LAZY) == io.github.qsbench.core.Delivery.EXACTLY_ONCE;
	}

	private void delivered() {
		line("## Ranking by messages delivered");
		line();
		line("What a queue is for: messages delivered per µs (the Reader score times the share of its polls that"
				+ " found a message), ranked, beside the thesis's Total and its rank, and the bytes allocated per"
				+ " operation (`-prof gc`, reader and writer operations together). Delivery is the strategy's stated"
				+ " guarantee with lazy eviction (the benchmark's); ÷ CA and ÷ CP are ratios of delivered messages to"
				+ " ConcurrentAtomic's and ConcurrentPojo's in the same setup and run.");
		line();
		List<String> head = new ArrayList<>(List.of("Setup"));
		this.runs.forEach(r -> head.add(r.shortLabel() + ": best exactly-once, delivered msgs/us, ÷ CA, ÷ CP"));
		List<List<String>> best = new ArrayList<>();
		for (Setup setup : this.setups) {
			List<String> row = new ArrayList<>(List.of(setup.toString()));
			for (Run run : this.runs) {
				Optional<JmhResult> top = this.results.stream()
					.filter(r -> r.run().equals(run) && r.setup().equals(setup) && exactlyOnce(r.strategy()))
					.max(Comparator.comparingDouble(StudyReport::delivered));
				row.add(top
					.map(r -> r.strategy().tableName() + ", " + num(delivered(r)) + ", "
							+ ratio(deliveredRatio(r, Strategy.CONCURRENT_ATOMIC)) + ", "
							+ ratio(deliveredRatio(r, Strategy.CONCURRENT_POJO)))
					.orElse("n/a"));
			}
			best.add(row);
		}
		line("The best exactly-once strategy by messages delivered, per setup and run (the issue's target: ≥ 2× CA"
				+ " and ≥ 1× CP in every setup):");
		line();
		table(head, best);
		line();
		for (Run run : this.runs) {
			for (Setup setup : this.setups) {
				List<JmhResult> ranked = this.results.stream()
					.filter(r -> r.run().equals(run) && r.setup().equals(setup))
					.sorted(Comparator.comparingDouble((JmhResult r) -> delivered(r)).reversed())
					.toList();
				List<Strategy> byTotal = ranking(scores(run, setup).get(Role.Total));
				List<List<String>> rows = new ArrayList<>();
				for (int i = 0; i < ranked.size(); i++) {
					JmhResult r = ranked.get(i);
					rows.add(List.of(String.valueOf(i + 1), r.strategy().tableName(),
							exactlyOnce(r.strategy()) ? "exactly-once" : "at-least-once", num(delivered(r)),
							ratio(deliveredRatio(r, Strategy.CONCURRENT_ATOMIC)),
							ratio(deliveredRatio(r, Strategy.CONCURRENT_POJO)), num(r.scores().get(Role.Total).score()),
							String.valueOf(byTotal.indexOf(r.strategy()) + 1),
							String.format(Locale.ROOT, "%.1f", allocation(r))));
				}
				line("<details" + (run == this.runs.get(0) ? " open" : "") + "><summary>" + setup.title() + " " + setup
						+ ", " + run.label() + "</summary>");
				line();
				table(List.of("Rank", "Implementation", "Delivery", "Delivered (msgs/us)", "÷ CA", "÷ CP",
						"Total (ops/us)", "Total rank", "B/op"), rows);
				line();
				line("</details>");
				line();
			}
		}
	}

	private Double deliveredRatio(JmhResult result, Strategy base) {
		return find(result.run(), result.setup(), base).map(b -> delivered(result) / delivered(b)).orElse(null);
	}

	// ---------------------------------------------------------------- completion

	private Optional<JmhResult> find(Run run, Setup setup, Strategy strategy, String completion) {
		return this.all.stream()
			.filter(r -> r.run().equals(run) && r.setup().equals(setup) && r.strategy() == strategy
					&& r.completion().equals(completion))
			.findFirst();
	}

	/**
	 * The guarded completion against the thesis's unguarded one, and runs with extra VM
	 * flags (biased locking) against the primary run, for the strategies measured both
	 * ways.
	 */
	private void completion() {
		List<Strategy> both = this.all.stream()
			.filter(r -> !r.completion().equals(JmhResult.GUARDED))
			.map(JmhResult::strategy)
			.distinct()
			.sorted()
			.toList();
		if (both.isEmpty()) {
			return;
		}
		line("## The guarded completion and the JDK");
		line();
		line("Our `complete(Message)` marks the message under the strategy's guard (for Synchronized: a second"
				+ " entry of the map's monitor per delivered message); the thesis's `AbstractQS.complete()` only called"
				+ " `message.complete()`. The benchmark's `completion` = THESIS does exactly that, **with the thesis's"
				+ " race**: a `PojoMessage`'s completed mark (a plain field) is written without the lock its walkers read it under,"
				+ " so a walk may see it late and evict the message one walk later (no message can be delivered twice:"
				+ " the 999-day lease was written under the guard). Messages delivered per µs under each completion,"
				+ " measured in the same run:");
		line();
		List<Run> withThesis = this.all.stream()
			.filter(r -> !r.completion().equals(JmhResult.GUARDED))
			.map(JmhResult::run)
			.distinct()
			.sorted()
			.toList();
		List<String> head = new ArrayList<>(List.of("Setup", "Implementation"));
		withThesis.forEach(r -> head.addAll(List.of(r.shortLabel() + " GUARDED", r.shortLabel() + " THESIS",
				"THESIS ÷ GUARDED", "Total THESIS ÷ GUARDED")));
		List<List<String>> rows = new ArrayList<>();
		for (Setup setup : this.setups) {
			for (Strategy strategy : both) {
				List<String> row = new ArrayList<>(List.of(setup.toString(), strategy.tableName()));
				for (Run run : withThesis) {
					Optional<JmhResult> guarded = find(run, setup, strategy, JmhResult.GUARDED);
					Optional<JmhResult> unguarded = find(run, setup, strategy, "THESIS");
					row.add(guarded.map(r -> num(delivered(r))).orElse("n/a"));
					row.add(unguarded.map(r -> num(delivered(r))).orElse("n/a"));
					row.add((guarded.isPresent() && unguarded.isPresent())
							? ratio(delivered(unguarded.get()) / delivered(guarded.get())) : "n/a");
					row.add((guarded.isPresent() && unguarded.isPresent())
							? ratio(unguarded.get().scores().get(Role.Total).score()
									/ guarded.get().scores().get(Role.Total).score())
							: "n/a");
				}
				rows.add(row);
			}
		}
		table(head, rows);
		line();
		Run primary = this.runs.get(0);
		List<Run> variants = withThesis.stream()
			.filter(r -> !r.equals(primary) && r.major() == primary.major() && r.gc().equals(primary.gc()))
			.toList();
		for (Run variant : variants) {
			line("The same JDK and collector with `" + variant.flags() + "` against without (" + primary.label()
					+ "): delivered messages per µs as a ratio, per completion, and both changes together (THESIS with"
					+ " the flags ÷ GUARDED without them, which is as near as this JDK comes to the thesis's Java 8 and"
					+ " code):");
			line();
			List<List<String>> flagRows = new ArrayList<>();
			for (Setup setup : this.setups) {
				for (Strategy strategy : both) {
					Optional<JmhResult> g0 = find(primary, setup, strategy, JmhResult.GUARDED);
					Optional<JmhResult> t0 = find(primary, setup, strategy, "THESIS");
					Optional<JmhResult> g1 = find(variant, setup, strategy, JmhResult.GUARDED);
					Optional<JmhResult> t1 = find(variant, setup, strategy, "THESIS");
					flagRows.add(List.of(setup.toString(), strategy.tableName(), deliveredRatio(g1, g0),
							deliveredRatio(t1, t0), deliveredRatio(t1, g0)));
				}
			}
			table(List.of("Setup", "Implementation", "GUARDED: with ÷ without", "THESIS: with ÷ without",
					"THESIS with ÷ GUARDED without"), flagRows);
			line();
		}
	}

	private static String deliveredRatio(Optional<JmhResult> result, Optional<JmhResult> base) {
		return (result.isPresent() && base.isPresent()) ? ratio(delivered(result.get()) / delivered(base.get()))
				: "n/a";
	}

	// ---------------------------------------------------------------- per setup

	private void setupSection(Setup setup) {
		Run primary = this.runs.get(0);
		line("## " + setup.title() + " (" + setup.readers() + " reader" + (setup.readers() == 1 ? "" : "s") + ", "
				+ setup.writers() + " writer" + (setup.writers() == 1 ? "" : "s") + ")");
		line();
		if (setup.threads() > Runtime.getRuntime().availableProcessors()) {
			line("> **Warning:** " + setup.threads() + " threads on " + Runtime.getRuntime().availableProcessors()
					+ " CPUs.");
			line();
		}
		line("![" + setup.title() + "](" + setup.key() + ".png)");
		line();
		line("### Ours: " + primary.label());
		line();
		scoreTables(scores(primary, setup));
		Map<Role, Map<Strategy, Stats>> published = this.thesis.of(setup);
		if (!published.isEmpty()) {
			line("### Thesis 2017 (published)");
			line();
			scoreTables(published);
		}
		line("### Ranking side by side");
		line();
		List<List<String>> rows = new ArrayList<>();
		if (!published.isEmpty()) {
			rows.add(rankingRow("Thesis 2017", published, published));
		}
		this.runs.forEach(r -> rows.add(rankingRow(r.label(), scores(r, setup), published)));
		table(List.of("Source", "Total", "Reader", "Writer", "Same Total order as thesis"), rows);
		line();
		line("### Total as a ratio to ReadWriteLock and Synchronized");
		line();
		ratioTable(List.of(setup), false);
		line();
		for (Run run : this.runs.subList(1, this.runs.size())) {
			line("<details><summary>" + run.label() + ": score overview and deviations</summary>");
			line();
			scoreTables(scores(run, setup));
			line("</details>");
			line();
		}
	}

	private List<String> rankingRow(String source, Map<Role, Map<Strategy, Stats>> scores,
			Map<Role, Map<Strategy, Stats>> published) {
		List<String> row = new ArrayList<>(List.of(source));
		for (Role role : Role.values()) {
			row.add(ordered(scores.get(role), Strategy::tableName));
		}
		row.add(published.isEmpty() ? "n/a"
				: ranking(scores.get(Role.Total)).stream()
					.filter(published.get(Role.Total)::containsKey)
					.toList()
					.equals(ranking(published.get(Role.Total))) ? "yes" : "no");
		return row;
	}

	/**
	 * The thesis's two tables: score overview (4.1) and deviations (4.2), rows in the
	 * same order.
	 */
	private void scoreTables(Map<Role, Map<Strategy, Stats>> scores) {
		List<List<String>> overview = new ArrayList<>();
		List<List<String>> deviations = new ArrayList<>();
		for (Role role : Role.values()) {
			List<Strategy> ranked = ranking(scores.get(role));
			for (int i = 0; i < ranked.size(); i++) {
				Stats stats = scores.get(role).get(ranked.get(i));
				String idx = role.name().charAt(0) + String.valueOf(i + 1);
				boolean last = i == ranked.size() - 1;
				overview
					.add(List.of(idx, role.name(), ranked.get(i).tableName(), num(stats.score()), num(stats.error()),
							last ? "" : percent(stats.score() / scores.get(role).get(ranked.get(i + 1)).score() - 1),
							last ? "" : percent(
									stats.score() / scores.get(role).get(ranked.get(ranked.size() - 1)).score() - 1)));
				deviations.add(List.of(idx, num(stats.ciMin()), num(stats.ciMax()), num(stats.obsMin()),
						num(stats.obsMax()), num(stats.sd())));
			}
		}
		line("Score overview:");
		line();
		table(List.of("Idx", "BM", "Implementation", "Score (ops/us)", "± Error (CI)", "Rel. G.", "Acc. G."), overview);
		line();
		line("Deviations:");
		line();
		table(List.of("Idx", "CI min", "CI max", "Obs. min", "Obs. max", "SD"), deviations);
		line();
	}

	// ---------------------------------------------------------------- beyond the thesis

	private void beyondTheThesis() {
		line("## Beyond the thesis");
		line();
		line("### Allocation and garbage collection (`-prof gc`)");
		line();
		line("Bytes allocated per operation (reader and writer operations together), collections and collection"
				+ " time per measurement iteration, per run:");
		line();
		// JMH leaves gc.time out of a run without any collection
		perStrategyTables(result -> String.format(Locale.ROOT, "%.1f B/op, %.1f GCs, %.0f ms",
				result.iterationMeans().getOrDefault("gc.alloc.rate.norm", Double.NaN),
				result.iterationMeans().getOrDefault("gc.count", Double.NaN),
				result.iterationMeans().getOrDefault("gc.time", 0.0)));
		line("### Polls that delivered and polls that found nothing (`@AuxCounters`)");
		line();
		line("The thesis counted every poll as an operation. Share of the readers' polls that found no message, and"
				+ " the Reader score split by that share into delivered and empty polls (ops/us). The share is a ratio"
				+ " of counts, which JMH also collects while threads wait for each other at the start and end of an"
				+ " iteration; only the Reader score is timed over the measurement window alone.");
		line();
		line("The thesis did not count empty polls, but no reader can deliver more messages than the writers"
				+ " push, so 1 − Writer/Reader is a lower bound of its empty share: "
				+ this.setups.stream()
					.map(setup -> setup + " " + thesisEmptyShares(setup))
					.collect(Collectors.joining("; "))
				+ ".");
		line();
		perStrategyTables(result -> {
			double delivered = result.iterationMeans().getOrDefault("delivered", Double.NaN);
			double empty = result.iterationMeans().getOrDefault("empty", Double.NaN);
			double share = empty / (delivered + empty);
			double reader = result.scores().get(Role.Reader).score();
			return String.format(Locale.ROOT, "%.1f%% empty (%s delivered, %s empty)", 100 * share,
					num(reader * (1 - share)), num(reader * share));
		});
		line("### Collectors and JDKs");
		line();
		line("Total (ops/us) of each run and its ratio to the primary run's (" + this.runs.get(0).label()
				+ ") in the same setup:");
		line();
		perStrategyTables(result -> {
			double total = result.scores().get(Role.Total).score();
			// a variant run may measure a strategy the primary one did not
			Optional<JmhResult> base = find(this.runs.get(0), result.setup(), result.strategy());
			return num(total) + " (" + ratio(base.map(b -> total / b.scores().get(Role.Total).score()).orElse(null))
					+ ")";
		});
	}

	private String thesisEmptyShares(Setup setup) {
		Map<Role, Map<Strategy, Stats>> published = this.thesis.of(setup);
		if (published.isEmpty()) {
			return "n/a";
		}
		return published.get(Role.Reader).keySet().stream().map(s -> {
			double reader = published.get(Role.Reader).get(s).score();
			double writer = published.get(Role.Writer).get(s).score();
			return abbreviation(s) + " ≥ "
					+ String.format(Locale.ROOT, "%.0f%%", 100 * Math.max(0, 1 - writer / reader));
		}).collect(Collectors.joining(", "));
	}

	private void perStrategyTables(Function<JmhResult, String> cell) {
		List<String> head = new ArrayList<>(List.of("Setup", "Implementation"));
		this.runs.forEach(r -> head.add(r.shortLabel()));
		List<List<String>> rows = new ArrayList<>();
		for (Setup setup : this.setups) {
			for (Strategy strategy : this.strategies) {
				List<String> row = new ArrayList<>(List.of(setup.toString(), strategy.tableName()));
				for (Run run : this.runs) {
					row.add(find(run, setup, strategy).map(cell).orElse(""));
				}
				rows.add(row);
			}
		}
		table(head, rows);
		line();
	}

	// ---------------------------------------------------------------- data access

	private Optional<JmhResult> find(Run run, Setup setup, Strategy strategy) {
		return this.results.stream()
			.filter(r -> r.run().equals(run) && r.setup().equals(setup) && r.strategy() == strategy)
			.findFirst();
	}

	private JmhResult first(Run run) {
		return this.results.stream().filter(r -> r.run().equals(run)).findFirst().orElseThrow();
	}

	/**
	 * Role to strategy to stats for one run and setup; strategies not measured are
	 * absent.
	 */
	private Map<Role, Map<Strategy, Stats>> scores(Run run, Setup setup) {
		Map<Role, Map<Strategy, Stats>> scores = new EnumMap<>(Role.class);
		for (Role role : Role.values()) {
			Map<Strategy, Stats> byStrategy = new EnumMap<>(Strategy.class);
			for (Strategy strategy : Strategy.values()) {
				find(run, setup, strategy).ifPresent(r -> byStrategy.put(strategy, r.scores().get(role)));
			}
			scores.put(role, byStrategy);
		}
		return scores;
	}

	private static Map<Strategy, Double> totals(Map<Role, Map<Strategy, Stats>> scores) {
		Map<Strategy, Double> totals = new EnumMap<>(Strategy.class);
		scores.getOrDefault(Role.Total, Map.of()).forEach((s, stats) -> totals.put(s, stats.score()));
		return totals;
	}

	private static Map<Strategy, Double> ratiosTo(Map<Strategy, Double> totals, Strategy base) {
		Map<Strategy, Double> ratios = new EnumMap<>(Strategy.class);
		Double baseline = totals.get(base);
		if (baseline != null) {
			totals.forEach((s, total) -> ratios.put(s, total / baseline));
		}
		return ratios;
	}

	/** Descending score, as the thesis orders its tables. */
	private static List<Strategy> ranking(Map<Strategy, Stats> scores) {
		if (scores == null) {
			return List.of();
		}
		return scores.entrySet()
			.stream()
			.sorted(Comparator.comparingDouble((Map.Entry<Strategy, Stats> e) -> e.getValue().score()).reversed())
			.map(Map.Entry::getKey)
			.toList();
	}

	/**
	 * The ranking as text, best first: {@code >} where the 99.9% confidence intervals of
	 * neighbours are apart, {@code ≈} where they overlap, so that an order the error
	 * cannot support shows.
	 */
	private static String ordered(Map<Strategy, Stats> scores, Function<Strategy, String> name) {
		List<Strategy> ranked = ranking(scores);
		if (ranked.isEmpty()) {
			return "n/a";
		}
		StringBuilder text = new StringBuilder(name.apply(ranked.get(0)));
		for (int i = 1; i < ranked.size(); i++) {
			Stats better = scores.get(ranked.get(i - 1));
			Stats worse = scores.get(ranked.get(i));
			text.append(better.ciMin() <= worse.ciMax() ? " ≈ " : " > ").append(name.apply(ranked.get(i)));
		}
		return text.toString();
	}

	/**
	 * The capitals of the thesis's name: S, RWL, CP, CA, and so on for every strategy
	 * added later.
	 */
	private static String abbreviation(Strategy strategy) {
		return strategy.tableName().replaceAll("[^A-Z]", "");
	}

	/** One value if every result agrees, else every distinct value. */
	private String distinct(Function<JmhResult, String> value) {
		Set<String> values = this.all.stream().map(value).collect(Collectors.toCollection(LinkedHashSet::new));
		return String.join(" / ", values);
	}

	// ---------------------------------------------------------------- Markdown

	private void line(String text) {
		this.md.append(text).append('\n');
	}

	private void line() {
		this.md.append('\n');
	}

	private void table(List<String> head, List<List<String>> rows) {
		line("| " + String.join(" | ", head) + " |");
		line("|" + head.stream().map(h -> "---").collect(Collectors.joining("|")) + "|");
		rows.forEach(row -> line("| " + String.join(" | ", row) + " |"));
	}

	static String num(double value) {
		if (Double.isNaN(value)) {
			return "n/a";
		}
		return String.format(Locale.ROOT, (Math.abs(value) < 1) ? "%.4f" : "%.3f", value);
	}

	private static String percent(double gain) {
		return String.format(Locale.ROOT, "%.2f%%", 100 * gain);
	}

	private static String ratio(Double value) {
		return (value == null || value.isNaN()) ? "n/a" : String.format(Locale.ROOT, "%.2f×", value);
	}

}
