package io.github.qsbench.compare;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One comparison, run on a thread of its own: starts one instance per strategy, waits
 * until all answer, then rounds (the first a warm-up, not counted), each measuring every
 * strategy for one window in an order shuffled by the seed, one instance loaded at a time
 * while the others idle; then stops them all, whether it finished, failed or was
 * cancelled. Its {@link #snapshot()} is what {@code GET /compare} answers, ranking
 * included as soon as two rounds are counted.
 */
final class Comparison implements Runnable {

	/** How long the instances may take to start, all together. */
	static final Duration START_TIMEOUT = Duration.ofSeconds(60);

	private static final Logger log = LoggerFactory.getLogger(Comparison.class);

	enum State {

		STARTING, RUNNING, FINISHED, CANCELLED, FAILED;

		boolean over() {
			return this == FINISHED || this == CANCELLED || this == FAILED;
		}

	}

	private final long id;

	private final ComparisonRequest request;

	private final Instances instances;

	private final Load load;

	private final String command;

	private final Instant started = Instant.now();

	private final List<List<String>> orders = new ArrayList<>();

	private final List<WindowResult> windows = new ArrayList<>();

	private volatile boolean cancelled;

	private State state = State.STARTING;

	private String phase = "starting";

	private String error;

	private Instant ended;

	private final List<Instances.Instance> running = new ArrayList<>();

	Comparison(long id, ComparisonRequest request, Instances instances, Load load, String command) {
		this.id = id;
		this.request = request;
		this.instances = instances;
		this.load = load;
		this.command = command;
		Random random = new Random(request.seed());
		for (int round = 0; round <= request.rounds(); round++) {
			List<String> order = new ArrayList<>(request.strategies());
			Collections.shuffle(order, random);
			this.orders.add(List.copyOf(order));
		}
	}

	long id() {
		return this.id;
	}

	void cancel() {
		this.cancelled = true;
	}

	synchronized boolean over() {
		return this.state.over();
	}

	@Override
	public void run() {
		State outcome = State.FAILED;
		String failure = null;
		try {
			startInstances();
			synchronized (this) {
				this.state = State.RUNNING;
			}
			for (int round = 0; round <= this.request.rounds(); round++) {
				for (String profile : this.orders.get(round)) {
					checkCancelled();
					measure(round, profile);
				}
			}
			outcome = State.FINISHED;
		}
		catch (CancelledException ex) {
			outcome = State.CANCELLED;
		}
		catch (InterruptedException ex) {
			outcome = this.cancelled ? State.CANCELLED : State.FAILED;
			failure = this.cancelled ? null : "interrupted";
		}
		catch (Exception ex) {
			log.warn("comparison {} failed", this.id, ex);
			outcome = this.cancelled ? State.CANCELLED : State.FAILED;
			failure = this.cancelled ? null : ex.getMessage();
		}
		finally {
			Thread.interrupted();
			phase("stopping the instances");
			stopInstances();
			// over only once its instances are gone: the next comparison starts on a
			// quiet machine
			finish(outcome, failure);
		}
	}

	private void startInstances() throws Exception {
		phase("starting " + this.request.strategies().size() + " instances");
		for (String profile : this.request.strategies()) {
			Instances.Instance instance = this.instances.start(profile);
			synchronized (this) {
				this.running.add(instance);
			}
		}
		Instant deadline = Instant.now().plus(START_TIMEOUT);
		for (Instances.Instance instance : instances()) {
			checkCancelled();
			instance.awaitReady(deadline);
		}
	}

	private void measure(int round, String profile) throws Exception {
		Instances.Instance instance = instances().stream()
			.filter((i) -> i.profile().equals(profile))
			.findFirst()
			.orElseThrow();
		phase(((round == 0) ? "warm-up" : "round " + round + " of " + this.request.rounds()) + ": " + profile);
		OptionalLong cpuBefore = instance.cpuNanos();
		Load.Window window = this.load.run(instance, this.request.load(),
				Duration.ofSeconds(this.request.windowSeconds()), () -> this.cancelled);
		OptionalLong cpuAfter = instance.cpuNanos();
		checkCancelled();
		Double cpuMicros = (cpuBefore.isPresent() && cpuAfter.isPresent() && window.completed() > 0)
				? (cpuAfter.getAsLong() - cpuBefore.getAsLong()) / 1e3 / window.completed() : null;
		synchronized (this) {
			this.windows.add(new WindowResult(round, round == 0, profile, window.perSecond(), cpuMicros,
					window.completed(), window.errors()));
		}
	}

	private void checkCancelled() {
		if (this.cancelled) {
			throw new CancelledException();
		}
	}

	private synchronized void phase(String phase) {
		this.phase = phase;
	}

	private synchronized List<Instances.Instance> instances() {
		return List.copyOf(this.running);
	}

	private synchronized void finish(State state, String error) {
		this.state = state;
		this.error = error;
		this.phase = switch (state) {
			case FINISHED -> "finished";
			case CANCELLED -> "cancelled";
			default -> "failed";
		};
	}

	/**
	 * Stops every instance at once, then waits for each (bounded by its close), even when
	 * interrupted: a cancel's interrupt can land while the instances stop, and the
	 * comparison is over only once they are gone. The interrupt is kept.
	 */
	void stopInstances() {
		List<Thread> stopping = new ArrayList<>();
		for (Instances.Instance instance : instances()) {
			stopping.add(Daemons.start("compare-stop-" + instance.profile(), instance::close));
		}
		boolean interrupted = false;
		for (Thread thread : stopping) {
			while (thread.isAlive()) {
				try {
					thread.join();
				}
				catch (InterruptedException ex) {
					interrupted = true;
				}
			}
		}
		if (interrupted) {
			Thread.currentThread().interrupt();
		}
		synchronized (this) {
			this.running.clear();
			this.ended = Instant.now();
		}
	}

	synchronized Snapshot snapshot() {
		int total = (this.request.rounds() + 1) * this.request.strategies().size();
		Instant until = (this.ended != null) ? this.ended : Instant.now();
		return new Snapshot(this.state.name().toLowerCase(java.util.Locale.ROOT), this.id, this.request, this.phase,
				this.windows.size(), total, Duration.between(this.started, until).toMillis() / 1e3,
				this.request.loadSeconds(), this.orders, List.copyOf(this.windows), ranking(), this.command,
				this.error);
	}

	/**
	 * Each strategy's geometric mean over the counted rounds, ranked by messages/s, with
	 * its paired ratio to the baseline (the first strategy) over the rounds both were
	 * measured in.
	 */
	private List<Ranked> ranking() {
		List<String> strategies = this.request.strategies();
		int rounds = this.request.rounds();
		double[][] rates = new double[strategies.size()][rounds];
		double[][] cpus = new double[strategies.size()][rounds];
		int counted = 0;
		for (WindowResult window : this.windows) {
			if (!window.warmup()) {
				int s = strategies.indexOf(window.strategy());
				rates[s][window.round() - 1] = window.messagesPerSecond();
				cpus[s][window.round() - 1] = (window.cpuMicrosPerMessage() != null) ? window.cpuMicrosPerMessage()
						: Double.NaN;
				counted = Math.max(counted, window.round());
			}
		}
		if (counted == 0) {
			return List.of();
		}
		List<Ranked> ranked = new ArrayList<>();
		for (int s = 0; s < strategies.size(); s++) {
			Ratios.Interval ratio = (s == 0) ? null : Ratios.paired(rates[s], rates[0]);
			Ratios.Interval cpu = (s == 0) ? null : Ratios.paired(cpus[s], cpus[0]);
			ranked.add(new Ranked(0, strategies.get(s), s == 0, Ratios.geometricMean(rates[s]),
					Ratios.geometricMean(cpus[s]), (s == 0) ? Double.valueOf(1) : value(ratio, Ratios.Interval::ratio),
					value(ratio, Ratios.Interval::low), value(ratio, Ratios.Interval::high),
					(s == 0) ? "baseline" : Ratios.verdict(ratio, "faster", "slower"),
					(s == 0) ? Double.valueOf(1) : value(cpu, Ratios.Interval::ratio), value(cpu, Ratios.Interval::low),
					value(cpu, Ratios.Interval::high),
					(s == 0) ? "baseline" : Ratios.verdict(cpu, "costs more CPU", "costs less CPU"),
					(ratio != null) ? ratio.pairs() : counted));
		}
		ranked.sort(Comparator.comparing((Ranked r) -> (r.messagesPerSecond() != null) ? r.messagesPerSecond() : 0.0)
			.reversed());
		List<Ranked> numbered = new ArrayList<>();
		for (int i = 0; i < ranked.size(); i++) {
			numbered.add(ranked.get(i).withRank(i + 1));
		}
		return numbered;
	}

	private static Double value(Ratios.Interval interval, java.util.function.ToDoubleFunction<Ratios.Interval> part) {
		return (interval != null) ? part.applyAsDouble(interval) : null;
	}

	private static final class CancelledException extends RuntimeException {

		CancelledException() {
			super("cancelled", null, false, false);
		}

	}

	/** One window measured. */
	record WindowResult(int round, boolean warmup, String strategy, double messagesPerSecond,
			Double cpuMicrosPerMessage, long completed, long errors) {
	}

	/**
	 * A strategy's place: its means over the counted rounds, and its ratios to the
	 * baseline with their 95% intervals and verdicts ({@code null} where there is none
	 * yet).
	 */
	record Ranked(int rank, String strategy, boolean baseline, Double messagesPerSecond, Double cpuMicrosPerMessage,
			Double ratio, Double low, Double high, String verdict, Double cpuRatio, Double cpuLow, Double cpuHigh,
			String cpuVerdict, int rounds) {

		Ranked withRank(int rank) {
			return new Ranked(rank, this.strategy, this.baseline, this.messagesPerSecond, this.cpuMicrosPerMessage,
					this.ratio, this.low, this.high, this.verdict, this.cpuRatio, this.cpuLow, this.cpuHigh,
					this.cpuVerdict, this.rounds);
		}

	}

	/** What {@code GET /compare} answers. */
	record Snapshot(String state, long id, ComparisonRequest request, String phase, int windowsDone, int windowsTotal,
			double elapsedSeconds, int loadSeconds, List<List<String>> orders, List<WindowResult> windows,
			List<Ranked> ranking, String command, String error) {
	}

}
