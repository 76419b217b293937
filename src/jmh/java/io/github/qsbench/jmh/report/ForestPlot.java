package io.github.qsbench.jmh.report;

import java.util.List;
import java.util.Locale;

import io.github.qsbench.jmh.report.PairedRatio.Result;
import io.github.qsbench.jmh.report.PairedRatio.Verdict;

/**
 * The answer table as one picture: every ratio with its corrected interval on a log
 * scale, 1 and the equivalence margin drawn, a row per comparison. SVG, written as text,
 * so the same results give the same file on any machine (no fonts or graphics stack
 * needed).
 */
final class ForestPlot {

	/** One comparison: its label and its result. */
	record Row(String label, Result result) {

	}

	private static final int LABEL = 430;

	private static final int PLOT = 460;

	private static final int ROW = 16;

	/** The scale: ratios from 1/8 to 8; beyond, an arrow at the edge. */
	private static final double LIMIT = Math.log(8);

	private ForestPlot() {
	}

	static String svg(List<Row> rows, double margin) {
		int height = 40 + rows.size() * ROW + 30;
		int width = LABEL + PLOT + 20;
		StringBuilder svg = new StringBuilder();
		svg.append(String.format(Locale.ROOT,
				"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">%n",
				width, height));
		svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height));
		double low = x(1 / (1 + margin));
		double high = x(1 + margin);
		svg.append(String.format(Locale.ROOT,
				"<rect x=\"%.1f\" y=\"30\" width=\"%.1f\" height=\"%d\" fill=\"#e8f4e8\"/>%n", low, high - low,
				rows.size() * ROW + 10));
		for (double tick : new double[] { 0.125, 0.25, 0.5, 1, 2, 4, 8 }) {
			svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"30\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\"/>%n",
					x(tick), x(tick), 40 + rows.size() * ROW, (tick == 1) ? "#333" : "#ddd"));
			svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
					x(tick), 55 + rows.size() * ROW, FindingsPage.number(tick)));
		}
		svg.append(String.format(Locale.ROOT,
				"<text x=\"%d\" y=\"18\">a ÷ b, log scale, clamped to [1/8, 8]; shaded: within ±%.0f%%. "
						+ "Blue: a higher; red: lower; green: equivalent; grey: undetermined</text>%n",
				20, margin * 100));
		for (int i = 0; i < rows.size(); i++) {
			Row row = rows.get(i);
			Result r = row.result();
			int y = 40 + i * ROW + ROW / 2;
			svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>%n", LABEL - 8,
					y + 4, escape(row.label())));
			String colour = colour(r.verdict());
			if (!Double.isNaN(r.low())) {
				svg.append(String.format(Locale.ROOT,
						"<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"/>%n",
						x(r.low()), y, x(r.high()), y, colour));
			}
			svg.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%d\" r=\"3.5\" fill=\"%s\"/>%n",
					x(r.ratio()), y, colour));
		}
		return svg.append("</svg>\n").toString();
	}

	/** Where ratio {@code r} falls, clamped to the scale. */
	private static double x(double r) {
		double clamped = Math.max(-LIMIT, Math.min(LIMIT, Math.log(r)));
		return LABEL + (clamped + LIMIT) / (2 * LIMIT) * PLOT;
	}

	private static String colour(Verdict verdict) {
		return switch (verdict) {
			case HIGHER -> "#1f77b4";
			case LOWER -> "#d62728";
			case EQUIVALENT -> "#2ca02c";
			case UNDETERMINED -> "#7f7f7f";
		};
	}

	private static String escape(String text) {
		return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
	}

}
