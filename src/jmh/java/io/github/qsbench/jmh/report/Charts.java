package io.github.qsbench.jmh.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler.LegendPosition;

import io.github.qsbench.core.strategy.Strategy;
import io.github.qsbench.jmh.report.JmhResult.Role;
import io.github.qsbench.jmh.report.JmhResult.Run;

/** One PNG per setup: the scores of one run beside every run's and the thesis's shape. */
final class Charts {

	private Charts() {
	}

	/**
	 * Left: Total, Reader and Writer of each strategy in {@code run}, with the 99.9%
	 * error as error bars (like the thesis's score figures). Right: each strategy's Total
	 * as a ratio to Synchronized's, for every run and the thesis, which is what compares
	 * across machines.
	 */
	static void write(Path file, Setup setup, List<Strategy> strategies, Run run,
			Map<Role, Map<Strategy, Stats>> scores, Map<Run, Map<Strategy, Double>> totalsToSynchronized,
			Map<Strategy, Double> thesisToSynchronized) throws IOException {
		List<String> names = strategies.stream().map(Strategy::tableName).toList();

		CategoryChart scoreChart = new CategoryChartBuilder().width(760)
			.height(600)
			.title(setup.title() + " (" + setup + "), " + run.label())
			.xAxisTitle("implementation")
			.yAxisTitle("ops/us")
			.build();
		scoreChart.getStyler().setLegendPosition(LegendPosition.OutsideS);
		for (Role role : Role.values()) {
			Map<Strategy, Stats> byStrategy = scores.get(role);
			List<Double> score = new ArrayList<>();
			List<Double> error = new ArrayList<>();
			strategies.forEach(s -> {
				Stats stats = byStrategy.get(s);
				score.add(stats == null ? 0 : stats.score());
				error.add(stats == null || Double.isNaN(stats.error()) ? 0 : stats.error());
			});
			scoreChart.addSeries(role.name(), names, score, error);
		}

		CategoryChart ratioChart = new CategoryChartBuilder().width(760)
			.height(600)
			.title("Total / Synchronized's Total, " + setup.title())
			.xAxisTitle("implementation")
			.yAxisTitle("ratio")
			.build();
		ratioChart.getStyler().setLegendPosition(LegendPosition.OutsideS);
		if (!thesisToSynchronized.isEmpty()) {
			ratioChart.addSeries("thesis 2017", names, ratios(strategies, thesisToSynchronized));
		}
		totalsToSynchronized
			.forEach((r, ratios) -> ratioChart.addSeries(r.shortLabel(), names, ratios(strategies, ratios)));

		BitmapEncoder.saveBitmap(List.of(scoreChart, ratioChart), 1, 2, file.toString(), BitmapFormat.PNG);
	}

	private static List<Double> ratios(List<Strategy> strategies, Map<Strategy, Double> ratios) {
		return strategies.stream().map(s -> ratios.getOrDefault(s, 0.0)).toList();
	}

}
