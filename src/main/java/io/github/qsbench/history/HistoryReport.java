package io.github.qsbench.history;

import java.util.List;

import io.github.qsbench.core.Delivery;

/**
 * What a history checked to: Jepsen's {@code total-queue} counts over the messages (by
 * the unique value each push carried) and the lease queue's anomalies, with the guarantee
 * they were judged by.
 *
 * @param guarantee what the strategy promises
 * @param operations operations in the history
 * @param attempted values some push carried
 * @param acknowledged values a push of which the service acknowledged
 * @param lost acknowledged values never delivered, final drain included
 * @param unexpected values delivered that no push carried, or whose every push was
 * refused
 * @param duplicated values delivered beyond the guarantee: pushed twice (one value under
 * two ids), or, for exactly-once, delivered again while a lease was certainly alive or
 * after an acknowledged completion, or completed twice
 * @param redelivered values delivered more than once, as leases that lapse or are
 * released allow
 * @param indeterminate operations whose effect is unknown (a time-out, a broken
 * connection, a 5xx)
 * @param recovered values whose every push was indeterminate and that were delivered
 * @param longestGapMs the longest time in the load (drain left out) that no operation was
 * answered: how long the service took to serve again after a fault
 * @param longestQueueGapMs the same for each queue's operations alone, the longest: how
 * long a queue a fault stopped (one on a killed Redis Cluster master) took to be served
 * again while the others were served
 * @param moved values a message move task moved: pushed to its source, delivered from its
 * destination (a value moved twice, or delivered from both, is duplicated too)
 * @param movesUnfinished move tasks started and not read as completed by the end of the
 * history, or refused at their start
 * @param outOfOrder deliveries of a FIFO message while the one sent before it in its
 * group had certainly not been completed (and was not delivered before it in the same
 * poll)
 * @param anomalies the first anomalies found, one sentence each
 */
public record HistoryReport(Delivery guarantee, long operations, long attempted, long acknowledged, long lost,
		long unexpected, long duplicated, long redelivered, long indeterminate, long recovered, long longestGapMs,
		long longestQueueGapMs, long moved, long movesUnfinished, long outOfOrder, List<String> anomalies) {

	public HistoryReport {
		anomalies = List.copyOf(anomalies);
	}

	/**
	 * Whether the run kept the guarantee: nothing lost (unless a loss is measured, not
	 * checked), nothing unexpected, no value delivered beyond the guarantee, every move
	 * task finished, every FIFO group in order.
	 */
	public boolean valid(boolean lossAllowed) {
		return (lossAllowed || this.lost == 0) && this.unexpected == 0 && this.duplicated == 0
				&& this.movesUnfinished == 0 && this.outOfOrder == 0;
	}

}
