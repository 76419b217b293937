package io.github.qsbench.jmh.report;

import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.github.qsbench.core.strategy.Strategy;
import io.github.qsbench.jmh.report.JmhResult.Role;
import io.github.qsbench.jmh.report.JmhResult.Run;

/**
 * A study's JMH results as its report reads them: by run, setup and strategy, with the
 * rankings and ratios its tables are made of.
 */
final class StudyResults {

	/** Every result, also those with the thesis's unguarded completion. */
	private final List<JmhResult> all;

	/**
	 * The results with the guarded completion, which every table but the completion
	 * section reads.
	 */
	private final List<JmhResult> guarded;

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

	StudyResults(List<JmhResult> results) {
		if (results.isEmpty()) {
			throw new IllegalArgumentException("no JMH results");
		}
		this.all = results;
		this.guarded = results.stream().filter(r -> r.completion().equals(JmhResult.GUARDED)).toList();
		if (this.guarded.isEmpty()) {
			throw new IllegalArgumentException("no JMH results with completion=" + JmhResult.GUARDED);
		}
		this.runs = this.guarded.stream().map(JmhResult::run).distinct().sorted().toList();
		this.setups = this.guarded.stream().map(JmhResult::setup).distinct().sorted().toList();
		this.strategies = this.guarded.stream().map(JmhResult::strategy).distinct().sorted().toList();
	}

	List<JmhResult> all() {
		return this.all;
	}

	List<JmhResult> guarded() {
		return this.guarded;
	}

	List<Run> runs() {
		return this.runs;
	}

	List<Setup> setups() {
		return this.setups;
	}

	List<Strategy> strategies() {
		return this.strategies;
	}

	Optional<JmhResult> find(Run run, Setup setup, Strategy strategy) {
		return this.guarded.stream()
			.filter(r -> r.run().equals(run) && r.setup().equals(setup) && r.strategy() == strategy)
			.findFirst();
	}

	Optional<JmhResult> find(Run run, Setup setup, Strategy strategy, String completion) {
		return this.all.stream()
			.filter(r -> r.run().equals(run) && r.setup().equals(setup) && r.strategy() == strategy
					&& r.completion().equals(completion))
			.findFirst();
	}

	JmhResult first(Run run) {
		return this.guarded.stream().filter(r -> r.run().equals(run)).findFirst().orElseThrow();
	}

	/**
	 * Role to strategy to stats for one run and setup; strategies not measured are
	 * absent.
	 */
	Map<Role, Map<Strategy, Stats>> scores(Run run, Setup setup) {
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

	/** One value if every result agrees, else every distinct value. */
	String distinct(Function<JmhResult, String> value) {
		Set<String> values = this.all.stream().map(value).collect(Collectors.toCollection(LinkedHashSet::new));
		return String.join(" / ", values);
	}

	static Map<Strategy, Double> totals(Map<Role, Map<Strategy, Stats>> scores) {
		Map<Strategy, Double> totals = new EnumMap<>(Strategy.class);
		scores.getOrDefault(Role.Total, Map.of()).forEach((s, stats) -> totals.put(s, stats.score()));
		return totals;
	}

	static Map<Strategy, Double> ratiosTo(Map<Strategy, Double> totals, Strategy base) {
		Map<Strategy, Double> ratios = new EnumMap<>(Strategy.class);
		Double baseline = totals.get(base);
		if (baseline != null) {
			totals.forEach((s, total) -> ratios.put(s, total / baseline));
		}
		return ratios;
	}

	/** Descending score, as the thesis orders its tables. */
	static List<Strategy> ranking(Map<Strategy, Stats> scores) {
		if (scores == null) {
			return List.of();
		}
		return scores.entrySet()
			.stream()
			.sorted(Comparator.comparingDouble((Map.Entry<Strategy, Stats> e) -> e.getValue().score()).reversed())
			.map(Map.Entry::getKey)
			.toList();
	}

}
