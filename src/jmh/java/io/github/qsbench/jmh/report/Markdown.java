package io.github.qsbench.jmh.report;

import static io.github.qsbench.jmh.report.StudyResults.ranking;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.github.qsbench.core.strategy.Strategy;

/**
 * The study report's Markdown as it is written: lines, tables and the numbers' formats.
 */
final class Markdown {

	private final StringBuilder text = new StringBuilder();

	void line(String text) {
		this.text.append(text).append('\n');
	}

	void line() {
		this.text.append('\n');
	}

	void table(List<String> head, List<List<String>> rows) {
		line("| " + String.join(" | ", head) + " |");
		line("|" + head.stream().map(h -> "---").collect(Collectors.joining("|")) + "|");
		rows.forEach(row -> line("| " + String.join(" | ", row) + " |"));
	}

	@Override
	public String toString() {
		return this.text.toString();
	}

	static String num(double value) {
		if (Double.isNaN(value)) {
			return "n/a";
		}
		return String.format(Locale.ROOT, (Math.abs(value) < 1) ? "%.4f" : "%.3f", value);
	}

	static String percent(double gain) {
		return String.format(Locale.ROOT, "%.2f%%", 100 * gain);
	}

	static String ratio(Double value) {
		return (value == null || value.isNaN()) ? "n/a" : String.format(Locale.ROOT, "%.2f×", value);
	}

	/**
	 * The ranking as text, best first: {@code >} where the 99.9% confidence intervals of
	 * neighbours are apart, {@code ≈} where they overlap, so that an order the error
	 * cannot support shows.
	 */
	static String ordered(Map<Strategy, Stats> scores, Function<Strategy, String> name) {
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
	static String abbreviation(Strategy strategy) {
		return strategy.tableName().replaceAll("[^A-Z]", "");
	}

}
