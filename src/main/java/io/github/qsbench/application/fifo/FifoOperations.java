package io.github.qsbench.application.fifo;

import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.github.qsbench.application.InvalidRequestException;
import io.github.qsbench.application.OutgoingMessage;
import io.github.qsbench.application.QueueEvents;
import io.github.qsbench.application.Received;
import io.github.qsbench.application.Sent;
import io.github.qsbench.application.Wakeups;
import io.github.qsbench.application.queues.FifoOrder;
import io.github.qsbench.application.queues.FifoSettings;
import io.github.qsbench.application.queues.Settings;
import io.github.qsbench.core.CapacityExceededException;
import io.github.qsbench.core.QueueServiceCore;

/**
 * What the other rooms do with FIFO queues ({@link FifoQueues}): the message path sends
 * to them and retries a receive by its attempt id; the queues as wholes follow what
 * leaves or joins them ({@link FifoOrder}).
 */
public final class FifoOperations implements FifoOrder {

	private final FifoQueues queues;

	private final Settings settings;

	private final QueueEvents events;

	private final Wakeups wakeups;

	/**
	 * @param groups where the groups' order is kept (in memory, or the store shared by
	 * instances)
	 * @param clock the core's clock
	 * @param settings the queues' settings: a FIFO queue's own, its delay and largest
	 * message
	 * @param wakeups the long polls, woken when a message becomes ready
	 */
	public FifoOperations(QueueServiceCore core, FifoGroups groups, InstantSource clock, Settings settings,
			QueueEvents events, Wakeups wakeups) {
		this.queues = new FifoQueues(core, groups, clock, wakeups::after);
		this.settings = settings;
		this.events = events;
		this.wakeups = wakeups;
	}

	/**
	 * Sends to a FIFO queue, which must have been created as one and takes no delay per
	 * message (its own delay applies), and wakes the long polls a message ready now can
	 * answer.
	 * @param delaySeconds must be {@code null}
	 * @throws InvalidRequestException if the queue was not created as a FIFO queue, for a
	 * delay, or for a message without a group or deduplication id where one is needed
	 * @throws CapacityExceededException if a cap is reached; nothing was sent
	 */
	public List<Sent> send(String queue, List<OutgoingMessage> messages, Integer delaySeconds) {
		FifoSettings fifo = this.settings.fifo(queue);
		if (fifo == null) {
			throw new InvalidRequestException("No such FIFO queue",
					"FIFO queue '" + queue + "' does not exist: create it as a FIFO queue first.");
		}
		if (delaySeconds != null) {
			throw new InvalidRequestException("Delay per message on a FIFO queue",
					"A FIFO queue delays messages by its own delay only; send without a delay.");
		}
		int delay = this.settings.delaySeconds(queue, null);
		FifoQueues.Sending sending;
		try {
			sending = this.queues.send(queue, fifo, messages, TimeUnit.SECONDS.toMillis(delay),
					this.settings.maxMessageBytes(queue));
		}
		catch (CapacityExceededException ex) {
			this.events.refused(ex.limit());
			throw ex;
		}
		this.events.pushed(sending.pushed());
		if (sending.readyNow()) {
			this.wakeups.pushed(queue);
		}
		else if (delay > 0 && sending.pushed() > 0) {
			this.wakeups.dueIn(queue, Duration.ofSeconds(delay));
		}
		return sending.sent();
	}

	/**
	 * What a receive with this attempt id delivered within the deduplication window, for
	 * a retried receive to get again; {@code null} if none, and then the attempt is
	 * pending for {@code pendingMillis} (a concurrent receive with it waits) until
	 * {@link #attempt} or {@link #dropAttempt}.
	 */
	public List<Received> attempted(String queue, String attemptId, long pendingMillis) {
		return this.queues.attempted(queue, attemptId, pendingMillis);
	}

	/**
	 * Drops the pending marker of an attempt whose receive delivered nothing or failed.
	 */
	public void dropAttempt(String queue, String attemptId) {
		this.queues.dropAttempt(queue, attemptId);
	}

	/** Remembers what a receive with this attempt id delivered. */
	public void attempt(String queue, String attemptId, List<Received> received) {
		this.queues.attempt(queue, attemptId, received);
	}

	@Override
	public boolean release(String queue, long id) {
		return this.queues.release(queue, id);
	}

	@Override
	public boolean admit(String queue, long id, String group) {
		return this.queues.admit(queue, id, group);
	}

	@Override
	public void forget(String queue) {
		this.queues.forget(queue);
	}

	@Override
	public void left(String queue, long id) {
		this.queues.left(queue, id);
	}

}
