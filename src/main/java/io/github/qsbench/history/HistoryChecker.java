package io.github.qsbench.history;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.github.qsbench.core.Delivery;
import io.github.qsbench.history.History.Delivered;
import io.github.qsbench.history.History.Entry;
import io.github.qsbench.history.History.Operation;

/**
 * Checks a history after its final drain. The total-queue part (the logic of Jepsen's
 * {@code total-queue}, counted by the unique value each push carried, not by the server's
 * ids): a value acknowledged and never delivered is lost, one delivered and never pushed
 * (or only refused) is unexpected, one whose every push was indeterminate and that was
 * delivered is recovered, one delivered under two ids was pushed twice. The lease part,
 * for a strategy that promises {@link Delivery#EXACTLY_ONCE}: a message must not be
 * delivered while an earlier delivery's lease is certainly alive, nor twice with one
 * delivery number, nor after a completion of it was acknowledged, and two of its
 * deliveries must not both be completed with success.
 *
 * <p>
 * "Certainly" is read from the client's times alone: a lease of S ms asked by a poll
 * invoked at t cannot end before t + S (less a lease change's, invoked at u for s
 * seconds: u + s), and a later delivery that returned before then happened inside it. The
 * service keeps leases on its own clock in milliseconds, so a margin of
 * {@link #SLACK_NANOS} absorbs its rounding. At-least-once strategies are counted by the
 * same rules, and their counts are not anomalies.
 *
 * <p>
 * Message move tasks ({@code move} lines): a value pushed to a task's source and
 * delivered from its destination was moved, under an id of the destination's; it must be
 * there under one id only (moved once) and not delivered from the source too (in one
 * queue at a time), else it is duplicated; every task started must be read
 * {@code COMPLETED} by the history's last {@code move-status} of its source (its count of
 * moves, approximate, is not checked: the values are). FIFO groups (pushes with a
 * {@code group}, one producer thread per group, so its order of pushes is the group's): a
 * message delivered while the one pushed before it in its group was acknowledged and
 * certainly not completed yet (no completion of it invoked before the poll returned),
 * unless delivered before it in the same poll, is out of order.
 */
public final class HistoryChecker {

	/**
	 * How much earlier than the client's bound a lease may end on the service's clock.
	 */
	static final long SLACK_NANOS = 25_000_000L;

	private static final int MAX_ANOMALIES = 20;

	private HistoryChecker() {
	}

	public static HistoryReport check(History history, Delivery guarantee) {
		Map<String, String> pushed = new HashMap<>();
		Map<String, Set<Long>> idsOf = new HashMap<>();
		Map<String, List<Seen>> deliveries = new LinkedHashMap<>();
		Map<Long, String> valueOf = new HashMap<>();
		List<Completed> completions = new ArrayList<>();
		Map<String, List<Operation>> changes = new HashMap<>();
		long indeterminate = 0;
		// moves first: which deliveries are of moved messages depends on them
		Map<String, String> moveOf = new HashMap<>();
		Map<String, String> pushedTo = new HashMap<>();
		for (Operation op : history.operations()) {
			if ("move".equals(op.op())) {
				moveOf.put(op.queue(), op.destination());
			}
			else if (op.values() != null) {
				op.values().forEach((value) -> pushedTo.putIfAbsent(value, op.queue()));
			}
		}
		Map<String, Set<Long>> movedIds = new HashMap<>();
		Set<String> deliveredFromSource = new HashSet<>();
		List<Operation> moves = new ArrayList<>();
		Map<String, Operation> lastStatus = new HashMap<>();
		Map<String, List<Operation>> groups = new LinkedHashMap<>();
		for (Operation op : history.operations()) {
			if ("indeterminate".equals(op.result())) {
				indeterminate++;
			}
			switch (op.op()) {
				case "push", "push-batch" -> {
					if (op.group() != null) {
						groups.computeIfAbsent(op.queue() + " " + op.group(), (g) -> new ArrayList<>()).add(op);
					}
					for (int i = 0; i < op.values().size(); i++) {
						String value = op.values().get(i);
						pushed.merge(value, op.result(), HistoryChecker::stronger);
						if ("ok".equals(op.result()) && op.ids() != null) {
							idsOf.computeIfAbsent(value, (v) -> new TreeSet<>()).add(op.ids().get(i));
						}
					}
				}
				case "poll" -> {
					if (op.deliveries() != null) {
						for (Delivered delivered : op.deliveries()) {
							deliveries.computeIfAbsent(delivered.value(), (v) -> new ArrayList<>())
								.add(new Seen(delivered, op.returned(), op));
							String source = pushedTo.get(delivered.value());
							boolean moved = source != null && moveOf.containsKey(source)
									&& moveOf.get(source).equals(op.queue());
							if (source != null && moveOf.containsKey(source) && source.equals(op.queue())) {
								deliveredFromSource.add(delivered.value());
							}
							(moved ? movedIds : idsOf).computeIfAbsent(delivered.value(), (v) -> new TreeSet<>())
								.add(delivered.id());
							valueOf.put(delivered.id(), delivered.value());
						}
					}
				}
				case "complete" -> completions.add(new Completed(op.id(), op.lease(), op.result(), op));
				case "complete-batch" -> {
					for (Entry entry : op.entries()) {
						completions.add(new Completed(entry.id(), entry.lease(), entry.result(), op));
					}
				}
				case "change-lease" -> changes.computeIfAbsent(op.lease(), (l) -> new ArrayList<>()).add(op);
				case "move" -> moves.add(op);
				case "move-status" -> {
					if (op.status() != null && (!lastStatus.containsKey(op.queue())
							|| lastStatus.get(op.queue()).returned() < op.returned())) {
						lastStatus.put(op.queue(), op);
					}
				}
				default -> throw new IllegalArgumentException("unknown operation " + op.op());
			}
		}
		List<String> anomalies = new ArrayList<>();
		Set<String> duplicated = new HashSet<>();
		long lost = 0;
		long unexpected = 0;
		long recovered = 0;
		long acknowledged = 0;
		for (Map.Entry<String, String> value : pushed.entrySet()) {
			boolean delivered = deliveries.containsKey(value.getKey());
			if (value.getValue().equals("ok")) {
				acknowledged++;
				if (!delivered) {
					lost++;
					note(anomalies, "lost: " + value.getKey() + " was acknowledged and never delivered");
				}
			}
			else if (value.getValue().equals("indeterminate") && delivered) {
				recovered++;
			}
		}
		for (String value : deliveries.keySet()) {
			String push = pushed.get(value);
			if (push == null || push.equals("refused") || push.equals("fail")) {
				unexpected++;
				note(anomalies, "unexpected: " + value + " was delivered and "
						+ ((push == null) ? "never pushed" : "its every push " + push));
			}
		}
		for (Map.Entry<String, Set<Long>> ids : idsOf.entrySet()) {
			if (ids.getValue().size() > 1) {
				duplicated.add(ids.getKey());
				note(anomalies, "duplicated: " + ids.getKey() + " is in the queue under ids " + ids.getValue());
			}
		}
		for (Map.Entry<String, Set<Long>> ids : movedIds.entrySet()) {
			if (ids.getValue().size() > 1) {
				duplicated.add(ids.getKey());
				note(anomalies, "duplicated: " + ids.getKey() + " was moved under ids " + ids.getValue());
			}
			if (deliveredFromSource.contains(ids.getKey())) {
				duplicated.add(ids.getKey());
				note(anomalies, "duplicated: " + ids.getKey() + " was delivered from the move's source "
						+ pushedTo.get(ids.getKey()) + " and from its destination");
			}
		}
		long movesUnfinished = 0;
		for (Operation move : moves) {
			Operation last = lastStatus.get(move.queue());
			if (!"ok".equals(move.result())) {
				movesUnfinished++;
				note(anomalies, "move: the task from " + move.queue() + " was not started (" + move.result() + ")");
			}
			// its count is approximate (SQS's name for it): a killed owner's last batch
			// is
			// moved and never counted, so what was moved is read from the values, not
			// from it
			else if (last == null || !"COMPLETED".equals(last.status())) {
				movesUnfinished++;
				note(anomalies,
						"move: the task from " + move.queue() + " to " + move.destination() + " ended "
								+ ((last == null) ? "unread"
										: last.status() + " with " + last.moved() + " of " + last.toMove() + " moved"));
			}
		}
		long redelivered = deliveries.values().stream().filter((list) -> list.size() > 1).count();
		Map<String, List<Completed>> completionsOf = new HashMap<>();
		for (Completed completion : completions) {
			String value = valueOf.get(completion.id());
			if (value != null && completion.result().equals("ok")) {
				completionsOf.computeIfAbsent(value, (v) -> new ArrayList<>()).add(completion);
			}
		}
		// at-least-once allows them: noted as redeliveries, not counted below
		String kind = (guarantee == Delivery.AT_LEAST_ONCE) ? "redelivered, as at-least-once allows: " : "duplicated: ";
		for (Map.Entry<String, List<Seen>> entry : deliveries.entrySet()) {
			List<String> found = leaseAnomalies(kind + entry.getKey(), entry.getValue(),
					completionsOf.getOrDefault(entry.getKey(), List.of()), changes);
			if (!found.isEmpty()) {
				duplicated.add(entry.getKey());
				found.forEach((anomaly) -> note(anomalies, anomaly));
			}
		}
		Map<String, Long> completedFrom = new HashMap<>();
		for (Completed completion : completions) {
			String value = valueOf.get(completion.id());
			if (value != null && (completion.result().equals("ok") || completion.result().equals("indeterminate"))) {
				completedFrom.merge(value, completion.op().invoke(), Math::min);
			}
		}
		long outOfOrder = outOfOrder(groups, pushed, deliveries, completedFrom, anomalies);
		long counted = duplicated.size();
		if (guarantee == Delivery.AT_LEAST_ONCE) {
			// only a second push of one value, or a second move of it, is beyond
			// at-least-once
			counted = idsOf.values().stream().filter((ids) -> ids.size() > 1).count() + movedIds.entrySet()
				.stream()
				.filter((ids) -> ids.getValue().size() > 1 || deliveredFromSource.contains(ids.getKey()))
				.count();
		}
		return new HistoryReport(guarantee, history.operations().size(), pushed.size(), acknowledged, lost, unexpected,
				counted, redelivered, indeterminate, recovered, HistoryGaps.longestGapMs(history.operations()),
				HistoryGaps.longestQueueGapMs(history), movedIds.size(), movesUnfinished, outOfOrder, anomalies);
	}

	/**
	 * FIFO order: each group's pushes in the order they were invoked (one thread pushes a
	 * group, one push at a time); a delivery of one of its messages is out of order when
	 * the acknowledged message pushed before it was not delivered before it in the same
	 * poll and no completion of it (acknowledged or indeterminate) had been invoked when
	 * the poll returned.
	 */
	private static long outOfOrder(Map<String, List<Operation>> groups, Map<String, String> pushed,
			Map<String, List<Seen>> deliveries, Map<String, Long> completedFrom, List<String> anomalies) {
		long count = 0;
		for (Map.Entry<String, List<Operation>> group : groups.entrySet()) {
			List<String> order = group.getValue()
				.stream()
				.sorted(java.util.Comparator.comparingLong(Operation::invoke))
				.flatMap((op) -> op.values().stream())
				.distinct()
				.toList();
			String before = null;
			for (String value : order) {
				if (before != null) {
					long completed = completedFrom.getOrDefault(before, Long.MAX_VALUE);
					for (Seen seen : deliveries.getOrDefault(value, List.of())) {
						if (seen.returned() < completed && !earlierInPoll(seen, before)) {
							count++;
							note(anomalies,
									"out of order: " + value + " of group " + group.getKey()
											+ " was delivered (delivery " + seen.delivery().delivery() + ") before "
											+ before + ", sent before it, was completed");
						}
					}
				}
				if ("ok".equals(pushed.get(value))) {
					before = value;
				}
			}
		}
		return count;
	}

	/** Whether the poll that made this delivery delivered {@code value} before it. */
	private static boolean earlierInPoll(Seen seen, String value) {
		for (Delivered delivered : seen.poll().deliveries()) {
			if (delivered == seen.delivery()) {
				return false;
			}
			if (delivered.value().equals(value)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * The lease queue's rules for one message's deliveries and acknowledged completions,
	 * each anomaly found a sentence that begins with {@code named}: its kind and the
	 * message's value.
	 */
	private static List<String> leaseAnomalies(String named, List<Seen> deliveries, List<Completed> completed,
			Map<String, List<Operation>> changes) {
		List<String> found = new ArrayList<>();
		for (int i = 0; i < deliveries.size(); i++) {
			Delivered a = deliveries.get(i).delivery();
			for (int j = 0; j < deliveries.size(); j++) {
				Delivered b = deliveries.get(j).delivery();
				if (j > i && a.delivery() == b.delivery()) {
					found.add(named + " was delivered twice as delivery " + a.delivery());
				}
				if (b.delivery() > a.delivery() && deliveries.get(j).returned() + SLACK_NANOS < leaseEnd(a, changes)) {
					found.add(named + " was delivered again (delivery " + b.delivery() + ") while delivery "
							+ a.delivery() + "'s lease was certainly alive");
				}
			}
		}
		for (Completed completion : completed) {
			for (Seen seen : deliveries) {
				Delivered delivery = seen.delivery();
				if (delivery.leaseFrom() > completion.op().returned()) {
					found.add(named + " was delivered (delivery " + delivery.delivery()
							+ ") after a completion of it was acknowledged");
				}
			}
			for (Completed other : completed) {
				if (other != completion && !other.lease().equals(completion.lease())
						&& !other.op().idempotentCompletion()
						&& (!completion.op().idempotentCompletion() || completion.op().returned() < other.op().invoke())
						&& (completion.op().invoke() < other.op().invoke()
								|| (completion.op().invoke() == other.op().invoke()
										&& completion.lease().compareTo(other.lease()) < 0))) {
					found.add(named + " was completed twice (leases " + completion.lease() + " and " + other.lease()
							+ ")");
				}
			}
		}
		return found;
	}

	/** The earliest a delivery's lease can end: its own, or that of a change of it. */
	private static long leaseEnd(Delivered delivery, Map<String, List<Operation>> changes) {
		long end = delivery.leaseEnd();
		for (Operation change : changes.getOrDefault(delivery.lease(), List.of())) {
			if ("ok".equals(change.result()) || "indeterminate".equals(change.result())) {
				end = Math.min(end, change.invoke() + change.seconds() * 1_000_000_000L);
			}
		}
		return end;
	}

	/** Of two results of pushes of one value: what it counts as. */
	private static String stronger(String a, String b) {
		for (String result : new String[] { "ok", "indeterminate", "refused" }) {
			if (a.equals(result) || b.equals(result)) {
				return result;
			}
		}
		return a;
	}

	private static void note(List<String> anomalies, String anomaly) {
		if (anomalies.size() < MAX_ANOMALIES) {
			anomalies.add(anomaly);
		}
	}

	/** A delivery, when the poll that got it returned, and that poll. */
	private record Seen(Delivered delivery, long returned, Operation poll) {

	}

	/** A completion (one, or a batch's entry) and the operation that made it. */
	private record Completed(long id, String lease, String result, Operation op) {

	}

}
