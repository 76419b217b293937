package io.github.qsbench.history;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.github.qsbench.history.History.Operation;

/**
 * How long a history's load went unanswered: the gaps {@link HistoryChecker} reports
 * beside its counts, as the time a fault stopped the service (or some of its queues).
 */
final class HistoryGaps {

	private HistoryGaps() {
	}

	/**
	 * The longest time between two answers (or from the load's first invoke to the first
	 * answer), over every client but the drain and the set-up.
	 */
	static long longestGapMs(List<Operation> operations) {
		List<Operation> load = operations.stream().filter(HistoryGaps::inLoad).toList();
		if (load.isEmpty()) {
			return 0;
		}
		return longestGapMs(load, load.stream().mapToLong(Operation::invoke).min().getAsLong());
	}

	/**
	 * The longest gap of one queue: {@link #longestGapMs(List)} over each queue's
	 * operations alone (from the load's first invoke), the longest of them. A fault that
	 * stops some queues only (a Redis Cluster master's) shows here, while the others'
	 * answers fill the gap over all.
	 */
	static long longestQueueGapMs(History history) {
		List<Operation> load = history.operations().stream().filter(HistoryGaps::inLoad).toList();
		if (load.isEmpty()) {
			return 0;
		}
		long start = load.stream().mapToLong(Operation::invoke).min().getAsLong();
		Map<String, List<Operation>> byQueue = new HashMap<>();
		for (Operation op : load) {
			byQueue.computeIfAbsent(String.valueOf(op.queue()), (q) -> new ArrayList<>()).add(op);
		}
		return byQueue.values().stream().mapToLong((ops) -> longestGapMs(ops, start)).max().getAsLong();
	}

	private static boolean inLoad(Operation op) {
		// the mover's status reads are sparse (a line at each change) and outlast the
		// load
		return op.client() != null && !op.client().endsWith("-drain") && !op.client().endsWith("-setup")
				&& !op.client().endsWith("-mover");
	}

	private static long longestGapMs(List<Operation> operations, long start) {
		long[] answers = operations.stream()
			.filter(Operation::answered)
			.mapToLong(Operation::returned)
			.sorted()
			.toArray();
		long gap = 0;
		long previous = start;
		for (long answer : answers) {
			gap = Math.max(gap, answer - previous);
			previous = answer;
		}
		return gap / 1_000_000L;
	}

}
