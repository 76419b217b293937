package io.github.qsbench.gatling.study;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler.LegendPosition;

/**
 * The end-to-end study's pictures: one PNG per preset, drawn with XChart as the JMH
 * study's are. Per strategy (x) and variant (one bar series each: batch size, long
 * polling, JDK and threads): messages completed per second, the same as a share of the
 * variant's best strategy (whether the strategies separate, at a glance), the service's
 * CPU per message, and core contention per second when the service exports it.
 *
 * <p>
 * Reads the figures {@code scripts/e2e-summary.py} computed ({@code figures.json}: a list
 * of rows with {@code preset}, {@code variant}, {@code strategy},
 * {@code messagesPerSecond}, {@code cpuMicrosPerMessage}, {@code contentionPerSecond}; a
 * figure not measured is null and drawn as no bar), so the numbers in the pictures are
 * those of the tables.
 *
 * <pre>
 * java -cp gatling/target/test-classes:$(cat gatling/target/classpath.txt) \
 *   io.github.qsbench.gatling.study.StudyCharts target/e2e-study/TIME/figures.json target/e2e-study/TIME/charts
 * </pre>
 */
public final class StudyCharts {

	private StudyCharts() {
	}

	public static void main(String[] args) throws IOException {
		if (args.length != 2) {
			System.err.println("usage: StudyCharts FIGURES_JSON OUTPUT_DIR");
			System.exit(2);
		}
		Path out = Path.of(args[1]);
		Files.createDirectories(out);
		Map<String, List<JsonNode>> byPreset = new LinkedHashMap<>();
		for (JsonNode row : new ObjectMapper().readTree(Path.of(args[0]).toFile())) {
			byPreset.computeIfAbsent(row.path("preset").asText(), p -> new ArrayList<>()).add(row);
		}
		for (Map.Entry<String, List<JsonNode>> preset : byPreset.entrySet()) {
			Path file = out.resolve(preset.getKey() + ".png");
			write(file, preset.getKey(), preset.getValue());
			System.out.println("chart " + file);
		}
	}

	private static void write(Path file, String preset, List<JsonNode> runs) throws IOException {
		List<String> variants = distinct(runs, row -> row.path("variant").asText());
		List<Chart<?, ?>> charts = new ArrayList<>();
		add(charts, preset + ": messages completed per second", "messages/s", runs, variants,
				(row) -> number(row, "messagesPerSecond"));
		add(charts, preset + ": messages/s as a share of the variant's best strategy", "share of the best", runs,
				variants, (row) -> shareOfBest(row, runs));
		add(charts, preset + ": service CPU per message", "CPU µs / message", runs, variants,
				(row) -> number(row, "cpuMicrosPerMessage"));
		add(charts, preset + ": core contention", "s waited / s", runs, variants,
				(row) -> number(row, "contentionPerSecond"));
		// XChart fills the grid completely: 2 x 2 for four charts, one row otherwise.
		int gridRows = (charts.size() == 4) ? 2 : 1;
		BitmapEncoder.saveBitmap(charts, gridRows, charts.size() / gridRows, file.toString(), BitmapFormat.PNG);
	}

	/** Adds the figure's chart, unless no run measured it. */
	private static void add(List<Chart<?, ?>> charts, String title, String yTitle, List<JsonNode> rows,
			List<String> variants, Function<JsonNode, Double> figure) {
		if (rows.stream().map(figure).anyMatch(v -> v != null)) {
			charts.add(chart(title, yTitle, rows, variants, figure));
		}
	}

	/**
	 * One bar chart: strategies on the x axis in the order the study ran them, one series
	 * per variant, each variant in the same colour on every chart. A linear axis
	 * (XChart's bar charts refuse a logarithmic one here): where batches of 100 dwarf
	 * single messages, the share-of-the-best chart still compares the strategies.
	 */
	private static CategoryChart chart(String title, String yTitle, List<JsonNode> rows, List<String> variants,
			Function<JsonNode, Double> figure) {
		List<String> strategies = distinct(rows, row -> row.path("strategy").asText());
		CategoryChart chart = new CategoryChartBuilder().width(760)
			.height(560)
			.title(title)
			.xAxisTitle("strategy")
			.yAxisTitle(yTitle)
			.build();
		chart.getStyler().setLegendPosition(LegendPosition.OutsideS);
		chart.getStyler().setXAxisLabelRotation(20);
		Color[] colors = chart.getStyler().getSeriesColors();
		for (String variant : variants) {
			List<Double> values = new ArrayList<>();
			for (String strategy : strategies) {
				Double value = rows.stream()
					.filter(row -> row.path("variant").asText().equals(variant)
							&& row.path("strategy").asText().equals(strategy))
					.map(figure)
					.filter(v -> v != null)
					.findFirst()
					.orElse(null);
				values.add(value);
			}
			if (values.stream().anyMatch(v -> v != null)) {
				chart.addSeries(variant, strategies, values)
					.setFillColor(colors[variants.indexOf(variant) % colors.length]);
			}
		}
		return chart;
	}

	private static Double number(JsonNode row, String field) {
		JsonNode value = row.path(field);
		return value.isNumber() ? value.asDouble() : null;
	}

	/** A run's messages/s divided by the best strategy's in the same variant. */
	private static Double shareOfBest(JsonNode row, List<JsonNode> rows) {
		Double value = number(row, "messagesPerSecond");
		double best = rows.stream()
			.filter(other -> other.path("variant").asText().equals(row.path("variant").asText()))
			.map(other -> number(other, "messagesPerSecond"))
			.filter(v -> v != null)
			.mapToDouble(Double::doubleValue)
			.max()
			.orElse(0);
		return (value == null || best <= 0) ? null : value / best;
	}

	private static List<String> distinct(List<JsonNode> rows, Function<JsonNode, String> key) {
		Set<String> seen = new LinkedHashSet<>();
		rows.forEach(row -> seen.add(key.apply(row)));
		return List.copyOf(seen);
	}

}
