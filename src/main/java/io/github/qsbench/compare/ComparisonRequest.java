package io.github.qsbench.compare;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

import io.github.qsbench.core.strategy.Strategy;

/**
 * What {@code POST /compare} takes: 2 to 4 strategies by profile (the first is the
 * baseline), a {@link Workload}, the rounds (each measures every strategy once, in an
 * order shuffled by {@code seed}) and each measured window's seconds. Absent numbers take
 * their defaults and an absent seed a random one, recorded so the run can be repeated.
 *
 * @param strategies profiles of the {@link Strategy} enum
 * @param workload a {@link Workload}'s id
 * @param rounds counted rounds, after one uncounted warm-up round
 * @param windowSeconds the length of each window
 * @param seed the seed of the rounds' orders
 */
record ComparisonRequest(List<String> strategies, String workload, Integer rounds, Integer windowSeconds, Long seed) {

	static final int MIN_STRATEGIES = 2;

	static final int MAX_STRATEGIES = 4;

	static final int MIN_ROUNDS = 3;

	static final int MAX_ROUNDS = 20;

	static final int DEFAULT_ROUNDS = 5;

	static final int MIN_WINDOW_SECONDS = 1;

	static final int MAX_WINDOW_SECONDS = 10;

	static final int DEFAULT_WINDOW_SECONDS = 3;

	/** Load-time cap: every window of every round, the warm-up round included. */
	static final int MAX_LOAD_SECONDS = 90;

	static final int MAX_CONNECTIONS = 16;

	static final Workload DEFAULT_WORKLOAD = Workload.FOUR;

	/** The strategy no comparison can start: it needs a Redis the children do not get. */
	static final String REDIS = Strategy.REDIS.profile();

	/**
	 * This request with its defaults filled in, checked against the caps.
	 * @throws IllegalArgumentException saying what is wrong, in the client's terms
	 */
	ComparisonRequest validated() {
		List<String> chosen = (this.strategies == null) ? List.of() : this.strategies;
		if (chosen.size() < MIN_STRATEGIES || chosen.size() > MAX_STRATEGIES) {
			throw new IllegalArgumentException("Choose " + MIN_STRATEGIES + " to " + MAX_STRATEGIES
					+ " strategies (the first is the baseline); got " + chosen.size() + ".");
		}
		Set<String> seen = new HashSet<>();
		for (String profile : chosen) {
			if (profile == null || Strategy.ofProfile(profile).isEmpty()) {
				throw new IllegalArgumentException(
						"Unknown strategy '" + profile + "'; one of " + String.join(", ", Strategy.profiles()) + ".");
			}
			if (REDIS.equals(profile)) {
				throw new IllegalArgumentException(
						"The redis strategy needs a Redis server, which a comparison does not start: choose in-process strategies.");
			}
			if (!seen.add(profile)) {
				throw new IllegalArgumentException("Strategy '" + profile + "' is chosen twice.");
			}
		}
		String workloadId = (this.workload == null) ? DEFAULT_WORKLOAD.id() : this.workload;
		Workload load = Workload.ofId(workloadId)
			.orElseThrow(() -> new IllegalArgumentException("Unknown workload '" + workloadId + "'; one of "
					+ String.join(", ", java.util.Arrays.stream(Workload.values()).map(Workload::id).toList()) + "."));
		int r = (this.rounds == null) ? DEFAULT_ROUNDS : this.rounds;
		if (r < MIN_ROUNDS || r > MAX_ROUNDS) {
			throw new IllegalArgumentException(
					"rounds must be " + MIN_ROUNDS + " to " + MAX_ROUNDS + " (an interval needs 3); got " + r + ".");
		}
		int w = (this.windowSeconds == null) ? DEFAULT_WINDOW_SECONDS : this.windowSeconds;
		if (w < MIN_WINDOW_SECONDS || w > MAX_WINDOW_SECONDS) {
			throw new IllegalArgumentException(
					"windowSeconds must be " + MIN_WINDOW_SECONDS + " to " + MAX_WINDOW_SECONDS + "; got " + w + ".");
		}
		int loadSeconds = (r + 1) * chosen.size() * w;
		if (loadSeconds > MAX_LOAD_SECONDS) {
			throw new IllegalArgumentException("(rounds + 1 warm-up) × strategies × windowSeconds = " + loadSeconds
					+ " s of load; at most " + MAX_LOAD_SECONDS + " s: fewer rounds, strategies or seconds.");
		}
		long s = (this.seed == null) ? ThreadLocalRandom.current().nextLong(1, 1L << 31) : this.seed;
		return new ComparisonRequest(List.copyOf(new ArrayList<>(chosen)), load.id(), r, w, s);
	}

	Workload load() {
		return Workload.ofId(this.workload).orElseThrow();
	}

	/** Seconds of load this (validated) request asks for, warm-up included. */
	int loadSeconds() {
		return (this.rounds + 1) * this.strategies.size() * this.windowSeconds;
	}

	/** The request as JSON, for the command that repeats it. */
	String json() {
		StringBuilder json = new StringBuilder("{\"strategies\":[");
		for (int i = 0; i < this.strategies.size(); i++) {
			json.append((i == 0) ? "" : ",").append('"').append(this.strategies.get(i)).append('"');
		}
		return json.append("],\"workload\":\"")
			.append(this.workload)
			.append("\",\"rounds\":")
			.append(this.rounds)
			.append(",\"windowSeconds\":")
			.append(this.windowSeconds)
			.append(",\"seed\":")
			.append(this.seed)
			.append('}')
			.toString();
	}

}
