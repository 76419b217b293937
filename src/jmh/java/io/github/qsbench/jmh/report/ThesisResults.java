package io.github.qsbench.jmh.report;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.github.qsbench.core.strategy.Strategy;
import io.github.qsbench.jmh.report.JmhResult.Role;

/**
 * The published tables of the thesis, chapter 4, from the copy of the reference CSV on
 * the class path ({@code thesis/thesis-2017-results.csv}, see the README beside it).
 */
final class ThesisResults {

	static final String RESOURCE = "/thesis/thesis-2017-results.csv";

	private final Map<String, Map<Role, Map<Strategy, Stats>>> bySetup = new LinkedHashMap<>();

	static ThesisResults load() {
		try (var in = Objects.requireNonNull(ThesisResults.class.getResourceAsStream(RESOURCE), RESOURCE);
				var lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
			ThesisResults thesis = new ThesisResults();
			List<String> rows = lines.lines().skip(1).filter(l -> !l.isBlank()).toList();
			for (String row : rows) {
				thesis.add(row.split(","));
			}
			return thesis;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	// setup,readers,writers,idx,role,implementation,score,error,ci_min,ci_max,obs_min,obs_max,sd
	private void add(String[] c) {
		Strategy strategy = Arrays.stream(Strategy.values())
			.filter(s -> s.tableName().equals(c[5]))
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException("unknown implementation " + c[5]));
		Stats stats = new Stats(d(c[6]), d(c[7]), d(c[8]), d(c[9]), d(c[10]), d(c[11]), d(c[12]));
		this.bySetup.computeIfAbsent(c[0], k -> new EnumMap<>(Role.class))
			.computeIfAbsent(Role.valueOf(c[4]), k -> new EnumMap<>(Strategy.class))
			.put(strategy, stats);
	}

	private static double d(String s) {
		return Double.parseDouble(s);
	}

	/**
	 * Role to strategy to published stats, or nothing if the thesis did not run that
	 * setup.
	 */
	Map<Role, Map<Strategy, Stats>> of(Setup setup) {
		return this.bySetup.getOrDefault(setup.key(), Map.of());
	}

}
