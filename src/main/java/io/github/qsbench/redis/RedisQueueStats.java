package io.github.qsbench.redis;

import static io.github.qsbench.redis.RedisQueueCalls.ascii;

import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.github.qsbench.core.QueueStats;

import org.springframework.data.redis.connection.ReturnType;

/**
 * What {@link RedisQS}'s queues hold, as a listing, a queue's stats and the gauges read
 * it: one script a queue, pipelined for many. A reading that finds a registered queue
 * empty takes its name out of the registry ({@link RedisNameSet#removeUnless}), so the
 * completions need not look.
 */
final class RedisQueueStats {

	private static final LuaScript STATS = LuaScript.of(RedisQueueStats.class, "stats", ReturnType.MULTI);

	private static final LuaScript HELD = LuaScript.of(RedisQueueStats.class, "held", ReturnType.INTEGER);

	private final RedisStore store;

	private final RedisQueueCalls calls;

	/** The queues that may hold messages. */
	private final RedisNameSet registry;

	private final InstantSource clock;

	RedisQueueStats(RedisStore store, RedisQueueCalls calls, RedisNameSet registry, InstantSource clock) {
		this.store = store;
		this.calls = calls;
		this.registry = registry;
		this.clock = clock;
	}

	/** {@link RedisQS#queues()}: every registered queue that holds a message. */
	List<QueueStats> queues() {
		List<String> names = this.registry.names();
		List<Counts> counts = stats(names);
		List<QueueStats> queues = new ArrayList<>();
		for (int i = 0; i < names.size(); i++) {
			if (counts.get(i).held() > 0) {
				queues.add(counts.get(i).of(names.get(i)));
			}
			else {
				unregisterIfEmpty(names.get(i));
			}
		}
		return queues;
	}

	/** {@link RedisQS#queue}: one queue's counts, if it holds a message. */
	Optional<QueueStats> queue(String name) {
		Counts counts = stats(name);
		return (counts.held() > 0) ? Optional.of(counts.of(name)) : Optional.empty();
	}

	/** {@link RedisQS#hasReady}: a message ready, or a lease lapsed. */
	boolean hasReady(String name) {
		Counts counts = stats(name);
		return counts.ready() > 0 || counts.lapsed() > 0;
	}

	/**
	 * The messages held and the queues that hold any, as the gauges read them each
	 * second: one script of one {@code HLEN} a registered queue (a listing runs the five
	 * counts of {@code stats.lua}), pipelined ({@link RedisStore#runEach}); an emptied
	 * queue's name leaves the registry, as {@link #queues()} tidies it.
	 */
	Totals totals() {
		List<String> names = this.registry.names();
		List<Long> held = this.store.runEach(HELD,
				names.stream()
					.map(name -> new RedisStore.ScriptRun(this.store.queueKeys(name, List.of(RedisQueueCalls.BODIES))))
					.toList());
		long messages = 0;
		int queues = 0;
		for (int i = 0; i < names.size(); i++) {
			if (held.get(i) > 0) {
				messages += held.get(i);
				queues++;
			}
			else {
				unregisterIfEmpty(names.get(i));
			}
		}
		return new Totals(messages, queues);
	}

	/** What {@link #totals} found. */
	record Totals(long held, int queues) {
	}

	/**
	 * Removes an emptied queue from the registry: a push that refills it registers it (in
	 * its script, or on a cluster after it), so it is never left out.
	 */
	private void unregisterIfEmpty(String queue) {
		this.registry.removeUnless(queue, () -> stats(queue).held() > 0);
	}

	private Counts stats(String queue) {
		return Counts.read(this.calls.run(STATS, this.calls.keys(queue), ascii(now())));
	}

	/** Each queue's counts, in order ({@link RedisQueueCalls#runEach}). */
	private List<Counts> stats(List<String> queues) {
		List<List<?>> answers = this.calls.runEach(STATS, queues, ascii(now()));
		return answers.stream().map(Counts::read).toList();
	}

	private long now() {
		return this.clock.millis();
	}

	private record Counts(int ready, int inflight, int delayed, long held, long lapsed) {

		/** The stats script's answer. */
		static Counts read(List<?> answer) {
			return new Counts(((Long) answer.get(0)).intValue(), ((Long) answer.get(1)).intValue(),
					((Long) answer.get(2)).intValue(), (Long) answer.get(3), (Long) answer.get(4));
		}

		QueueStats of(String name) {
			return new QueueStats(name, this.ready, this.inflight, this.delayed);
		}

	}

}
