package io.github.qsbench.jmh.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.MissingNode;

import io.github.qsbench.core.strategy.Strategy;
import io.github.qsbench.jmh.report.JmhResult.Role;

/**
 * Writes the generated parts of {@code docs/findings.md}: every strategy's ratio to
 * {@code concurrent-atomic} with its 95% interval ({@link RatioInterval}), in the core
 * (JMH, the fork as the unit) and end to end (the study's rounds as the unit), and the
 * answer to each of the page's questions. The page's prose stays as written; only the
 * blocks between {@code <!-- generated:NAME -->} and {@code <!-- /generated:NAME -->} are
 * replaced ({@code jmh}, {@code jmh-rounds}, {@code e2e}, {@code e2e-warmup},
 * {@code questions}, and the warm-up curves {@code jmh-warmup-curve} and
 * {@code e2e-warmup-curve}, see {@link WarmupCurves}).
 *
 * <p>
 * Usage:
 * {@code Findings --page docs/findings.md --charts docs/findings [--jmh DIR] [--e2e DIR]... [--jmh-curve DIR] [--e2e-curve DIR] [--note TEXT]}.
 * {@code --jmh DIR} holds one folder per round ({@code round-1}, ...) of
 * {@code scripts/jmh-study.sh} results, or the JSON files of one round; each
 * {@code --e2e DIR} is a run of {@code scripts/e2e-study.sh} whose {@code figures.json}
 * ({@code scripts/e2e-summary.py}) lists every passed run. Several runs are pooled cell
 * by cell, so a study can add cells in a later run (a part) without measuring the others
 * again; a cell measured in two parts warmed alike pools their rounds, and a part that
 * warmed its starts longer (a higher warm-up limit) replaces the cell's runs of a part
 * warmed less, which the page says it set aside. The charts are {@code CHARTS/*.png},
 * linked from the page by the path from the page's folder.
 */
public final class Findings {

	/** Every ratio is to this strategy, the service's default. */
	static final Strategy BASELINE = Strategy.CONCURRENT_ATOMIC;

	private static final Pattern BLOCK = Pattern
		.compile("(<!-- generated:([\\w-]+) -->\\n)(.*?)(<!-- /generated:\\2 -->)", Pattern.DOTALL);

	/**
	 * A comparison the page answers: {@code a}'s figure over {@code b}'s.
	 *
	 * @param question the thesis's or a seed's question
	 * @param a the design asked about
	 * @param b what it is compared with
	 * @param claim what a seed claimed, in its own setting ("" where none; the thesis's
	 * own ratios come from its tables)
	 */
	record Question(String question, Strategy a, Strategy b, String claim) {

	}

	/** The page's questions, in its order. */
	static final List<Question> QUESTIONS = List.of(
			new Question("`synchronized` against a `ReadWriteLock`", Strategy.SYNCHRONIZED, Strategy.READ_WRITE_LOCK,
					""),
			new Question("concurrent collections against a monitor", Strategy.CONCURRENT_ATOMIC, Strategy.SYNCHRONIZED,
					""),
			new Question("concurrent collections against a `ReadWriteLock`", Strategy.CONCURRENT_POJO,
					Strategy.READ_WRITE_LOCK, ""),
			new Question("a CAS message against a plain one", Strategy.CONCURRENT_ATOMIC, Strategy.CONCURRENT_POJO, ""),
			new Question("a fair `ReadWriteLock` against an unfair one", Strategy.FAIR_READ_WRITE_LOCK,
					Strategy.READ_WRITE_LOCK, ""),
			new Question("`StampedLock`'s optimistic reads against a `ReadWriteLock`", Strategy.STAMPED_LOCK,
					Strategy.READ_WRITE_LOCK, ""),
			new Question("the read lock on push against the write lock", Strategy.READ_WRITE_LOCK_READ_PUSH,
					Strategy.READ_WRITE_LOCK, ""),
			new Question("Tomcat's array ring under a monitor against `ConcurrentLinkedQueue`",
					Strategy.SYNCHRONIZED_ARRAY_QUEUE, Strategy.CONCURRENT_POJO,
					"seed 001: 2–2.5 (queue alone, 4 threads)"),
			new Question("the wait-free dispatcher against concurrent queues", Strategy.SPLIT_DISPATCHER,
					Strategy.SPLIT_CONCURRENT, "seed 003: 3 (an executor service, JDK 8)"),
			new Question("JCTools queues against the JDK's concurrent queues", Strategy.SPLIT_JCTOOLS,
					Strategy.SPLIT_CONCURRENT, "seed 004: 1.04–1.16 (SPMC queue alone)"),
			new Question("a lock per queue against concurrent collections", Strategy.LANE_LOCKED,
					Strategy.CONCURRENT_ATOMIC, ""),
			new Question("Redis out of process against in process", Strategy.REDIS, Strategy.CONCURRENT_ATOMIC, ""));

	/** One JMH cell: a JVM and collector, and a setup. */
	record JmhCell(String run, Setup setup) {

		String chartName() {
			return "jmh-" + this.run.toLowerCase(Locale.ROOT).replace(' ', '-') + "-" + this.setup + ".png";
		}

	}

	/** One strategy in one JMH cell, its forks pooled over the rounds. */
	record JmhEntry(double[] forks, double[] first, double[] last, double allocation, List<Double> roundMeans) {

		double geometricMean() {
			return Math.exp(Arrays.stream(this.forks).map(Math::log).average().orElse(Double.NaN));
		}

	}

	/**
	 * One end-to-end run: a strategy in a cell in one round, and where the cell came in
	 * its service start (0: measured first after the warm-up; -1: not known).
	 */
	record E2eRun(String cell, String strategy, int round, double messagesPerSecond, Double cpuMicrosPerMessage,
			Double coreShare, int position) {

	}

	private final Map<JmhCell, Map<Strategy, JmhEntry>> jmh = new TreeMap<>(
			Comparator.comparing(JmhCell::run).thenComparing(JmhCell::setup));

	private final Map<JmhCell, String> warmups = new LinkedHashMap<>();

	private int rounds;

	/**
	 * Each JMH cell's warm-up and measurement settings: a study may run some setups with
	 * a longer warm-up than others, and a round of a cell may differ from the others.
	 */
	private final Map<JmhCell, Set<String>> jmhSettings = new HashMap<>();

	/**
	 * The fewest measured iterations of any JMH cell: what a fork's warm-up check spans.
	 */
	private int measuredIterations = Integer.MAX_VALUE;

	private String jmhCurve = "No core warm-up curve was given.\n";

	private String e2eCurve = "No end-to-end warm-up curve was given.\n";

	private final Map<String, Map<String, List<E2eRun>>> e2e = new TreeMap<>();

	/** The warm-up limit of the parts each end-to-end cell's runs come from. */
	private final Map<String, Integer> e2eLimits = new HashMap<>();

	/** The parts each end-to-end cell's runs come from. */
	private final Map<String, Set<String>> e2eParts = new HashMap<>();

	/** Per cell, the runs of parts warmed less than the part it was measured in again. */
	private final Map<String, List<String>> e2eSetAside = new TreeMap<>();

	/**
	 * One end-to-end service start's warm-up: its windows' CPU µs per message, under the
	 * limit and tolerance of its part (parts measured at different times set them
	 * differently).
	 *
	 * @param part the part's folder name
	 * @param cells the cells the start measured after its warm-up (from the part's
	 * {@code order.tsv}; empty where the part has none)
	 * @param runtime JDK-THREADS[-TAG], from the start's name
	 * @param limit the most windows the start was allowed
	 * @param tolerance how close two windows in a row had to agree to stop
	 * @param windows CPU µs per message of each window, in order
	 */
	record WarmupStart(String part, List<String> cells, String runtime, int limit, double tolerance,
			List<Double> windows) {

		/** Whether its last two windows agreed: it stopped because it was stable. */
		boolean stable() {
			return this.windows.size() >= 2 && agrees(this.windows, this.windows.size() - 1, this.tolerance);
		}

		/**
		 * The first of these windows (from 1) that agrees with the one before it within
		 * the tolerance: where the study's rule stops warming; 0 where none does.
		 */
		static int ruleMetAt(List<Double> windows, double tolerance) {
			for (int i = 1; i < windows.size(); i++) {
				if (agrees(windows, i, tolerance)) {
					return i + 1;
				}
			}
			return 0;
		}

		private static boolean agrees(List<Double> windows, int window, double tolerance) {
			return Math.abs(windows.get(window) / windows.get(window - 1) - 1) <= tolerance;
		}

	}

	/** Service names are STRATEGY-RUNTIME[-TAG]-rROUND, the runtime JDK-THREADS. */
	private static final Pattern SERVICE_RUNTIME = Pattern.compile("(\\d+-(?:platform|virtual)(?:-\\w+)?)-r\\d+$");

	/** Each end-to-end service start's warm-up, by part and service name. */
	private final Map<String, WarmupStart> e2eWarmups = new LinkedHashMap<>();

	private final ThesisResults thesis = ThesisResults.load();

	private final int cpus = Runtime.getRuntime().availableProcessors();

	public static void main(String[] args) throws IOException {
		Map<String, String> options = new LinkedHashMap<>();
		List<Path> e2eParts = new ArrayList<>();
		for (int i = 0; i + 1 < args.length; i += 2) {
			if (args[i].equals("--e2e")) {
				e2eParts.add(Path.of(args[i + 1]));
			}
			else {
				options.put(args[i], args[i + 1]);
			}
		}
		if (args.length % 2 != 0 || !options.containsKey("--page") || !options.containsKey("--charts")) {
			System.err.println("usage: Findings --page PAGE.md --charts DIR [--jmh DIR] [--e2e DIR]..."
					+ " [--jmh-curve DIR] [--e2e-curve DIR] [--note TEXT]");
			System.exit(2);
		}
		System.setProperty("java.awt.headless", "true");
		Findings findings = new Findings();
		if (options.containsKey("--jmh")) {
			findings.readJmh(Path.of(options.get("--jmh")));
		}
		if (options.containsKey("--jmh-curve")) {
			// the check spans the study's measured iterations (--standard's 4 where no
			// study was given)
			int measured = (findings.measuredIterations == Integer.MAX_VALUE) ? 4 : findings.measuredIterations;
			findings.jmhCurve = WarmupCurves.core(Path.of(options.get("--jmh-curve")), measured);
		}
		for (Path part : e2eParts) {
			findings.readE2e(part);
		}
		if (options.containsKey("--e2e-curve")) {
			findings.e2eCurve = WarmupCurves.endToEnd(Path.of(options.get("--e2e-curve")), findings.warmupTolerance());
		}
		Path page = Path.of(options.get("--page"));
		Path charts = Path.of(options.get("--charts"));
		Files.createDirectories(charts);
		String linkBase = page.toAbsolutePath().getParent().relativize(charts.toAbsolutePath()).toString();
		Map<String, String> blocks = findings.blocks(linkBase, options.getOrDefault("--note", ""));
		findings.writeCharts(charts);
		Files.writeString(page, replaceBlocks(Files.readString(page), blocks));
		System.out.println("Findings: " + page + " (" + findings.jmh.size() + " JMH cells, " + findings.rounds
				+ " JMH rounds, " + findings.e2e.size() + " end-to-end cells)");
	}

	// ---------------------------------------------------------------- reading

	void readJmh(Path dir) throws IOException {
		List<Path> roundDirs;
		try (Stream<Path> list = Files.list(dir)) {
			roundDirs = list.filter(Files::isDirectory)
				.filter(p -> p.getFileName().toString().startsWith("round-"))
				.sorted()
				.toList();
		}
		if (roundDirs.isEmpty()) {
			roundDirs = List.of(dir);
		}
		Map<JmhCell, Map<Strategy, List<JmhResult>>> byCell = new LinkedHashMap<>();
		for (Path round : roundDirs) {
			List<Path> files;
			try (Stream<Path> list = Files.list(round)) {
				files = list.filter(f -> f.toString().endsWith(".json")).sorted().toList();
			}
			for (Path file : files) {
				for (JmhResult r : JmhResult.read(file)) {
					if (!r.completion().equals(JmhResult.GUARDED)) {
						continue;
					}
					JmhCell cell = new JmhCell(r.run().shortLabel(), r.setup());
					byCell.computeIfAbsent(cell, k -> new LinkedHashMap<>())
						.computeIfAbsent(r.strategy(), k -> new ArrayList<>())
						.add(r);
					this.measuredIterations = Math.min(this.measuredIterations, r.settings().measurementIterations());
					this.jmhSettings.computeIfAbsent(cell, k -> new TreeSet<>())
						.add(r.settings().warmupIterations() + " × " + r.settings().warmupTime() + " warm-up, "
								+ r.settings().measurementIterations() + " × " + r.settings().measurementTime()
								+ " measured, " + r.settings().forks() + " forks per round");
				}
			}
		}
		this.rounds = roundDirs.size();
		byCell.forEach((cell, strategies) -> {
			Map<Strategy, JmhEntry> entries = new TreeMap<>();
			List<Double> first = new ArrayList<>();
			List<Double> last = new ArrayList<>();
			strategies.forEach((strategy, results) -> {
				double[] forks = results.stream().flatMapToDouble(r -> Arrays.stream(r.forks().means())).toArray();
				double[] f = results.stream().flatMapToDouble(r -> Arrays.stream(r.forks().first())).toArray();
				double[] l = results.stream().flatMapToDouble(r -> Arrays.stream(r.forks().last())).toArray();
				double allocation = results.stream()
					.mapToDouble(r -> r.iterationMeans().getOrDefault("gc.alloc.rate.norm", Double.NaN))
					.average()
					.orElse(Double.NaN);
				List<Double> roundMeans = results.stream()
					.map(r -> Math.exp(Arrays.stream(r.forks().means()).map(Math::log).average().orElse(Double.NaN)))
					.toList();
				entries.put(strategy, new JmhEntry(forks, f, l, allocation, roundMeans));
				Arrays.stream(f).forEach(first::add);
				Arrays.stream(l).forEach(last::add);
			});
			this.jmh.put(cell, entries);
			this.warmups.put(cell,
					RatioInterval
						.paired(last.stream().mapToDouble(Double::doubleValue).toArray(),
								first.stream().mapToDouble(Double::doubleValue).toArray())
						.format());
		});
	}

	/**
	 * Adds one end-to-end run (a part of the study) to what was read before: its passed
	 * runs join the cells' runs, its service starts' warm-up windows join the starts'. A
	 * cell this part and an earlier one both measured keeps the runs of the part whose
	 * starts were warmed longer (the higher warm-up limit; both where the limits are
	 * equal), whichever was read first: a cell measured again by the warm-up rule
	 * replaces its cold rounds instead of pooling with them.
	 * @param dir an {@code scripts/e2e-study.sh} OUT
	 */
	void readE2e(Path dir) throws IOException {
		Path settingsFile = dir.resolve("settings.json");
		JsonNode settings = Files.exists(settingsFile) ? new ObjectMapper().readTree(Files.readString(settingsFile))
				: MissingNode.getInstance();
		int warmupLimit = settings.path("warmupMax").asInt(0);
		double tolerance = settings.path("warmupTolerance").asDouble(Double.NaN);
		String partName = dir.toAbsolutePath().normalize().getFileName().toString();
		// order.tsv: round, build, strategy, runtime, simulation, the start's cells in
		// the order run; the start is named as scripts/e2e-study.sh names it
		Map<String, Integer> positions = new HashMap<>();
		Map<String, List<String>> startCells = new HashMap<>();
		Path order = dir.resolve("order.tsv");
		if (Files.exists(order)) {
			for (String line : Files.readAllLines(order)) {
				String[] f = line.split("\t", -1);
				if (f.length < 6) {
					continue;
				}
				List<String> cells = List.of(f[5].split(" "));
				startCells.put(f[2] + f[1].replaceFirst("^this", "") + "-" + f[3].replace('+', '-') + "-r" + f[0],
						cells);
				if ("this".equals(f[1])) {
					for (int i = 0; i < cells.size(); i++) {
						positions.put(f[2] + " " + cells.get(i) + " " + f[0], i);
					}
				}
			}
		}
		for (WarmupCurves.Window w : WarmupCurves.windows(dir)) {
			if (!startCells.isEmpty() && !startCells.containsKey(w.start())) {
				// the start's cells would be unknown and the start kept whatever was set
				// aside
				throw new IllegalStateException(dir + ": warmups.tsv has a service start order.tsv does not plan, "
						+ w.start() + " (read as strategy[build]-runtime-rROUND, scripts/e2e-study.sh's naming)");
			}
			this.e2eWarmups
				.computeIfAbsent(dir.toAbsolutePath().normalize() + "/" + w.start(),
						k -> new WarmupStart(partName, startCells.getOrDefault(w.start(), List.of()),
								runtimeOf(w.start()), warmupLimit, tolerance, new ArrayList<>()))
				.windows()
				.add(w.cpuMicrosPerMessage());
		}
		JsonNode root = new ObjectMapper().readTree(Files.readString(dir.resolve("figures.json")));
		Map<String, List<E2eRun>> byCell = new TreeMap<>();
		for (JsonNode run : root.path("runs")) {
			String cell = run.path("cell").asString();
			String strategy = run.path("strategy").asString();
			int round = run.path("rep").asInt();
			E2eRun r = new E2eRun(cell, strategy, round, run.path("messagesPerSecond").asDouble(),
					run.path("cpuMicrosPerMessage").isNumber() ? run.path("cpuMicrosPerMessage").asDouble() : null,
					run.path("coreShare").isNumber() ? run.path("coreShare").asDouble() : null,
					positions.getOrDefault(strategy + " " + cell + " " + round, -1));
			if (run.path("ok").asBoolean(true)) {
				byCell.computeIfAbsent(r.cell(), k -> new ArrayList<>()).add(r);
			}
		}
		byCell.forEach((cell, runs) -> {
			int before = this.e2eLimits.getOrDefault(cell, warmupLimit);
			if (warmupLimit < before) {
				this.e2eSetAside.computeIfAbsent(cell, k -> new ArrayList<>())
					.add(runs.size() + " runs of `" + partName + "` (warmed by at most " + warmupLimit + " windows)");
				return;
			}
			if (warmupLimit > before) {
				int count = this.e2e.remove(cell).values().stream().mapToInt(List::size).sum();
				this.e2eSetAside.computeIfAbsent(cell, k -> new ArrayList<>())
					.add(count + " runs of "
							+ this.e2eParts.remove(cell)
								.stream()
								.map(p -> "`" + p + "`")
								.collect(Collectors.joining(", "))
							+ " (warmed by at most " + before + " windows)");
			}
			this.e2eLimits.put(cell, warmupLimit);
			this.e2eParts.computeIfAbsent(cell, k -> new TreeSet<>()).add(partName);
			runs.forEach(r -> this.e2e.computeIfAbsent(cell, k -> new TreeMap<>())
				.computeIfAbsent(r.strategy(), k -> new ArrayList<>())
				.add(r));
		});
	}

	private static String runtimeOf(String service) {
		Matcher m = SERVICE_RUNTIME.matcher(service);
		return m.find() ? m.group(1) : service;
	}

	// ---------------------------------------------------------------- writing

	Map<String, String> blocks(String charts, String note) {
		Map<String, String> blocks = new LinkedHashMap<>();
		blocks.put("jmh", jmhBlock(charts, note));
		blocks.put("jmh-rounds", roundsBlock());
		blocks.put("e2e", e2eBlock(charts, note));
		blocks.put("e2e-warmup", warmupBlock());
		blocks.put("jmh-warmup-curve", this.jmhCurve);
		blocks.put("e2e-warmup-curve", this.e2eCurve);
		blocks.put("questions", questionsBlock());
		return blocks;
	}

	private String jmhBlock(String charts, String note) {
		StringBuilder md = new StringBuilder();
		if (this.jmh.isEmpty()) {
			return "No JMH results were given.\n";
		}
		md.append("Delivered messages per µs of each fork (its mean over the measured iterations) are the unit: ")
			.append("each strategy's ratio to ")
			.append(BASELINE.profile())
			.append(" is the ratio of the geometric means of its forks and concurrent-atomic's, with Welch's 95% ")
			.append("t-interval on the logarithms. **faster** / **slower**: the whole interval is above / below 1; ")
			.append("otherwise **not distinguishable**. B/op: bytes allocated per operation (`-prof gc`, ")
			.append("`gc.alloc.rate.norm`; an operation is a push or a poll, found or empty). Warm-up check: a fork's ")
			.append("last measured iteration over its first, over every fork of the cell (1 inside the interval: ")
			.append("no drift left to see). ");
		Set<String> settings = this.jmhSettings.values()
			.stream()
			.flatMap(Set::stream)
			.collect(Collectors.toCollection(TreeSet::new));
		md.append((settings.size() == 1) ? "Settings: " + settings.iterator().next() + ", "
				: "Settings differ between cells (each cell says its own), ")
			.append(this.rounds)
			.append(" round(s) pooled.");
		if (!note.isEmpty()) {
			md.append(' ').append(note);
		}
		md.append("\n\n");
		this.jmh.forEach((cell, entries) -> {
			md.append("#### ").append(cell.run()).append(", setup ").append(cell.setup());
			md.append(" (").append(cell.setup().readers()).append(" reader(s), ").append(cell.setup().writers());
			md.append(" writer(s))");
			if (cell.setup().threads() > this.cpus) {
				md.append(" — **")
					.append(cell.setup().threads())
					.append(" threads on ")
					.append(this.cpus)
					.append(" CPUs: beyond the cores, time-sharing as much as contention**");
			}
			md.append("\n\n");
			if (settings.size() > 1) {
				md.append("Settings: ").append(String.join("; and ", this.jmhSettings.get(cell))).append(". ");
			}
			md.append("Warm-up check (last ÷ first measured iteration, all forks): ")
				.append(this.warmups.get(cell))
				.append(". ![ratios](")
				.append(charts)
				.append('/')
				.append(cell.chartName())
				.append(")\n\n");
			md.append("| strategy | delivered/µs | ÷ ").append(BASELINE.profile());
			md.append(" [95%] | verdict | B/op | last ÷ first [95%] | forks |\n|---|---:|---|---|---:|---|---:|\n");
			JmhEntry base = entries.get(BASELINE);
			byRate(entries).forEach(e -> {
				JmhEntry entry = e.getValue();
				RatioInterval ratio = (base == null) ? null : RatioInterval.of(entry.forks(), base.forks());
				md.append("| ")
					.append(e.getKey().profile())
					.append(" | ")
					.append(fmt(entry.geometricMean(), 3))
					.append(" | ")
					.append((e.getKey() == BASELINE) ? "1" : (ratio == null) ? "n/a" : ratio.format())
					.append(" | ")
					.append((e.getKey() == BASELINE) ? "baseline"
							: (ratio == null) ? "n/a" : ratio.label("faster", "slower"))
					.append(" | ")
					.append(fmt(entry.allocation(), 0))
					.append(" | ")
					.append(RatioInterval.paired(entry.last(), entry.first()).format())
					.append(" | ")
					.append(entry.forks().length)
					.append(" |\n");
			});
			md.append('\n');
		});
		return md.toString();
	}

	/** Fastest first, by the geometric mean of the forks. */
	private static List<Map.Entry<Strategy, JmhEntry>> byRate(Map<Strategy, JmhEntry> entries) {
		return entries.entrySet()
			.stream()
			.sorted(Comparator.comparingDouble(e -> -e.getValue().geometricMean()))
			.toList();
	}

	/**
	 * How many pairwise orders held in every round: per cell, every two strategies, by
	 * the geometric mean of each round's forks; and how many pairs every round told apart
	 * in the same direction (one round's forks alone, 95%).
	 */
	private String roundsBlock() {
		if (this.rounds < 2) {
			return "One JMH round only: run `scripts/study.sh --full` (three rounds) to see which orders hold.\n";
		}
		StringBuilder md = new StringBuilder();
		md.append("| cell | pairs | same order in all ")
			.append(this.rounds)
			.append(" rounds | not distinguishable (pooled) |\n|---|---:|---:|---:|\n");
		int allPairs = 0;
		int allHeld = 0;
		for (Map.Entry<JmhCell, Map<Strategy, JmhEntry>> cell : this.jmh.entrySet()) {
			List<Map.Entry<Strategy, JmhEntry>> list = List.copyOf(cell.getValue().entrySet());
			int pairs = 0;
			int held = 0;
			int overlapping = 0;
			for (int i = 0; i < list.size(); i++) {
				for (int j = i + 1; j < list.size(); j++) {
					List<Double> a = list.get(i).getValue().roundMeans();
					List<Double> b = list.get(j).getValue().roundMeans();
					if (a.size() != this.rounds || b.size() != this.rounds) {
						continue;
					}
					pairs++;
					long above = 0;
					for (int r = 0; r < this.rounds; r++) {
						above += (a.get(r) > b.get(r)) ? 1 : 0;
					}
					if (above == 0 || above == this.rounds) {
						held++;
					}
					if (RatioInterval.of(list.get(i).getValue().forks(), list.get(j).getValue().forks())
						.verdict() == RatioInterval.Verdict.OVERLAPS) {
						overlapping++;
					}
				}
			}
			allPairs += pairs;
			allHeld += held;
			md.append("| ")
				.append(cell.getKey().run())
				.append(' ')
				.append(cell.getKey().setup())
				.append(" | ")
				.append(pairs)
				.append(" | ")
				.append(held)
				.append(" | ")
				.append(overlapping)
				.append(" |\n");
		}
		md.append("| **all** | ").append(allPairs).append(" | ").append(allHeld).append(" | |\n");
		return md.toString();
	}

	private String e2eBlock(String charts, String note) {
		if (this.e2e.isEmpty()) {
			return "No end-to-end results were given.\n";
		}
		StringBuilder md = new StringBuilder();
		md.append("Messages completed per second in each round's window are the unit (one service start per ")
			.append("strategy, runtime and round; cells in an order shuffled per round): each strategy's ratio to ")
			.append(BASELINE.profile())
			.append(" with Welch's 95% t-interval on the logarithms over the rounds, and the same for the ")
			.append("service's CPU µs per message (**dearer** / **cheaper**: interval wholly above / below 1). ")
			.append("Core share: the median share of request time spent in the queue core (the core-time meter).");
		if (!note.isEmpty()) {
			md.append(' ').append(note);
		}
		md.append("\n\n");
		if (!this.e2eSetAside.isEmpty()) {
			md.append("Cells measured again with a longer warm-up keep only those runs; set aside:\n\n");
			this.e2eSetAside.forEach((cell,
					runs) -> md.append("- ").append(cell).append(": ").append(String.join("; ", runs)).append('\n'));
			md.append('\n');
		}
		this.e2e.forEach((cell, strategies) -> {
			md.append("#### ")
				.append(cell)
				.append("\n\n![ratios](")
				.append(charts)
				.append('/')
				.append(e2eChartName(cell))
				.append(")\n\n");
			md.append("| strategy | msgs/s | ÷ ")
				.append(BASELINE.profile())
				.append(" [95%] | verdict | CPU µs/msg | ÷ [95%] | verdict | core share | rounds | max ÷ min |\n")
				.append("|---|---:|---|---|---:|---|---|---:|---:|---:|\n");
			List<E2eRun> base = strategies.get(BASELINE.profile());
			strategies.entrySet()
				.stream()
				.sorted(Comparator.comparingDouble(e -> -geo(e.getValue(), E2eRun::messagesPerSecond)))
				.forEach(e -> {
					List<E2eRun> runs = e.getValue();
					boolean isBase = e.getKey().equals(BASELINE.profile());
					RatioInterval rate = (base == null) ? null : RatioInterval
						.of(values(runs, E2eRun::messagesPerSecond), values(base, E2eRun::messagesPerSecond));
					RatioInterval cpu = (base == null) ? null : RatioInterval
						.of(values(runs, E2eRun::cpuMicrosPerMessage), values(base, E2eRun::cpuMicrosPerMessage));
					double[] rates = values(runs, E2eRun::messagesPerSecond);
					double spread = Arrays.stream(rates).max().orElse(Double.NaN)
							/ Arrays.stream(rates).min().orElse(Double.NaN);
					md.append("| ")
						.append(e.getKey())
						.append(" | ")
						.append(fmt(geo(runs, E2eRun::messagesPerSecond), 0))
						.append(" | ")
						.append(isBase ? "1" : (rate == null) ? "n/a" : rate.format())
						.append(" | ")
						.append(isBase ? "baseline" : (rate == null) ? "n/a" : rate.label("faster", "slower"))
						.append(" | ")
						.append(fmt(geo(runs, E2eRun::cpuMicrosPerMessage), 0))
						.append(" | ")
						.append(isBase ? "1" : (cpu == null) ? "n/a" : cpu.format())
						.append(" | ")
						.append(isBase ? "baseline" : (cpu == null) ? "n/a" : cpu.label("dearer", "cheaper"))
						.append(" | ")
						.append(share(runs))
						.append(" | ")
						.append(runs.size())
						.append(" | ")
						.append(fmt(spread, 2))
						.append(" |\n");
				});
			md.append('\n');
		});
		return md.toString();
	}

	/**
	 * The tolerance of the study's warm-up rule, which the end-to-end curve marks where
	 * it is met: the parts' own, NaN where they differ or there are none.
	 */
	private double warmupTolerance() {
		List<Double> tolerances = keptStarts().stream().map(WarmupStart::tolerance).distinct().toList();
		return (tolerances.size() == 1) ? tolerances.get(0) : Double.NaN;
	}

	/**
	 * The service starts behind the page's runs: a start whose cells were all set aside
	 * (measured again, warmer, by a later part) is left out, and one whose part recorded
	 * no plan is kept.
	 */
	private List<WarmupStart> keptStarts() {
		return this.e2eWarmups.values()
			.stream()
			.filter(w -> w.cells().isEmpty() || w.cells()
				.stream()
				.anyMatch(cell -> this.e2eParts.getOrDefault(cell, Set.of()).contains(w.part())))
			.toList();
	}

	private static String leftOut(int starts) {
		return (starts == 0) ? "" : " Left out with their runs: " + starts + ((starts == 1) ? " start" : " starts")
				+ " whose cells were all measured again, warmer.";
	}

	/**
	 * Per runtime (and service settings): how many warm-up windows the service starts
	 * took until two in a row agreed on CPU per message, and how far the first window was
	 * from the last.
	 */
	private String warmupBlock() {
		List<WarmupStart> kept = keptStarts();
		if (kept.isEmpty()) {
			return "No end-to-end warm-up was recorded.\n";
		}
		// one row per runtime and limit: "25-virtual | 8"
		Map<String, List<WarmupStart>> rows = kept.stream()
			.sorted(Comparator.comparing(WarmupStart::runtime).thenComparingInt(WarmupStart::limit))
			.collect(Collectors.groupingBy(w -> w.runtime() + " | " + w.limit(), LinkedHashMap::new,
					Collectors.toList()));
		String tolerances = kept.stream()
			.map(w -> fmt(100 * w.tolerance(), 0) + "%")
			.distinct()
			.collect(Collectors.joining(" or "));
		StringBuilder md = new StringBuilder();
		md.append("Each service start is warmed by windows of its warm-up load, up to the limit its part set, ")
			.append("until two windows in a row agree on the service's CPU per message within ")
			.append(tolerances)
			.append(".")
			.append(leftOut(this.e2eWarmups.size() - kept.size()))
			.append("\n\n| runtime | limit | service starts | stable within the limit | windows (median) |")
			.append(" first ÷ last window CPU/msg (median, range) |\n|---|---:|---:|---:|---:|---|\n");
		rows.forEach((row, starts) -> {
			long stable = starts.stream().filter(WarmupStart::stable).count();
			double windows = Stats.median(starts.stream().map(w -> (double) w.windows().size()).toList());
			List<Double> drift = starts.stream()
				.map(WarmupStart::windows)
				.filter(w -> w.size() >= 2)
				.map(w -> w.get(0) / w.get(w.size() - 1))
				.sorted()
				.toList();
			md.append("| ")
				.append(row)
				.append(" | ")
				.append(starts.size())
				.append(" | ")
				.append(stable)
				.append(" | ")
				.append(fmt(windows, (windows == Math.rint(windows)) ? 0 : 1))
				.append(" | ")
				.append(drift.isEmpty() ? "n/a"
						: fmt(Stats.median(drift), 2) + " (" + fmt(drift.get(0), 2) + "–"
								+ fmt(drift.get(drift.size() - 1), 2) + ")")
				.append(" |\n");
		});
		StringBuilder byPosition = new StringBuilder();
		this.e2e.forEach((cell, byStrategy) -> {
			RatioInterval bias = firstCellBias(byStrategy.values());
			if (bias != null) {
				byPosition.append("| ")
					.append(cell)
					.append(" | ")
					.append(bias.format())
					.append(" | ")
					.append(bias.n())
					.append(" | ")
					.append(bias.m())
					.append(" |\n");
			}
		});
		if (!byPosition.isEmpty()) {
			md.append("\nDoes warm-up left over bias the cell measured first? Where a start runs several cells, in an ")
				.append("order shuffled per round: each run's CPU per message over its strategy's geometric mean in ")
				.append("that cell (so the strategies' own costs cancel), the runs measured first after the warm-up ")
				.append("against those measured later, Welch's 95% t-interval on the logarithms (1 inside: no bias ")
				.append("left to see).\n\n| cell | first ÷ later CPU/msg [95%] | runs first | runs later |\n")
				.append("|---|---|---:|---:|\n")
				.append(byPosition);
		}
		return md.toString();
	}

	/**
	 * The cell measured first after a start's warm-up against the same cell measured
	 * later in other starts: each run's CPU per message over its strategy's geometric
	 * mean in the cell, first against later. Null unless both positions have two runs or
	 * more.
	 * @param byStrategy one cell's runs, a list per strategy
	 */
	static RatioInterval firstCellBias(Collection<List<E2eRun>> byStrategy) {
		List<Double> first = new ArrayList<>();
		List<Double> later = new ArrayList<>();
		for (List<E2eRun> runs : byStrategy) {
			double[] cpu = runs.stream()
				.filter(r -> r.cpuMicrosPerMessage() != null && r.cpuMicrosPerMessage() > 0)
				.mapToDouble(r -> Math.log(r.cpuMicrosPerMessage()))
				.toArray();
			if (cpu.length == 0) {
				continue;
			}
			double mean = Math.exp(Arrays.stream(cpu).average().orElseThrow());
			for (E2eRun r : runs) {
				if (r.cpuMicrosPerMessage() != null && r.cpuMicrosPerMessage() > 0 && r.position() >= 0) {
					(r.position() == 0 ? first : later).add(r.cpuMicrosPerMessage() / mean);
				}
			}
		}
		if (first.size() < 2 || later.size() < 2) {
			return null;
		}
		return RatioInterval.of(first.stream().mapToDouble(Double::doubleValue).toArray(),
				later.stream().mapToDouble(Double::doubleValue).toArray());
	}

	private String questionsBlock() {
		StringBuilder md = new StringBuilder();
		md.append("| question | ratio | where | a ÷ b [95%] | verdict | claimed: thesis 2017 (Total; Reader), seed |\n")
			.append("|---|---|---|---|---|---:|\n");
		for (Question q : QUESTIONS) {
			String ratioName = q.a().profile() + " ÷ " + q.b().profile();
			boolean any = false;
			for (Map.Entry<JmhCell, Map<Strategy, JmhEntry>> cell : this.jmh.entrySet()) {
				JmhEntry a = cell.getValue().get(q.a());
				JmhEntry b = cell.getValue().get(q.b());
				if (a == null || b == null) {
					continue;
				}
				RatioInterval r = RatioInterval.of(a.forks(), b.forks());
				md.append("| ")
					.append(any ? "" : q.question())
					.append(" | ")
					.append(any ? "" : ratioName)
					.append(" | core: ")
					.append(cell.getKey().run())
					.append(' ')
					.append(cell.getKey().setup())
					.append(beyondCores(cell.getKey().setup()))
					.append(" | ")
					.append(r.format())
					.append(" | ")
					.append(r.label("faster", "slower"))
					.append(" | ")
					.append(thesisRatio(cell.getKey().setup(), q))
					.append((any || q.claim().isEmpty()) ? "" : " " + q.claim())
					.append(" |\n");
				any = true;
			}
			for (Map.Entry<String, Map<String, List<E2eRun>>> cell : this.e2e.entrySet()) {
				List<E2eRun> a = cell.getValue().get(q.a().profile());
				List<E2eRun> b = cell.getValue().get(q.b().profile());
				if (a == null || b == null) {
					continue;
				}
				RatioInterval r = RatioInterval.of(values(a, E2eRun::messagesPerSecond),
						values(b, E2eRun::messagesPerSecond));
				RatioInterval cpu = RatioInterval.of(values(a, E2eRun::cpuMicrosPerMessage),
						values(b, E2eRun::cpuMicrosPerMessage));
				md.append("| ")
					.append(any ? "" : q.question())
					.append(" | ")
					.append(any ? "" : ratioName)
					.append(" | end to end: ")
					.append(cell.getKey())
					.append(" | msgs/s ")
					.append(r.format())
					.append("; CPU/msg ")
					.append(cpu.format())
					.append(" | ")
					.append(r.label("faster", "slower"))
					.append("; CPU ")
					.append(cpu.label("dearer", "cheaper"))
					.append(" | ")
					.append(any ? "" : q.claim())
					.append(" |\n");
				any = true;
			}
			if (!any) {
				md.append("| ")
					.append(q.question())
					.append(" | ")
					.append(ratioName)
					.append(" | not measured in this run | | | ")
					.append(q.claim())
					.append(" |\n");
			}
		}
		md.append("\nTo rerun one question alone (both of its strategies and the baseline, in the core and end to end,")
			.append(" into a page of its own; `--full` for the full settings):\n\n");
		for (int i = 0; i < QUESTIONS.size(); i++) {
			Question q = QUESTIONS.get(i);
			String strategies = String.join(" ",
					List.of(q.a().profile(), q.b().profile(), BASELINE.profile()).stream().distinct().toList());
			String out = "target/study/q" + (i + 1);
			md.append(i + 1)
				.append(". ")
				.append(q.question())
				.append(": `STUDY_STRATEGIES=\"")
				.append(strategies)
				.append("\" E2E_QUICK_STRATEGIES=\"")
				.append(strategies)
				.append("\" OUT=")
				.append(out)
				.append(" PAGE=")
				.append(out)
				.append("/findings.md CHARTS=")
				.append(out)
				.append("/charts flock /tmp/qs-bench.lock scripts/study.sh --quick`\n");
		}
		return md.toString();
	}

	private String beyondCores(Setup setup) {
		return (setup.threads() > this.cpus) ? " (" + setup.threads() + " threads on " + this.cpus + " CPUs)" : "";
	}

	/**
	 * The thesis's Total of {@code a} over {@code b} in that setup, where it ran both,
	 * and its Reader ratio beside: Total counts pushes too, so where writers outrun a
	 * starved reader (1-4) only the Reader ratio is like the delivered messages measured
	 * here.
	 */
	String thesisRatio(Setup setup, Question q) {
		Map<Role, Map<Strategy, Stats>> roles = this.thesis.of(setup);
		String total = roleRatio(roles.get(Role.Total), q);
		String reader = roleRatio(roles.get(Role.Reader), q);
		return total.isEmpty() ? "" : total + (reader.isEmpty() ? "" : "; Reader " + reader);
	}

	private static String roleRatio(Map<Strategy, Stats> scores, Question q) {
		Stats a = (scores != null) ? scores.get(q.a()) : null;
		Stats b = (scores != null) ? scores.get(q.b()) : null;
		return (a == null || b == null) ? "" : fmt(a.score() / b.score(), 2);
	}

	void writeCharts(Path dir) throws IOException {
		for (Map.Entry<JmhCell, Map<Strategy, JmhEntry>> cell : this.jmh.entrySet()) {
			JmhEntry base = cell.getValue().get(BASELINE);
			if (base == null) {
				continue;
			}
			Map<String, RatioInterval> ratios = new LinkedHashMap<>();
			byRate(cell.getValue())
				.forEach(e -> ratios.put(e.getKey().profile(), RatioInterval.of(e.getValue().forks(), base.forks())));
			chart(dir.resolve(cell.getKey().chartName()), "Core (JMH), " + cell.getKey().run() + ", setup "
					+ cell.getKey().setup() + beyondCores(cell.getKey().setup()), ratios);
		}
		for (Map.Entry<String, Map<String, List<E2eRun>>> cell : this.e2e.entrySet()) {
			List<E2eRun> base = cell.getValue().get(BASELINE.profile());
			if (base == null) {
				continue;
			}
			Map<String, RatioInterval> ratios = new LinkedHashMap<>();
			cell.getValue()
				.entrySet()
				.stream()
				.sorted(Comparator.comparingDouble(e -> -geo(e.getValue(), E2eRun::messagesPerSecond)))
				.forEach(e -> ratios.put(e.getKey(), RatioInterval.of(values(e.getValue(), E2eRun::messagesPerSecond),
						values(base, E2eRun::messagesPerSecond))));
			chart(dir.resolve(e2eChartName(cell.getKey())), "End to end, " + cell.getKey(), ratios);
		}
	}

	/**
	 * log2 of each ratio with its 95% interval as error bars (symmetric on that scale): 0
	 * is concurrent-atomic, +1 twice its rate, -1 half.
	 */
	private static void chart(Path file, String title, Map<String, RatioInterval> ratios) throws IOException {
		CategoryChart chart = new CategoryChartBuilder().width(900)
			.height(520)
			.title(title)
			.xAxisTitle("strategy")
			.yAxisTitle("log2(rate ÷ " + BASELINE.profile() + "), 95%")
			.build();
		chart.getStyler().setLegendVisible(false);
		chart.getStyler().setXAxisLabelRotation(45);
		List<String> names = new ArrayList<>(ratios.keySet());
		List<Double> points = new ArrayList<>();
		List<Double> errors = new ArrayList<>();
		ratios.values().forEach(r -> {
			points.add(Double.isNaN(r.ratio()) ? 0 : Math.log(r.ratio()) / Math.log(2));
			errors.add(Double.isNaN(r.low()) ? 0 : r.log2HalfWidth());
		});
		chart.addSeries("log2 ratio", names, points, errors);
		BitmapEncoder.saveBitmap(chart, file.toString(), BitmapFormat.PNG);
	}

	static String e2eChartName(String cell) {
		return "e2e-" + cell.replace('/', '_') + ".png";
	}

	static String replaceBlocks(String page, Map<String, String> blocks) {
		Matcher m = BLOCK.matcher(page);
		StringBuilder out = new StringBuilder();
		List<String> seen = new ArrayList<>();
		while (m.find()) {
			String name = m.group(2);
			String text = blocks.get(name);
			if (text == null) {
				throw new IllegalArgumentException("no generated block named " + name);
			}
			seen.add(name);
			m.appendReplacement(out, Matcher.quoteReplacement(m.group(1) + text + m.group(4)));
		}
		m.appendTail(out);
		List<String> missing = blocks.keySet().stream().filter(b -> !seen.contains(b)).toList();
		if (!missing.isEmpty()) {
			throw new IllegalArgumentException("the page has no block for " + String.join(", ", missing));
		}
		return out.toString();
	}

	private static double[] values(List<E2eRun> runs, Function<E2eRun, Double> figure) {
		List<Double> values = runs.stream().map(figure).toList();
		return values.contains(null) ? new double[0] : values.stream().mapToDouble(Double::doubleValue).toArray();
	}

	private static double geo(List<E2eRun> runs, Function<E2eRun, Double> figure) {
		double[] v = values(runs, figure);
		return (v.length == 0) ? Double.NaN : Math.exp(Arrays.stream(v).map(Math::log).average().orElse(Double.NaN));
	}

	private static String share(List<E2eRun> runs) {
		List<Double> shares = runs.stream().map(E2eRun::coreShare).filter(s -> s != null).toList();
		return shares.isEmpty() ? "n/a" : String.format(Locale.ROOT, "%.1f%%", 100 * Stats.median(shares));
	}

	static String fmt(double value, int digits) {
		return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%." + digits + "f", value);
	}

}
