package io.github.qsbench.jmh.report;

import static io.github.qsbench.jmh.report.Markdown.abbreviation;
import static io.github.qsbench.jmh.report.Markdown.num;
import static io.github.qsbench.jmh.report.Markdown.ratio;
import static io.github.qsbench.jmh.report.StudyResults.ranking;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.github.qsbench.core.strategy.Strategy;
import io.github.qsbench.jmh.report.JmhResult.Role;
import io.github.qsbench.jmh.report.JmhResult.Run;

/**
 * The study report's sections on what the thesis did not measure: messages delivered
 * rather than operations, the guarded completion against the thesis's, and allocation,
 * empty polls and JDKs.
 */
final class DeliverySections {

	private final StudyResults study;

	private final ThesisResults thesis;

	private final Markdown md;

	DeliverySections(StudyResults study, ThesisResults thesis, Markdown md) {
		this.study = study;
		this.thesis = thesis;
		this.md = md;
	}

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

	void delivered() {
		this.md.line("## Ranking by messages delivered");
		this.md.line();
		this.md
			.line("What a queue is for: messages delivered per µs (the Reader score times the share of its polls that"
					+ " found a message), ranked, beside the thesis's Total and its rank, and the bytes allocated per"
					+ " operation (`-prof gc`, reader and writer operations together). Delivery is the strategy's stated"
					+ " guarantee with lazy eviction (the benchmark's); ÷ CA and ÷ CP are ratios of delivered messages to"
					+ " ConcurrentAtomic's and ConcurrentPojo's in the same setup and run.");
		this.md.line();
		List<String> head = new ArrayList<>(List.of("Setup"));
		this.study.runs().forEach(r -> head.add(r.shortLabel() + ": best exactly-once, delivered msgs/us, ÷ CA, ÷ CP"));
		List<List<String>> best = new ArrayList<>();
		for (Setup setup : this.study.setups()) {
			List<String> row = new ArrayList<>(List.of(setup.toString()));
			for (Run run : this.study.runs()) {
				Optional<JmhResult> top = this.study.guarded()
					.stream()
					.filter(r -> r.run().equals(run) && r.setup().equals(setup) && exactlyOnce(r.strategy()))
					.max(Comparator.comparingDouble(DeliverySections::delivered));
				row.add(top
					.map(r -> r.strategy().tableName() + ", " + num(delivered(r)) + ", "
							+ ratio(deliveredRatio(r, Strategy.CONCURRENT_ATOMIC)) + ", "
							+ ratio(deliveredRatio(r, Strategy.CONCURRENT_POJO)))
					.orElse("n/a"));
			}
			best.add(row);
		}
		this.md
			.line("The best exactly-once strategy by messages delivered, per setup and run (the issue's target: ≥ 2× CA"
					+ " and ≥ 1× CP in every setup):");
		this.md.line();
		this.md.table(head, best);
		this.md.line();
		for (Run run : this.study.runs()) {
			for (Setup setup : this.study.setups()) {
				List<JmhResult> ranked = this.study.guarded()
					.stream()
					.filter(r -> r.run().equals(run) && r.setup().equals(setup))
					.sorted(Comparator.comparingDouble((JmhResult r) -> delivered(r)).reversed())
					.toList();
				List<Strategy> byTotal = ranking(this.study.scores(run, setup).get(Role.Total));
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
				this.md.line("<details" + (run == this.study.runs().get(0) ? " open" : "") + "><summary>"
						+ setup.title() + " " + setup + ", " + run.label() + "</summary>");
				this.md.line();
				this.md.table(List.of("Rank", "Implementation", "Delivery", "Delivered (msgs/us)", "÷ CA", "÷ CP",
						"Total (ops/us)", "Total rank", "B/op"), rows);
				this.md.line();
				this.md.line("</details>");
				this.md.line();
			}
		}
	}

	private Double deliveredRatio(JmhResult result, Strategy base) {
		return this.study.find(result.run(), result.setup(), base)
			.map(b -> delivered(result) / delivered(b))
			.orElse(null);
	}

	/**
	 * The guarded completion against the thesis's unguarded one, and runs with extra VM
	 * flags (biased locking) against the primary run, for the strategies measured both
	 * ways.
	 */
	void completion() {
		List<Strategy> both = this.study.all()
			.stream()
			.filter(r -> !r.completion().equals(JmhResult.GUARDED))
			.map(JmhResult::strategy)
			.distinct()
			.sorted()
			.toList();
		if (both.isEmpty()) {
			return;
		}
		this.md.line("## The guarded completion and the JDK");
		this.md.line();
		this.md.line("Our `complete(Message)` marks the message under the strategy's guard (for Synchronized: a second"
				+ " entry of the map's monitor per delivered message); the thesis's `AbstractQS.complete()` only called"
				+ " `message.complete()`. The benchmark's `completion` = THESIS does exactly that, **with the thesis's"
				+ " race**: a `PojoMessage`'s completed mark (a plain field) is written without the lock its walkers read it under,"
				+ " so a walk may see it late and evict the message one walk later (no message can be delivered twice:"
				+ " the 999-day lease was written under the guard). Messages delivered per µs under each completion,"
				+ " measured in the same run:");
		this.md.line();
		List<Run> withThesis = this.study.all()
			.stream()
			.filter(r -> !r.completion().equals(JmhResult.GUARDED))
			.map(JmhResult::run)
			.distinct()
			.sorted()
			.toList();
		List<String> head = new ArrayList<>(List.of("Setup", "Implementation"));
		withThesis.forEach(r -> head.addAll(List.of(r.shortLabel() + " GUARDED", r.shortLabel() + " THESIS",
				"THESIS ÷ GUARDED", "Total THESIS ÷ GUARDED")));
		List<List<String>> rows = new ArrayList<>();
		for (Setup setup : this.study.setups()) {
			for (Strategy strategy : both) {
				List<String> row = new ArrayList<>(List.of(setup.toString(), strategy.tableName()));
				for (Run run : withThesis) {
					Optional<JmhResult> guarded = this.study.find(run, setup, strategy, JmhResult.GUARDED);
					Optional<JmhResult> unguarded = this.study.find(run, setup, strategy, "THESIS");
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
		this.md.table(head, rows);
		this.md.line();
		Run primary = this.study.runs().get(0);
		List<Run> variants = withThesis.stream()
			.filter(r -> !r.equals(primary) && r.major() == primary.major() && r.gc().equals(primary.gc()))
			.toList();
		for (Run variant : variants) {
			this.md.line("The same JDK and collector with `" + variant.flags() + "` against without (" + primary.label()
					+ "): delivered messages per µs as a ratio, per completion, and both changes together (THESIS with"
					+ " the flags ÷ GUARDED without them, which is as near as this JDK comes to the thesis's Java 8 and"
					+ " code):");
			this.md.line();
			List<List<String>> flagRows = new ArrayList<>();
			for (Setup setup : this.study.setups()) {
				for (Strategy strategy : both) {
					Optional<JmhResult> g0 = this.study.find(primary, setup, strategy, JmhResult.GUARDED);
					Optional<JmhResult> t0 = this.study.find(primary, setup, strategy, "THESIS");
					Optional<JmhResult> g1 = this.study.find(variant, setup, strategy, JmhResult.GUARDED);
					Optional<JmhResult> t1 = this.study.find(variant, setup, strategy, "THESIS");
					flagRows.add(List.of(setup.toString(), strategy.tableName(), deliveredRatio(g1, g0),
							deliveredRatio(t1, t0), deliveredRatio(t1, g0)));
				}
			}
			this.md.table(List.of("Setup", "Implementation", "GUARDED: with ÷ without", "THESIS: with ÷ without",
					"THESIS with ÷ GUARDED without"), flagRows);
			this.md.line();
		}
	}

	private static String deliveredRatio(Optional<JmhResult> result, Optional<JmhResult> base) {
		return (result.isPresent() && base.isPresent()) ? ratio(delivered(result.get()) / delivered(base.get()))
				: "n/a";
	}

	void beyondTheThesis() {
		this.md.line("## Beyond the thesis");
		this.md.line();
		this.md.line("### Allocation and garbage collection (`-prof gc`)");
		this.md.line();
		this.md.line("Bytes allocated per operation (reader and writer operations together), collections and collection"
				+ " time per measurement iteration, per run:");
		this.md.line();
		// JMH leaves gc.time out of a run without any collection
		perStrategyTables(result -> String.format(Locale.ROOT, "%.1f B/op, %.1f GCs, %.0f ms",
				result.iterationMeans().getOrDefault("gc.alloc.rate.norm", Double.NaN),
				result.iterationMeans().getOrDefault("gc.count", Double.NaN),
				result.iterationMeans().getOrDefault("gc.time", 0.0)));
		this.md.line("### Polls that delivered and polls that found nothing (`@AuxCounters`)");
		this.md.line();
		this.md
			.line("The thesis counted every poll as an operation. Share of the readers' polls that found no message, and"
					+ " the Reader score split by that share into delivered and empty polls (ops/us). The share is a ratio"
					+ " of counts, which JMH also collects while threads wait for each other at the start and end of an"
					+ " iteration; only the Reader score is timed over the measurement window alone.");
		this.md.line();
		this.md.line("The thesis did not count empty polls, but no reader can deliver more messages than the writers"
				+ " push, so 1 − Writer/Reader is a lower bound of its empty share: "
				+ this.study.setups()
					.stream()
					.map(setup -> setup + " " + thesisEmptyShares(setup))
					.collect(Collectors.joining("; "))
				+ ".");
		this.md.line();
		perStrategyTables(result -> {
			double delivered = result.iterationMeans().getOrDefault("delivered", Double.NaN);
			double empty = result.iterationMeans().getOrDefault("empty", Double.NaN);
			double share = empty / (delivered + empty);
			double reader = result.scores().get(Role.Reader).score();
			return String.format(Locale.ROOT, "%.1f%% empty (%s delivered, %s empty)", 100 * share,
					num(reader * (1 - share)), num(reader * share));
		});
		this.md.line("### Collectors and JDKs");
		this.md.line();
		this.md.line("Total (ops/us) of each run and its ratio to the primary run's ("
				+ this.study.runs().get(0).label() + ") in the same setup:");
		this.md.line();
		perStrategyTables(result -> {
			double total = result.scores().get(Role.Total).score();
			// a variant run may measure a strategy the primary one did not
			Optional<JmhResult> base = this.study.find(this.study.runs().get(0), result.setup(), result.strategy());
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
		this.study.runs().forEach(r -> head.add(r.shortLabel()));
		List<List<String>> rows = new ArrayList<>();
		for (Setup setup : this.study.setups()) {
			for (Strategy strategy : this.study.strategies()) {
				List<String> row = new ArrayList<>(List.of(setup.toString(), strategy.tableName()));
				for (Run run : this.study.runs()) {
					row.add(this.study.find(run, setup, strategy).map(cell).orElse(""));
				}
				rows.add(row);
			}
		}
		this.md.table(head, rows);
		this.md.line();
	}

}
