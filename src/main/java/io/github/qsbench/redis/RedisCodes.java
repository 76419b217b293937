package io.github.qsbench.redis;

import java.util.Map;

import io.github.qsbench.core.Completion;
import io.github.qsbench.core.Peeked;

/**
 * The numbers the scripts answer with, by name: each script declares them as locals of
 * the same names ({@code complete.lua}, {@code peek.lua}; {@code move-complete.lua} its
 * one code of its own, and complete.lua's, which it runs), and {@code RedisCodesTests}
 * holds both sides to this table, so reordering an enum changes nothing in Redis.
 */
final class RedisCodes {

	/** A {@link Completion}'s code in {@code complete.lua}. */
	static final Map<Completion, Integer> COMPLETIONS = Map.of(Completion.COMPLETED, 0, Completion.NOT_FOUND, 1,
			Completion.NOT_DELIVERED, 2, Completion.STALE_LEASE, 3);

	/**
	 * The answer of {@code move-complete.lua} when its fence no longer held (it completed
	 * nothing); its other answers are {@link #COMPLETIONS}' codes.
	 */
	static final int FENCED = 4;

	/** A {@link Peeked.State}'s code in {@code peek.lua}. */
	static final Map<Peeked.State, Integer> STATES = Map.of(Peeked.State.READY, 0, Peeked.State.IN_FLIGHT, 1,
			Peeked.State.DELAYED, 2);

	private static final Completion[] COMPLETION_BY_CODE = byCode(COMPLETIONS, new Completion[COMPLETIONS.size()]);

	private static final Peeked.State[] STATE_BY_CODE = byCode(STATES, new Peeked.State[STATES.size()]);

	private RedisCodes() {
	}

	static Completion completion(long code) {
		return COMPLETION_BY_CODE[(int) code];
	}

	static Peeked.State state(long code) {
		return STATE_BY_CODE[(int) code];
	}

	private static <E> E[] byCode(Map<E, Integer> codes, E[] table) {
		codes.forEach((constant, code) -> table[code] = constant);
		return table;
	}

}
