package io.github.qsbench.redis;

import java.util.ArrayList;
import java.util.List;

import io.github.qsbench.core.Completion;
import io.github.qsbench.core.Lease;
import io.github.qsbench.core.Message;

/**
 * {@link RedisQS}'s pushes, leases and completions through {@link GroupCommit}:
 * concurrent calls on one queue through this instance run as one script, each answered
 * from its result. Off by default ({@code qs.redis.group-commit}): on two cores a waiting
 * request's wake-up cost what the round trip it saved did (docs/redis.md).
 */
final class RedisGroupCommits {

	/** The most calls one group commit runs as one script. */
	static final int MAX = 64;

	private final RedisQS redis;

	/** Concurrent pushes to one queue with one delay. */
	private final GroupCommit<PushKey, List<byte[]>, List<Message>> pushes;

	/** Concurrent leases of one queue with one lease time. */
	private final GroupCommit<LeaseKey, Integer, List<Lease>> leases;

	/** Concurrent completions on one queue. */
	private final GroupCommit<String, long[], Completion> completions;

	RedisGroupCommits(RedisQS redis) {
		this.redis = redis;
		this.pushes = new GroupCommit<>(MAX, this::pushGroup);
		this.leases = new GroupCommit<>(MAX, this::leaseGroup);
		this.completions = new GroupCommit<>(MAX, this::completeGroup);
	}

	List<Message> push(String queue, List<byte[]> bodies, long delayMillis) {
		return this.pushes.run(new PushKey(queue, delayMillis), bodies);
	}

	List<Lease> lease(String queue, int max, long leaseMillis) {
		return this.leases.run(new LeaseKey(queue, leaseMillis), max);
	}

	Completion complete(String queue, long id, int delivery) {
		return this.completions.run(queue, new long[] { id, delivery });
	}

	/**
	 * The pushes of one group commit as one script (all or none: each alone if refused).
	 */
	private List<List<Message>> pushGroup(PushKey key, List<List<byte[]>> calls) {
		if (calls.size() == 1) {
			return List.of(this.redis.pushNow(key.queue(), calls.get(0), key.delayMillis()));
		}
		List<byte[]> bodies = new ArrayList<>();
		for (List<byte[]> call : calls) {
			bodies.addAll(call);
		}
		List<Message> pushed = this.redis.pushNow(key.queue(), bodies, key.delayMillis());
		List<List<Message>> answers = new ArrayList<>(calls.size());
		int from = 0;
		for (List<byte[]> call : calls) {
			answers.add(pushed.subList(from, from + call.size()));
			from += call.size();
		}
		return answers;
	}

	/** The leases of one group commit as one script: each call's share in order. */
	private List<List<Lease>> leaseGroup(LeaseKey key, List<Integer> calls) {
		int total = 0;
		for (int max : calls) {
			total += max;
		}
		List<Lease> leased = this.redis.leaseNow(key.queue(), total, key.leaseMillis());
		List<List<Lease>> answers = new ArrayList<>(calls.size());
		int from = 0;
		for (int max : calls) {
			int to = Math.min(from + max, leased.size());
			answers.add((from < to) ? leased.subList(from, to) : List.of());
			from = Math.max(from, to);
		}
		return answers;
	}

	/** The completions of one group commit as one script: each its own outcome. */
	private List<Completion> completeGroup(String queue, List<long[]> calls) {
		long[] ids = new long[calls.size()];
		int[] deliveries = new int[calls.size()];
		for (int i = 0; i < ids.length; i++) {
			ids[i] = calls.get(i)[0];
			deliveries[i] = (int) calls.get(i)[1];
		}
		return this.redis.completeNow(queue, ids, deliveries);
	}

	private record PushKey(String queue, long delayMillis) {
	}

	private record LeaseKey(String queue, long leaseMillis) {
	}

}
