package io.github.qsbench.application.messages;

import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

import io.github.qsbench.application.Received;
import io.github.qsbench.application.fifo.FifoOperations;

/**
 * A FIFO queue's receive attempts (SQS's {@code ReceiveRequestAttemptId}): a receive
 * retried with the same attempt id within five minutes gets what the first delivered. The
 * attempt is marked pending while its receive runs (its wait, and 10 s more), so a
 * concurrent receive with the same id waits for the first's answer instead of receiving
 * too; a receive that delivers nothing or fails drops the mark.
 */
final class ReceiveAttempts {

	/**
	 * How long a receive attempt stays pending beyond its wait, if its receive never
	 * answers.
	 */
	private static final long PENDING_MILLIS = 10_000;

	private final FifoOperations fifo;

	ReceiveAttempts(FifoOperations fifo) {
		this.fifo = fifo;
	}

	/** What {@code attemptId} delivered before, or {@code receive}'s answer, recorded. */
	LongPoll once(String queue, String attemptId, Duration wait, Supplier<LongPoll> receive) {
		long pendingMillis = Math.max(0, wait.toMillis()) + PENDING_MILLIS;
		List<Received> attempted = this.fifo.attempted(queue, attemptId, pendingMillis);
		if (attempted != null) {
			return new LongPoll(attempted);
		}
		LongPoll poll;
		try {
			poll = receive.get();
		}
		catch (RuntimeException ex) {
			this.fifo.dropAttempt(queue, attemptId);
			throw ex;
		}
		poll.whenComplete((received, failure) -> {
			if (failure == null && !received.isEmpty()) {
				this.fifo.attempt(queue, attemptId, received);
			}
			else {
				this.fifo.dropAttempt(queue, attemptId);
			}
		});
		return poll;
	}

}
