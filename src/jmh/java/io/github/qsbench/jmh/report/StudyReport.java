package io.github.qsbench.jmh.report;

import static io.github.qsbench.jmh.report.Markdown.abbreviation;
import static io.github.qsbench.jmh.report.Markdown.num;
import static io.github.qsbench.jmh.report.Markdown.ordered;
import static io.github.qsbench.jmh.report.Markdown.percent;
import static io.github.qsbench.jmh.report.Markdown.ratio;
import static io.github.qsbench.jmh.report.StudyResults.ranking;
import static io.github.qsbench.jmh.report.StudyResults.ratiosTo;
import static io.github.qsbench.jmh.report.StudyResults.totals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

	private final StudyResults study;

	private final ThesisResults thesis;

	private final String notes;

	private final Markdown md = new Markdown();

	StudyReport(List<JmhResult> results, ThesisResults thesis, String notes) {
		this.study = new StudyResults(results);
		this.thesis = thesis;
		this.notes = notes;
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
				+ report.study.runs().size() + " runs, " + report.study.setups().size() + " setups)");
	}

	String markdown() {
		header();
		summary();
		DeliverySections delivery = new DeliverySections(this.study, this.thesis, this.md);
		delivery.delivered();
		delivery.completion();
		for (Setup setup : this.study.setups()) {
			setupSection(setup);
		}
		delivery.beyondTheThesis();
		return this.md.toString();
	}

	void writeCharts(Path dir) throws IOException {
		Run primary = this.study.runs().get(0);
		for (Setup setup : this.study.setups()) {
			Map<Run, Map<Strategy, Double>> ratios = new LinkedHashMap<>();
			for (Run run : this.study.runs()) {
				ratios.put(run, ratiosTo(totals(this.study.scores(run, setup)), Strategy.SYNCHRONIZED));
			}
			Charts.write(dir.resolve(setup.key() + ".png"), setup, this.study.strategies(), primary,
					this.study.scores(primary, setup), ratios,
					ratiosTo(totals(this.thesis.of(setup)), Strategy.SYNCHRONIZED));
		}
	}

	// ---------------------------------------------------------------- header

	private void header() {
		int cpus = Runtime.getRuntime().availableProcessors();
		this.md.line("# JMH study: the thesis's queue-service benchmark, reproduced");
		this.md.line();
		this.md.line("Generated " + ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ISO_LOCAL_DATE) + " by `"
				+ StudyReport.class.getName() + "` from " + this.study.all().size()
				+ " JMH results. The thesis is M. Andersson, \"Java concurrency benchmark\", Stockholm University, 2017;"
				+ " its figures are its published tables (chapter 4), copied into `src/jmh/resources/thesis/`.");
		this.md.line();
		this.md.line("## Machine and settings");
		this.md.line();
		this.md.line("- Machine: " + Machine.cpuModel() + ", **" + cpus + " CPUs** available to the JVM, "
				+ Machine.memory() + ", " + System.getProperty("os.name") + " " + System.getProperty("os.version")
				+ " (" + System.getProperty("os.arch") + ")");
		this.md.line("- Thesis machine: Intel i7-4720HQ, 4 cores / 8 hardware threads @ 2.6 GHz, Windows 10,"
				+ " Oracle HotSpot 1.8.0_131 (Parallel GC, Java 8's default)");
		Settings s = this.study.all().get(0).settings();
		this.md.line("- JMH " + this.study.distinct(r -> r.settings().jmhVersion()) + ", benchmark `"
				+ this.study.distinct(r -> r.settings().benchmark()) + "`, mode "
				+ this.study.distinct(r -> r.settings().mode()) + ", ops/us");
		this.md.line("- Warmup "
				+ this.study.distinct(r -> r.settings().warmupIterations() + " × " + r.settings().warmupTime())
				+ ", measurement "
				+ this.study.distinct(
						r -> r.settings().measurementIterations() + " × " + r.settings().measurementTime())
				+ ", forks " + this.study.distinct(r -> String.valueOf(r.settings().forks()))
				+ " (thesis: 20 × 1 s, 20 × 1 s, 10)");
		this.md.line("- Parameters: "
				+ s.params()
					.keySet()
					.stream()
					.filter(k -> !k.equals("strategy"))
					.map(k -> "`" + k + "` = " + this.study.distinct(r -> r.settings().params().get(k)))
					.collect(Collectors.joining(", "))
				+ "; `strategy` = "
				+ this.study.strategies().stream().map(Strategy::tableName).collect(Collectors.joining(", ")));
		this.md.line("- Setups (readers-writers): "
				+ this.study.setups().stream().map(Setup::toString).collect(Collectors.joining(", ")));
		this.md.line();
		this.md.table(List.of("Run", "JVM", "Fork JVM arguments"), this.study.runs()
			.stream()
			.map(run -> List.of((run == this.study.runs().get(0) ? "**" + run.label() + "** (primary)" : run.label()),
					run.vm(), "`" + String.join(" ", this.study.first(run).settings().jvmArgs()) + "`"))
			.toList());
		this.md.line();
		for (Setup setup : this.study.setups()) {
			if (setup.threads() > cpus) {
				this.md.line("> **Warning:** setup " + setup + " runs " + setup.threads() + " threads on " + cpus
						+ " CPUs: its threads take turns on the CPUs, so its scores measure time-sharing as much as"
						+ " contention (the thesis ran at most 8 threads on 8 hardware threads).");
				this.md.line();
			}
		}
		if (!this.notes.isEmpty()) {
			this.md.line("### Run notes");
			this.md.line();
			this.md.line(this.notes);
			this.md.line();
		}
		this.md.line("### Known deviations from the thesis's core");
		this.md.line();
		this.md
			.line("- Every push takes its id from one `AtomicLong` shared by all queues (the thesis's messages had no"
					+ " service-wide id), a point of contention for writers in every strategy.");
		this.md
			.line("- `complete(Message)` marks the message under write access of its queue, nested in a read access of"
					+ " the map; the thesis called `message.complete()` without any guard. This costs readers a second"
					+ " map and queue access per delivered message, most of all for the locks. Every table but the"
					+ " completion section is of this guarded completion (`completion` = GUARDED); the benchmark's"
					+ " `completion` = THESIS is the thesis's unguarded one, see \"The guarded completion and the JDK\".");
		this.md
			.line("- Our writer reuses one body string per thread; `push(queue, body)` still creates a message per push"
					+ " (the thesis pushed the same message object).");
		this.md.line("- `idLookup=false` is the thesis-faithful setting measured here; the HTTP service runs"
				+ " `idLookup=true` (an id index, guarded by the strategy). Rerun with `--id-lookup true` to measure it.");
		if (this.study.strategies().contains(Strategy.REDIS)) {
			this.md.line("- " + Strategy.REDIS.tableName()
					+ " (`RedisQS`) is not in-process: every push, poll and completion is"
					+ " one Lua script on a redis-server on this machine (in memory, over loopback, started by the study"
					+ " script), so its score is bounded by that round trip and by the server, which runs on the same CPUs"
					+ " as the benchmark's threads; `-prof gc` counts this JVM's allocation only, and its ids come from"
					+ " Redis, not the `AtomicLong`. Each iteration's service starts on an empty namespace.");
		}
		this.md.line("- Java 17/25 instead of Java 8, Linux instead of Windows, "
				+ Runtime.getRuntime().availableProcessors() + " CPUs instead of 8 hardware threads.");
		this.md.line();
		this.md.line("Absolute scores do not carry across machines: compare rankings and ratios within one run.");
		this.md
			.line("Score legend (thesis 4.1): Rel. G. is the gain over the next ranked implementation, Acc. G. the gain"
					+ " over the last one; Error is the half-width of the 99.9% confidence interval. Deviations (4.2):"
					+ " CI min/max, observed min/max and the standard deviation over every measurement iteration of every fork.");
		this.md.line();
	}

	// ---------------------------------------------------------------- summary

	private void summary() {
		this.md.line("## Summary");
		this.md.line();
		this.md.line("Ranking on Total (best first; "
				+ this.study.strategies()
					.stream()
					.map(strategy -> abbreviation(strategy) + " = " + strategy.tableName())
					.collect(Collectors.joining(", "))
				+ "; `≈` where the 99.9% confidence intervals of neighbours overlap, so that"
				+ " order is not established):");
		this.md.line();
		List<String> head = new ArrayList<>(List.of("Setup", "Thesis 2017"));
		this.study.runs().forEach(r -> head.add(r.shortLabel()));
		List<List<String>> rows = new ArrayList<>();
		for (Setup setup : this.study.setups()) {
			List<String> row = new ArrayList<>(List.of(setup.title() + " " + setup,
					ordered(this.thesis.of(setup).get(Role.Total), Markdown::abbreviation)));
			this.study.runs()
				.forEach(r -> row.add(ordered(this.study.scores(r, setup).get(Role.Total), Markdown::abbreviation)));
			rows.add(row);
		}
		this.md.table(head, rows);
		this.md.line();
		this.md.line("Total as a ratio to ReadWriteLock's and to Synchronized's Total in the same setup and run:");
		this.md.line();
		ratioTable(this.study.setups(), true);
		this.md.line();
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
			this.study.runs().forEach(r -> head.add(r.shortLabel() + to));
		}
		List<List<String>> rows = new ArrayList<>();
		for (Setup setup : setups) {
			for (Strategy strategy : this.study.strategies()) {
				List<String> row = new ArrayList<>();
				if (withSetup) {
					row.add(setup.toString());
				}
				row.add(strategy.tableName());
				for (Strategy base : List.of(Strategy.READ_WRITE_LOCK, Strategy.SYNCHRONIZED)) {
					row.add(ratio(ratiosTo(totals(this.thesis.of(setup)), base).get(strategy)));
					this.study.runs()
						.forEach(
								r -> row.add(ratio(ratiosTo(totals(this.study.scores(r, setup)), base).get(strategy))));
				}
				rows.add(row);
			}
		}
		this.md.table(head, rows);
	}

	// ---------------------------------------------------------------- per setup

	private void setupSection(Setup setup) {
		Run primary = this.study.runs().get(0);
		this.md.line("## " + setup.title() + " (" + setup.readers() + " reader" + (setup.readers() == 1 ? "" : "s")
				+ ", " + setup.writers() + " writer" + (setup.writers() == 1 ? "" : "s") + ")");
		this.md.line();
		if (setup.threads() > Runtime.getRuntime().availableProcessors()) {
			this.md.line("> **Warning:** " + setup.threads() + " threads on "
					+ Runtime.getRuntime().availableProcessors() + " CPUs.");
			this.md.line();
		}
		this.md.line("![" + setup.title() + "](" + setup.key() + ".png)");
		this.md.line();
		this.md.line("### Ours: " + primary.label());
		this.md.line();
		scoreTables(this.study.scores(primary, setup));
		Map<Role, Map<Strategy, Stats>> published = this.thesis.of(setup);
		if (!published.isEmpty()) {
			this.md.line("### Thesis 2017 (published)");
			this.md.line();
			scoreTables(published);
		}
		this.md.line("### Ranking side by side");
		this.md.line();
		List<List<String>> rows = new ArrayList<>();
		if (!published.isEmpty()) {
			rows.add(rankingRow("Thesis 2017", published, published));
		}
		this.study.runs().forEach(r -> rows.add(rankingRow(r.label(), this.study.scores(r, setup), published)));
		this.md.table(List.of("Source", "Total", "Reader", "Writer", "Same Total order as thesis"), rows);
		this.md.line();
		this.md.line("### Total as a ratio to ReadWriteLock and Synchronized");
		this.md.line();
		ratioTable(List.of(setup), false);
		this.md.line();
		for (Run run : this.study.runs().subList(1, this.study.runs().size())) {
			this.md.line("<details><summary>" + run.label() + ": score overview and deviations</summary>");
			this.md.line();
			scoreTables(this.study.scores(run, setup));
			this.md.line("</details>");
			this.md.line();
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
		this.md.line("Score overview:");
		this.md.line();
		this.md.table(List.of("Idx", "BM", "Implementation", "Score (ops/us)", "± Error (CI)", "Rel. G.", "Acc. G."),
				overview);
		this.md.line();
		this.md.line("Deviations:");
		this.md.line();
		this.md.table(List.of("Idx", "CI min", "CI max", "Obs. min", "Obs. max", "SD"), deviations);
		this.md.line();
	}

}
