package io.github.qsbench.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import io.github.qsbench.core.Delivery;

import org.junit.jupiter.api.Test;

/**
 * The checker on small hand-written histories: each anomaly a history can hold is
 * flagged, and the clean histories a fault leaves behind (leases lapsed and delivered
 * again, late completions refused, pushes retried after a refusal, indeterminate pushes
 * seen later) pass. Times are written in milliseconds and recorded in nanoseconds, as the
 * load client does.
 */
class HistoryCheckerTests {

	private final List<String> lines = new ArrayList<>();

	@Test
	void pushDeliverComplete_passes() {
		push("a", 0, 5, "ok", 1);
		poll("c0", "rest", 10, 12, delivery(1, "a", 1, 10, 2000));
		complete("rest", 1, "1.1", 20, 22, "ok");
		HistoryReport report = check(Delivery.EXACTLY_ONCE);
		assertThat(report.valid(false)).isTrue();
		assertThat(report.anomalies()).isEmpty();
		assertThat(report)
			.extracting(HistoryReport::operations, HistoryReport::attempted, HistoryReport::acknowledged,
					HistoryReport::lost, HistoryReport::duplicated, HistoryReport::redelivered)
			.containsExactly(3L, 1L, 1L, 0L, 0L, 0L);
	}

	@Test
	void redeliveryAfterTheLeaseLapsed_andTheLateCompletionRefused_passes() {
		push("a", 0, 5, "ok", 1);
		poll("c0", "rest", 10, 12, delivery(1, "a", 1, 10, 1000));
		poll("c1", "rest", 1100, 1102, delivery(1, "a", 2, 1100, 1000));
		complete("rest", 1, "1.1", 1200, 1202, "stale");
		complete("rest", 1, "1.2", 1210, 1212, "ok");
		HistoryReport report = check(Delivery.EXACTLY_ONCE);
		assertThat(report.valid(false)).isTrue();
		assertThat(report.redelivered()).isEqualTo(1);
		assertThat(report.duplicated()).isZero();
	}

	@Test
	void redeliveryAfterTheLeaseWasReleased_passes() {
		push("a", 0, 5, "ok", 1);
		poll("c0", "rest", 10, 12, delivery(1, "a", 1, 10, 2000));
		changeLease("rest", "1.1", 0, 20, 22, "ok");
		poll("c1", "rest", 30, 32, delivery(1, "a", 2, 30, 2000));
		complete("rest", 1, "1.2", 40, 42, "ok");
		assertThat(check(Delivery.EXACTLY_ONCE).valid(false)).isTrue();
	}

	@Test
	void sqsDeleteOfAMessageDeletedAlready_passes() {
		push("a", 0, 5, "ok", 1);
		poll("c0", "sqs", 10, 12, delivery(1, "a", 1, 10, 1000));
		poll("c1", "rest", 1100, 1102, delivery(1, "a", 2, 1100, 1000));
		complete("rest", 1, "1.2", 1200, 1202, "ok");
		// SQS answers success to a delete of a message deleted already
		complete("sqs", 1, "1.1", 1300, 1302, "ok");
		assertThat(check(Delivery.EXACTLY_ONCE).valid(false)).isTrue();
	}

	@Test
	void pushRefusedThenRetried_passes() {
		push("a", 0, 5, "refused", -1);
		push("a", 10, 15, "ok", 1);
		poll("c0", "rest", 20, 22, delivery(1, "a", 1, 20, 2000));
		HistoryReport report = check(Delivery.EXACTLY_ONCE);
		assertThat(report.valid(false)).isTrue();
		assertThat(report.attempted()).isEqualTo(1);
	}

	@Test
	void indeterminatePushDelivered_isRecovered() {
		push("a", 0, 3000, "indeterminate", -1);
		push("b", 0, 3000, "indeterminate", -1);
		poll("c0", "rest", 4000, 4002, delivery(1, "a", 1, 4000, 2000));
		HistoryReport report = check(Delivery.EXACTLY_ONCE);
		assertThat(report.valid(false)).isTrue();
		assertThat(report)
			.extracting(HistoryReport::recovered, HistoryReport::indeterminate, HistoryReport::lost,
					HistoryReport::acknowledged)
			.containsExactly(1L, 2L, 0L, 0L);
	}

	@Test
	void acknowledgedAndNeverDelivered_isLost() {
		push("a", 0, 5, "ok", 1);
		push("b", 0, 5, "ok", 2);
		poll("c0", "rest", 10, 12, delivery(2, "b", 1, 10, 2000));
		HistoryReport report = check(Delivery.EXACTLY_ONCE);
		assertThat(report.lost()).isEqualTo(1);
		assertThat(report.valid(false)).isFalse();
		assertThat(report.valid(true)).as("a run that measures loss").isTrue();
		assertThat(report.anomalies()).containsExactly("lost: a was acknowledged and never delivered");
	}

	@Test
	void deliveredAndNeverPushed_isUnexpected() {
		poll("c0", "rest", 10, 12, delivery(1, "ghost", 1, 10, 2000));
		HistoryReport report = check(Delivery.AT_LEAST_ONCE);
		assertThat(report.unexpected()).isEqualTo(1);
		assertThat(report.valid(false)).isFalse();
	}

	@Test
	void deliveredWhenItsEveryPushWasRefused_isUnexpected() {
		push("a", 0, 5, "refused", -1);
		poll("c0", "rest", 10, 12, delivery(1, "a", 1, 10, 2000));
		assertThat(check(Delivery.AT_LEAST_ONCE).unexpected()).isEqualTo(1);
	}

	@Test
	void oneValueUnderTwoIds_isDuplicated_whateverTheGuarantee() {
		push("a", 0, 5, "refused", -1);
		push("a", 10, 15, "ok", 2);
		poll("c0", "rest", 20, 22, delivery(1, "a", 1, 20, 2000));
		poll("c1", "rest", 30, 32, delivery(2, "a", 1, 30, 2000));
		HistoryReport report = check(Delivery.AT_LEAST_ONCE);
		assertThat(report.duplicated()).isEqualTo(1);
		assertThat(report.valid(false)).isFalse();
		assertThat(report.anomalies()).contains("duplicated: a is in the queue under ids [1, 2]");
	}

	@Test
	void deliveredAgainWhileALeaseWasCertainlyAlive_isDuplicated() {
		push("a", 0, 5, "ok", 1);
		poll("c0", "rest", 10, 12, delivery(1, "a", 1, 10, 2000));
		poll("c1", "rest", 500, 502, delivery(1, "a", 2, 500, 2000));
		HistoryReport report = check(Delivery.EXACTLY_ONCE);
		assertThat(report.duplicated()).isEqualTo(1);
		assertThat(report.valid(false)).isFalse();
		assertThat(report.anomalies()).containsExactly(
				"duplicated: a was delivered again (delivery 2) while delivery 1's lease was certainly alive");
	}

	@Test
	void deliveredAgainWhileALeaseWasAlive_isNoAnomalyAtLeastOnce() {
		push("a", 0, 5, "ok", 1);
		poll("c0", "rest", 10, 12, delivery(1, "a", 1, 10, 2000));
		poll("c1", "rest", 500, 502, delivery(1, "a", 2, 500, 2000));
		HistoryReport report = check(Delivery.AT_LEAST_ONCE);
		assertThat(report.valid(false)).isTrue();
		assertThat(report.duplicated()).isZero();
		assertThat(report.anomalies()).containsExactly("redelivered, as at-least-once allows: a was delivered again "
				+ "(delivery 2) while delivery 1's lease was certainly alive");
	}

	@Test
	void deliveredAgainAfterALeaseWasShortened_isJudgedByTheChange() {
		push("a", 0, 5, "ok", 1);
		poll("c0", "rest", 10, 12, delivery(1, "a", 1, 10, 20000));
		changeLease("sqs", "1.1", 1, 100, 102, "indeterminate");
		poll("c1", "rest", 1200, 1202, delivery(1, "a", 2, 1200, 2000));
		assertThat(check(Delivery.EXACTLY_ONCE).valid(false)).isTrue();
	}

	@Test
	void twoDeliveriesWithOneNumber_isDuplicated() {
		push("a", 0, 5, "ok", 1);
		poll("c0", "rest", 10, 12, delivery(1, "a", 1, 10, 100));
		poll("c1", "rest", 5000, 5002, delivery(1, "a", 1, 5000, 100));
		HistoryReport report = check(Delivery.EXACTLY_ONCE);
		assertThat(report.duplicated()).isEqualTo(1);
		assertThat(report.anomalies()).containsExactly("duplicated: a was delivered twice as delivery 1");
	}

	@Test
	void deliveredAfterAnAcknowledgedCompletion_isDuplicated() {
		push("a", 0, 5, "ok", 1);
		poll("c0", "rest", 10, 12, delivery(1, "a", 1, 10, 100));
		complete("rest", 1, "1.1", 20, 22, "ok");
		poll("c1", "rest", 5000, 5002, delivery(1, "a", 2, 5000, 100));
		HistoryReport report = check(Delivery.EXACTLY_ONCE);
		assertThat(report.valid(false)).isFalse();
		assertThat(report.anomalies())
			.containsExactly("duplicated: a was delivered (delivery 2) after a completion of it was acknowledged");
	}

	@Test
	void completedTwiceWithSuccess_isDuplicated() {
		push("a", 0, 5, "ok", 1);
		poll("c0", "rest", 10, 12, delivery(1, "a", 1, 10, 100));
		poll("c1", "rest", 300, 302, delivery(1, "a", 2, 300, 100));
		completeBatch("rest", 350, 352, "1.1", "ok");
		complete("rest", 1, "1.2", 340, 360, "ok");
		HistoryReport report = check(Delivery.EXACTLY_ONCE);
		assertThat(report.valid(false)).isFalse();
		assertThat(report.anomalies()).containsExactly("duplicated: a was completed twice (leases 1.2 and 1.1)");
	}

	@Test
	void longestGap_isTheLongestTimeWithoutAnAnswer() {
		push("a", 0, 1000, "ok", 1);
		push("b", 1000, 2000, "ok", 2);
		push("c", 2000, 2500, "indeterminate", -1);
		push("d", 2500, 2600, "fail", -1);
		push("d", 2600, 5000, "ok", 3);
		push("e", 5000, 5100, "refused", -1);
		push("f", 5100, 9100, "ok", 4);
		poll("load-drain", "rest", 9100, 20000, delivery(1, "a", 1, 9100, 100), delivery(2, "b", 1, 9100, 100),
				delivery(3, "d", 1, 9100, 100), delivery(4, "f", 1, 9100, 100));
		// neither an indeterminate push nor a failed one is an answer; a refusal is
		assertThat(check(Delivery.EXACTLY_ONCE).longestGapMs()).isEqualTo(4000);
	}

	@Test
	void longestQueueGap_isTheLongestTimeOneQueueWentWithoutAnAnswer() {
		push("q0", "a", 0, 1000, "ok", 1);
		push("q1", "b", 0, 500, "ok", 2);
		push("q0", "c", 1000, 4000, "indeterminate", -1);
		push("q1", "d", 500, 2000, "ok", 3);
		push("q1", "e", 2000, 3500, "ok", 4);
		push("q1", "f", 3500, 5000, "ok", 5);
		push("q0", "g", 4000, 5000, "ok", 6);
		poll("load-drain", "rest", 5000, 6000, delivery(1, "a", 1, 5000, 100), delivery(2, "b", 1, 5000, 100),
				delivery(3, "d", 1, 5000, 100), delivery(4, "e", 1, 5000, 100), delivery(5, "f", 1, 5000, 100),
				delivery(6, "g", 1, 5000, 100));
		HistoryReport report = check(Delivery.EXACTLY_ONCE);
		// q1 answered while q0 did not, from 1000 to 5000
		assertThat(report.longestGapMs()).isEqualTo(1500);
		assertThat(report.longestQueueGapMs()).isEqualTo(4000);
	}

	@Test
	void movedOnce_fromTheSourceToTheDestination_passes() {
		push("dlq", "a", 0, 5, "ok", 1);
		push("dlq", "b", 0, 5, "ok", 2);
		move("dlq", "q0", 10, 12, "ok");
		moveStatus("dlq", "RUNNING", 1, 2, 20);
		moveStatus("dlq", "COMPLETED", 2, 2, 30);
		poll("c0", "rest", "q0", 40, 42, delivery(3, "a", 1, 40, 2000), delivery(4, "b", 1, 40, 2000));
		HistoryReport report = check(Delivery.EXACTLY_ONCE);
		assertThat(report.anomalies()).isEmpty();
		assertThat(report.valid(false)).isTrue();
		assertThat(report.moved()).isEqualTo(2);
		assertThat(report.duplicated()).isZero();
	}

	@Test
	void movedTwice_orLeftInTheSourceToo_isDuplicated() {
		push("dlq", "a", 0, 5, "ok", 1);
		push("dlq", "b", 0, 5, "ok", 2);
		move("dlq", "q0", 10, 12, "ok");
		moveStatus("dlq", "COMPLETED", 2, 2, 30);
		poll("c0", "rest", "q0", 40, 42, delivery(3, "a", 1, 40, 2000), delivery(5, "a", 1, 40, 2000),
				delivery(4, "b", 1, 40, 2000));
		poll("load-drain", "rest", "dlq", 50, 52, delivery(2, "b", 1, 50, 2000));
		HistoryReport report = check(Delivery.AT_LEAST_ONCE);
		assertThat(report.valid(false)).isFalse();
		assertThat(report.duplicated()).isEqualTo(2);
		assertThat(report.anomalies()).anyMatch((anomaly) -> anomaly.contains("a was moved under ids [3, 5]"))
			.anyMatch((anomaly) -> anomaly.contains("b was delivered from the move's source"));
	}

	@Test
	void aMoveCompletedWithItsCountShort_passes_theValuesSayWhatMoved() {
		push("dlq", "a", 0, 5, "ok", 1);
		push("dlq", "b", 0, 5, "ok", 2);
		move("dlq", "q0", 10, 12, "ok");
		moveStatus("dlq", "COMPLETED", 1, 2, 30);
		poll("c0", "rest", "q0", 40, 42, delivery(3, "a", 1, 40, 2000), delivery(4, "b", 1, 40, 2000));
		HistoryReport report = check(Delivery.EXACTLY_ONCE);
		assertThat(report.movesUnfinished()).isZero();
		assertThat(report.moved()).isEqualTo(2);
		assertThat(report.valid(false)).isTrue();
	}

	@Test
	void aMoveNotReadAsCompleted_isUnfinished() {
		push("dlq", "a", 0, 5, "ok", 1);
		move("dlq", "q0", 10, 12, "ok");
		moveStatus("dlq", "RUNNING", 0, 1, 20);
		poll("load-drain", "rest", "dlq", 50, 52, delivery(1, "a", 1, 50, 2000));
		HistoryReport report = check(Delivery.EXACTLY_ONCE);
		assertThat(report.movesUnfinished()).isEqualTo(1);
		assertThat(report.valid(false)).isFalse();
		assertThat(report.lost()).isZero();
	}

	@Test
	void fifoGroupInOrder_passes_evenWithTheHeadRedelivered() {
		fifoPush("f.fifo", "g", "a", 0, 5, 1);
		fifoPush("f.fifo", "g", "b", 10, 15, 2);
		poll("c0", "sqs", "f.fifo", 20, 22, delivery(1, "a", 1, 20, 1000));
		poll("c1", "sqs", "f.fifo", 1100, 1102, delivery(1, "a", 2, 1100, 1000), delivery(2, "b", 1, 1100, 1000));
		complete("sqs", 1, "1.2", 1200, 1202, "ok");
		complete("sqs", 2, "2.1", 1210, 1212, "ok");
		HistoryReport report = check(Delivery.EXACTLY_ONCE);
		assertThat(report.anomalies()).isEmpty();
		assertThat(report.outOfOrder()).isZero();
		assertThat(report.valid(false)).isTrue();
	}

	@Test
	void fifoMessageDeliveredBeforeItsPredecessorWasCompleted_isOutOfOrder() {
		fifoPush("f.fifo", "g", "a", 0, 5, 1);
		fifoPush("f.fifo", "g", "b", 10, 15, 2);
		poll("c0", "sqs", "f.fifo", 20, 22, delivery(1, "a", 1, 20, 2000));
		poll("c1", "sqs", "f.fifo", 30, 32, delivery(2, "b", 1, 30, 2000));
		complete("sqs", 1, "1.1", 40, 42, "ok");
		complete("sqs", 2, "2.1", 50, 52, "ok");
		HistoryReport report = check(Delivery.EXACTLY_ONCE);
		assertThat(report.outOfOrder()).isEqualTo(1);
		assertThat(report.valid(false)).isFalse();
		assertThat(report.anomalies()).anyMatch((anomaly) -> anomaly.startsWith("out of order: b of group f.fifo g"));
	}

	private HistoryReport check(Delivery guarantee) {
		return HistoryChecker.check(History.parse(String.join("\n", this.lines)), guarantee);
	}

	private static long nanos(long ms) {
		return ms * 1_000_000L;
	}

	private void push(String value, long invoke, long returned, String result, long id) {
		push("q0", value, invoke, returned, result, id);
	}

	private void push(String queue, String value, long invoke, long returned, String result, long id) {
		this.lines.add(("{\"client\":\"p0\",\"face\":\"rest\",\"queue\":\"%s\",\"op\":\"push\",\"values\":[\"%s\"],"
				+ "\"invoke\":%d,\"return\":%d,%s\"result\":\"%s\"}")
			.formatted(queue, value, nanos(invoke), nanos(returned), (id > 0) ? "\"ids\":[" + id + "]," : "", result));
	}

	private void poll(String client, String face, String queue, long invoke, long returned, String... deliveries) {
		this.lines.add(("{\"client\":\"%s\",\"face\":\"%s\",\"queue\":\"%s\",\"op\":\"poll\",\"invoke\":%d,"
				+ "\"return\":%d,\"deliveries\":[%s],\"result\":\"ok\"}")
			.formatted(client, face, queue, nanos(invoke), nanos(returned), String.join(",", deliveries)));
	}

	private void fifoPush(String queue, String group, String value, long invoke, long returned, long id) {
		this.lines.add(("{\"client\":\"p0\",\"face\":\"sqs\",\"queue\":\"%s\",\"op\":\"push\",\"values\":[\"%s\"],"
				+ "\"group\":\"%s\",\"invoke\":%d,\"return\":%d,\"ids\":[%d],\"result\":\"ok\"}")
			.formatted(queue, value, group, nanos(invoke), nanos(returned), id));
	}

	private void move(String source, String destination, long invoke, long returned, String result) {
		this.lines.add(("{\"client\":\"p0-mover\",\"face\":\"sqs\",\"queue\":\"%s\",\"op\":\"move\","
				+ "\"destination\":\"%s\",\"invoke\":%d,\"return\":%d,\"result\":\"%s\"}")
			.formatted(source, destination, nanos(invoke), nanos(returned), result));
	}

	private void moveStatus(String source, String status, long moved, long toMove, long at) {
		this.lines.add(("{\"client\":\"p0-mover\",\"face\":\"sqs\",\"queue\":\"%s\",\"op\":\"move-status\","
				+ "\"status\":\"%s\",\"moved\":%d,\"toMove\":%d,\"invoke\":%d,\"return\":%d,\"result\":\"ok\"}")
			.formatted(source, status, moved, toMove, nanos(at), nanos(at + 1)));
	}

	private void poll(String client, String face, long invoke, long returned, String... deliveries) {
		this.lines.add(("{\"client\":\"%s\",\"face\":\"%s\",\"op\":\"poll\",\"invoke\":%d,\"return\":%d,"
				+ "\"deliveries\":[%s],\"result\":\"ok\"}")
			.formatted(client, face, nanos(invoke), nanos(returned), String.join(",", deliveries)));
	}

	private static String delivery(long id, String value, long number, long from, long leaseMs) {
		return "{\"id\":%d,\"value\":\"%s\",\"delivery\":%d,\"lease\":\"%d.%d\",\"leaseMs\":%d,\"leaseFrom\":%d}"
			.formatted(id, value, number, id, number, leaseMs, nanos(from));
	}

	private void complete(String face, long id, String lease, long invoke, long returned, String result) {
		this.lines.add(("{\"client\":\"c0\",\"face\":\"%s\",\"op\":\"complete\",\"id\":%d,\"lease\":\"%s\","
				+ "\"invoke\":%d,\"return\":%d,\"result\":\"%s\"}")
			.formatted(face, id, lease, nanos(invoke), nanos(returned), result));
	}

	private void completeBatch(String face, long invoke, long returned, String lease, String result) {
		this.lines.add(("{\"client\":\"c0\",\"face\":\"%s\",\"op\":\"complete-batch\",\"entries\":[{\"id\":%s,"
				+ "\"lease\":\"%s\",\"result\":\"%s\"}],\"invoke\":%d,\"return\":%d,\"result\":\"ok\"}")
			.formatted(face, lease.substring(0, lease.indexOf('.')), lease, result, nanos(invoke), nanos(returned)));
	}

	private void changeLease(String face, String lease, int seconds, long invoke, long returned, String result) {
		this.lines.add(("{\"client\":\"c0\",\"face\":\"%s\",\"op\":\"change-lease\",\"id\":%s,\"lease\":\"%s\","
				+ "\"seconds\":%d,\"invoke\":%d,\"return\":%d,\"result\":\"%s\"}")
			.formatted(face, lease.substring(0, lease.indexOf('.')), lease, seconds, nanos(invoke), nanos(returned),
					result));
	}

}
