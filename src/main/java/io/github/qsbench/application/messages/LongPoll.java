package io.github.qsbench.application.messages;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;

import io.github.qsbench.application.Received;
import io.github.qsbench.core.Lease;

/**
 * The answer to a poll that may wait
 * ({@link MessageOperations#awaitLease(String, int, java.time.Duration, Integer)}): done
 * at once when a message was ready or the wait is zero, else completed once by whichever
 * thread finds it messages (a push's) or ends its wait (the wait's timer, shutdown,
 * {@link #end()}); an empty list means none came. It holds no thread while it waits. An
 * adapter completes it only through {@link #end()}, which keeps a message from being
 * leased to a poll nobody answers any more.
 */
public final class LongPoll extends CompletableFuture<List<Received>> {

	private final LongPolls longPolls;

	private final LongPolls.Waiter waiter;

	/** Answered at once. */
	LongPoll(List<Received> deliveries) {
		this.longPolls = null;
		this.waiter = null;
		complete(deliveries);
	}

	/**
	 * Waits as {@code waiter} of {@code longPolls} once registered there, leasing as
	 * {@code lease} does; its leases are answered as {@code answered} makes them
	 * deliveries.
	 */
	LongPoll(LongPolls longPolls, String queue, Supplier<List<Lease>> lease,
			Function<List<Lease>, List<Received>> answered) {
		this.longPolls = longPolls;
		this.waiter = new LongPolls.Waiter(queue, lease, leases -> complete(answered.apply(leases)));
	}

	LongPolls.Waiter waiter() {
		return this.waiter;
	}

	/**
	 * Ends the wait now, for the adapter's own timeout or a connection that failed:
	 * unless it was answered already, it is answered with nothing, and nothing is leased
	 * for it afterwards.
	 */
	public void end() {
		if (this.waiter != null) {
			this.longPolls.close(this.waiter);
		}
	}

}
