package io.github.qsbench.gatling.study;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import javax.imageio.ImageIO;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The end-to-end study's pictures, drawn with Java2D: one PNG per workload
 * (preset/bBATCH/wWAIT/RUNTIME) that reads at a glance. One horizontal bar per strategy,
 * sorted best first: the median of its messages/s over the repetitions, a whisker from
 * the slowest to the fastest repetition, and beside it the median and the core's share of
 * the request time. One colour for every strategy, a second for the thesis's four
 * (synchronized, read-write-lock, concurrent-pojo, concurrent-atomic); a strategy flagged
 * noisy says so in red.
 *
 * <p>
 * Reads the figures {@code scripts/e2e-summary.py} computed ({@code figures.json}:
 * {@code workloads}, each with {@code workload}, {@code chart} (the file's name) and
 * {@code strategies}: {@code strategy}, {@code thesis}, {@code median}, {@code min},
 * {@code max}, {@code n}, {@code coreShare} (null where not measured), {@code noisy}), so
 * the numbers in the pictures are those of the tables.
 *
 * <pre>
 * java -Djava.awt.headless=true -cp gatling/target/test-classes:$(cat gatling/target/classpath.txt) \
 *   io.github.qsbench.gatling.study.StudyCharts target/e2e-study/TIME/figures.json target/e2e-study/TIME/charts
 * </pre>
 */
public final class StudyCharts {

	private static final Color OTHER = new Color(0x4C72B0);

	private static final Color THESIS = new Color(0xDD8452);

	private static final Color WHISKER = new Color(0x222222);

	private static final Color GRID = new Color(0xDDDDDD);

	private static final Color NOISY = new Color(0xC0392B);

	private static final int WIDTH = 1000;

	private static final int LEFT = 300;

	private static final int RIGHT = 230;

	private static final int TOP = 78;

	private static final int ROW = 30;

	private static final int BOTTOM = 78;

	private StudyCharts() {
	}

	public static void main(String[] args) throws IOException {
		if (args.length != 2) {
			System.err.println("usage: StudyCharts FIGURES_JSON OUTPUT_DIR");
			System.exit(2);
		}
		Path out = Path.of(args[1]);
		Files.createDirectories(out);
		JsonNode figures = new ObjectMapper().readTree(Path.of(args[0]).toFile());
		for (JsonNode workload : figures.path("workloads")) {
			List<JsonNode> strategies = new ArrayList<>();
			workload.path("strategies").forEach(strategies::add);
			if (strategies.isEmpty()) {
				continue;
			}
			strategies.sort(Comparator.comparingDouble((JsonNode s) -> s.path("median").asDouble()).reversed());
			Path file = out.resolve(workload.path("chart").asText() + ".png");
			ImageIO.write(draw(workload.path("workload").asText(), strategies), "png", file.toFile());
			System.out.println("chart " + file);
		}
	}

	private static BufferedImage draw(String workload, List<JsonNode> strategies) {
		int height = TOP + ROW * strategies.size() + BOTTOM;
		BufferedImage image = new BufferedImage(WIDTH, height, BufferedImage.TYPE_INT_RGB);
		Graphics2D g = image.createGraphics();
		g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
		g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
		g.setColor(Color.WHITE);
		g.fillRect(0, 0, WIDTH, height);

		int n = strategies.stream().mapToInt(s -> s.path("n").asInt()).max().orElse(0);
		g.setColor(Color.BLACK);
		g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 18));
		g.drawString(workload + ": messages completed per second", 16, 28);
		g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
		g.drawString(
				"bar: median over " + ((n > 1) ? "up to " + n + " repetitions" : "1 run")
						+ ", whisker: slowest to fastest repetition; beside it: median, core share of request time",
				16, 50);

		double max = strategies.stream().mapToDouble(s -> s.path("max").asDouble()).max().orElse(1);
		double step = niceStep(max / 5);
		double top = Math.ceil(max / step) * step;
		int plotWidth = WIDTH - LEFT - RIGHT;
		int plotBottom = TOP + ROW * strategies.size();

		// Grid and axis.
		g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
		FontMetrics small = g.getFontMetrics();
		for (double tick = 0; tick <= top + step / 2; tick += step) {
			int x = LEFT + (int) Math.round(plotWidth * tick / top);
			g.setColor(GRID);
			g.drawLine(x, TOP - 6, x, plotBottom);
			g.setColor(Color.DARK_GRAY);
			String label = String.format(Locale.ROOT, "%,.0f", tick);
			g.drawString(label, x - small.stringWidth(label) / 2, plotBottom + 18);
		}
		g.setColor(Color.BLACK);
		g.drawLine(LEFT, TOP - 6, LEFT, plotBottom);

		g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 14));
		FontMetrics metrics = g.getFontMetrics();
		for (int i = 0; i < strategies.size(); i++) {
			JsonNode s = strategies.get(i);
			int y = TOP + ROW * i;
			int centre = y + ROW / 2;
			double median = s.path("median").asDouble();
			int barEnd = LEFT + (int) Math.round(plotWidth * median / top);
			boolean thesis = s.path("thesis").asBoolean();

			String name = s.path("strategy").asText();
			g.setColor(Color.BLACK);
			g.drawString(name, LEFT - 10 - metrics.stringWidth(name), centre + metrics.getAscent() / 2 - 2);

			g.setColor(thesis ? THESIS : OTHER);
			g.fillRect(LEFT + 1, y + 5, Math.max(1, barEnd - LEFT - 1), ROW - 10);

			int low = LEFT + (int) Math.round(plotWidth * s.path("min").asDouble() / top);
			int high = LEFT + (int) Math.round(plotWidth * s.path("max").asDouble() / top);
			g.setColor(WHISKER);
			g.setStroke(new BasicStroke(1.6f));
			g.drawLine(low, centre, high, centre);
			g.drawLine(low, centre - 6, low, centre + 6);
			g.drawLine(high, centre - 6, high, centre + 6);
			g.setStroke(new BasicStroke(1f));

			JsonNode core = s.path("coreShare");
			String text = String.format(Locale.ROOT, "%,.0f  core %s", median,
					core.isNumber() ? String.format(Locale.ROOT, "%.0f%%", 100 * core.asDouble()) : "n/a");
			int textX = Math.max(barEnd, high) + 8;
			g.setColor(Color.BLACK);
			g.drawString(text, textX, centre + metrics.getAscent() / 2 - 2);
			if (s.path("noisy").asBoolean()) {
				g.setColor(NOISY);
				g.drawString("noisy", textX + metrics.stringWidth(text) + 8, centre + metrics.getAscent() / 2 - 2);
			}
		}

		// Legend.
		int legendY = plotBottom + 44;
		g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
		legend(g, LEFT, legendY, THESIS, "the thesis's four strategies");
		legend(g, LEFT + 250, legendY, OTHER, "the other strategies");
		g.dispose();
		return image;
	}

	private static void legend(Graphics2D g, int x, int y, Color color, String label) {
		g.setColor(color);
		g.fillRect(x, y - 11, 22, 12);
		g.setColor(Color.BLACK);
		g.drawString(label, x + 30, y);
	}

	/** 1, 2 or 5 times a power of ten, at least the rough step. */
	private static double niceStep(double rough) {
		if (rough <= 0) {
			return 1;
		}
		double power = Math.pow(10, Math.floor(Math.log10(rough)));
		for (double factor : new double[] { 1, 2, 5, 10 }) {
			if (factor * power >= rough) {
				return factor * power;
			}
		}
		return 10 * power;
	}

}
