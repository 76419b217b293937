package io.github.qsbench.application.messages;

import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.github.qsbench.application.Checks;
import io.github.qsbench.application.InvalidRequestException;
import io.github.qsbench.application.LeaseTokens;
import io.github.qsbench.application.Limits;
import io.github.qsbench.application.OutgoingMessage;
import io.github.qsbench.application.PeekedMessage;
import io.github.qsbench.application.QueueEvents;
import io.github.qsbench.application.QueueNames;
import io.github.qsbench.application.Received;
import io.github.qsbench.application.Sent;
import io.github.qsbench.application.StoredMessage;
import io.github.qsbench.application.fair.FairQueues;
import io.github.qsbench.application.fifo.FifoOperations;
import io.github.qsbench.application.queues.DeadLetters;
import io.github.qsbench.application.queues.Settings;
import io.github.qsbench.core.ByIdOperation;
import io.github.qsbench.core.ByIdOutcome;
import io.github.qsbench.core.CapacityExceededException;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.Lease;
import io.github.qsbench.core.Message;
import io.github.qsbench.core.Peeked;
import io.github.qsbench.core.QueueServiceCore;

/**
 * What the service does with messages, for every way in (the REST controller, the fast
 * path, the SQS face): push, lease (at once, or {@link #awaitLease waiting}), lease
 * changes, completion, peek. Around each core call it checks what the core takes for
 * granted (queue names, counts, lease tokens), applies the queue's {@link Settings},
 * reports to {@link QueueEvents} and wakes the {@link LongPolls} a push can answer.
 * Messages come in as {@link OutgoingMessage}, are kept as {@link StoredMessage} and go
 * out as {@link Received}. Refusals are exceptions an adapter answers in its protocol:
 * {@link InvalidRequestException} for input, {@link CapacityExceededException} when a cap
 * is reached (nothing pushed); a completion's outcome is its {@link Completion}. The same
 * push, lease and completion for a caller that must not wait for the store are
 * {@link #async}'s.
 */
public class MessageOperations {

	private static final Duration MAX_WAIT = Duration.ofSeconds(Limits.MAX_WAIT_SECONDS);

	private final QueueServiceCore core;

	private final QueueEvents events;

	private final InstantSource clock;

	private final int maxMessageBytes;

	private final Settings settings;

	private final LongPolls longPolls;

	private final DeadLetters deadLetters;

	private final FifoOperations fifo;

	private final ReceiveAttempts attempts;

	private final FairQueues fair;

	private final AsyncMessageOperations async;

	/**
	 * @param core the core this layer calls (the strategy, or a decorator of it)
	 * @param events told of what happens, after it happened
	 * @param clock the core's clock
	 * @param maxMessageBytes the largest message (body and attributes) of a queue without
	 * one of its own, {@code qs.max-message-size}
	 * @param deadLetters moves the dead letters a poll finds
	 * @param fifo where sends to FIFO queues go
	 */
	public MessageOperations(QueueServiceCore core, QueueEvents events, InstantSource clock, int maxMessageBytes,
			Settings settings, LongPolls longPolls, DeadLetters deadLetters, FifoOperations fifo, FairQueues fair) {
		this.core = core;
		this.events = events;
		this.clock = clock;
		this.maxMessageBytes = maxMessageBytes;
		this.settings = settings;
		this.longPolls = longPolls;
		this.deadLetters = deadLetters;
		this.fifo = fifo;
		this.attempts = new ReceiveAttempts(fifo);
		this.fair = fair;
		this.async = new AsyncMessageOperations(this, core.async().orElse(null), events, settings, longPolls, fair);
	}

	/**
	 * The push, lease and completion for a caller that must not wait for the store, on
	 * the queues they {@linkplain AsyncMessageOperations#answers answer}.
	 */
	public AsyncMessageOperations async() {
		return this.async;
	}

	/**
	 * Sends a message that is only its body, with the queue's delay: see
	 * {@link #send(String, OutgoingMessage, Integer)}.
	 */
	public Sent push(String queue, byte[] body) {
		return send(queue, OutgoingMessage.of(body), null);
	}

	/**
	 * Sends one message, creating the queue if needed, and wakes a long poll waiting on
	 * it; delayed by {@code delaySeconds} (0 to {@value Limits#MAX_DELAY_SECONDS};
	 * {@code null}: the queue's delay): held, and counted as delayed, but not delivered
	 * until then; a long poll waiting on the queue is woken when it is due.
	 * @throws InvalidRequestException if body and attributes add up to more than the
	 * service's maximum message size
	 * @throws CapacityExceededException if a cap is reached; nothing was sent
	 */
	public Sent send(String queue, OutgoingMessage message, Integer delaySeconds) {
		return sendAll(queue, List.of(message), delaySeconds).get(0);
	}

	/**
	 * Sends 1 to {@value Limits#MAX_BATCH} messages in order, all or none, each delayed
	 * as {@link #send} delays one, and wakes the long polls waiting on the queue.
	 * @throws InvalidRequestException if one is over the maximum message size; nothing
	 * was sent
	 * @throws CapacityExceededException if the batch would cross a cap; nothing was sent
	 */
	public List<Sent> sendAll(String queue, List<OutgoingMessage> messages, Integer delaySeconds) {
		Checks.queueName(queue);
		Checks.batch(messages.size());
		if (QueueNames.isFifo(queue)) {
			return this.fifo.send(queue, messages, delaySeconds);
		}
		boolean grouped = grouped(queue, messages);
		int delay = this.settings.delaySeconds(queue, delaySeconds);
		List<byte[]> stored = stored(messages, this.settings.maxMessageBytes(queue));
		List<Message> pushed;
		try {
			if (grouped && delay == 0) {
				pushed = this.fair.push(queue, messages, stored);
			}
			else {
				pushed = (delay == 0 && stored.size() == 1) ? List.of(this.core.push(queue, stored.get(0)))
						: this.core.pushAll(queue, stored, TimeUnit.SECONDS.toMillis(delay));
			}
		}
		catch (CapacityExceededException ex) {
			this.events.refused(ex.limit());
			throw ex;
		}
		this.events.pushed(pushed.size());
		if (delay == 0) {
			this.longPolls.pushed(queue);
		}
		else {
			this.longPolls.dueIn(queue, Duration.ofSeconds(delay));
		}
		return sent(pushed);
	}

	/**
	 * Whether a message for a standard queue has a group (a fair queue's).
	 * @throws InvalidRequestException if one has a deduplication id, for FIFO queues only
	 */
	static boolean grouped(String queue, List<OutgoingMessage> messages) {
		boolean grouped = false;
		for (OutgoingMessage message : messages) {
			if (message.deduplicationId() != null) {
				throw new InvalidRequestException("Not a FIFO queue",
						"A deduplication id is for FIFO queues; '" + queue + "' is a standard queue.");
			}
			grouped |= message.group() != null;
		}
		return grouped;
	}

	/**
	 * The messages as the core stores them, sent now.
	 * @throws InvalidRequestException if one is over {@code maxBytes}
	 */
	List<byte[]> stored(List<OutgoingMessage> messages, int maxBytes) {
		long now = this.clock.millis();
		List<byte[]> stored = new ArrayList<>(messages.size());
		for (OutgoingMessage message : messages) {
			stored.add(StoredMessage.encode(message, now, 0, maxBytes));
		}
		return stored;
	}

	static List<Sent> sent(List<Message> pushed) {
		List<Sent> sent = new ArrayList<>(pushed.size());
		for (Message message : pushed) {
			sent.add(new Sent(message.id(), 0));
		}
		return sent;
	}

	/** The core's clock's time, for a message stored now. */
	long now() {
		return this.clock.millis();
	}

	/** The most that a message's body and attributes may add up to, in bytes. */
	public int maxMessageBytes() {
		return this.maxMessageBytes;
	}

	/**
	 * The most bytes a message pushed to the queue may carry
	 * ({@link Settings#maxMessageBytes}), for a face to refuse a larger message in its
	 * own protocol before it pushes.
	 */
	public int maxMessageBytes(String queue) {
		return this.settings.maxMessageBytes(queue);
	}

	/**
	 * Leases up to {@code max} (1 to {@value Limits#MAX_BATCH}) ready messages, in queue
	 * order, for the queue's lease; none if nothing is ready.
	 */
	public List<Received> lease(String queue, int max) {
		return lease(queue, max, null);
	}

	/**
	 * Leases as {@link #lease(String, int)} does, for {@code leaseSeconds} (0 to
	 * {@value Limits#MAX_LEASE_SECONDS} s, 0: ready again at once; {@code null}: the
	 * queue's lease).
	 */
	public List<Received> lease(String queue, int max, Integer leaseSeconds) {
		Checks.queueName(queue);
		Checks.max(max);
		List<Lease> leases = deliverable(queue, max, this.settings.leaseMillis(queue, leaseSeconds));
		counted(leases);
		return deliveries(queue, leases, true);
	}

	/**
	 * Leases up to {@code max} messages as soon as one is ready, waiting up to
	 * {@code wait} (0 to {@value Limits#MAX_WAIT_SECONDS} s) without holding a thread.
	 * @param leaseSeconds the lease of these deliveries (0 to
	 * {@value Limits#MAX_LEASE_SECONDS} s, 0: ready again at once), or {@code null} for
	 * the queue's lease
	 */
	public LongPoll awaitLease(String queue, int max, Duration wait, Integer leaseSeconds) {
		return awaitLease(queue, max, wait, leaseSeconds, null);
	}

	/**
	 * Leases as {@link #awaitLease(String, int, Duration, Integer)} does; on a FIFO
	 * queue, a receive retried with the same {@code attemptId} (SQS's
	 * {@code ReceiveRequestAttemptId}) within five minutes gets what the first delivered.
	 * @param attemptId {@code null} for none; ignored on a standard queue, as in SQS
	 */
	public LongPoll awaitLease(String queue, int max, Duration wait, Integer leaseSeconds, String attemptId) {
		Checks.queueName(queue);
		if (attemptId != null && QueueNames.isFifo(queue)) {
			return this.attempts.once(queue, attemptId, wait, () -> awaitLease(queue, max, wait, leaseSeconds, null));
		}
		Checks.max(max);
		checkWait(wait);
		long leaseMillis = this.settings.leaseMillis(queue, leaseSeconds);
		List<Lease> ready = deliverable(queue, max, leaseMillis);
		if (!ready.isEmpty() || wait.isZero()) {
			counted(ready);
			return new LongPoll(deliveries(queue, ready, true));
		}
		LongPoll poll = new LongPoll(this.longPolls, queue, () -> deliverable(queue, max, leaseMillis), leases -> {
			counted(leases);
			return deliveries(queue, leases, true);
		});
		this.longPolls.await(poll.waiter(), wait);
		return poll;
	}

	static void checkWait(Duration wait) {
		if (wait.isNegative() || wait.compareTo(MAX_WAIT) > 0) {
			throw InvalidRequestException.outOfRange("wait", 0, Limits.MAX_WAIT_SECONDS);
		}
	}

	/**
	 * What a consumer is leased: the core's leases, dead letters moved; on a fair queue
	 * ({@link FairQueues}), when the core has fewer ready than asked for, held messages
	 * of noisy groups released and leased too.
	 */
	private List<Lease> deliverable(String queue, int max, long leaseMillis) {
		List<Lease> leases = this.deadLetters.deliverable(queue, max, leaseMillis);
		if (leases.size() < max && this.fair.tracks(queue)) {
			return joined(leases, this.fair.release(queue, max - leases.size(), leaseMillis));
		}
		return leases;
	}

	/** A fair queue's leases: those ready, then those released. */
	static List<Lease> joined(List<Lease> ready, List<Lease> released) {
		if (released.isEmpty()) {
			return ready;
		}
		List<Lease> all = new ArrayList<>(ready.size() + released.size());
		all.addAll(ready);
		all.addAll(released);
		return all;
	}

	/**
	 * The leases as deliveries, each read back; a first delivery records its time; a
	 * grouped one makes its standard queue fair.
	 * @param announce whether a queue so learned is announced to other instances, a call
	 * to the store: not where the caller must not wait for it
	 */
	List<Received> deliveries(String queue, List<Lease> leases, boolean announce) {
		if (leases.isEmpty()) {
			return List.of();
		}
		long now = this.clock.millis();
		List<Received> deliveries = new ArrayList<>(leases.size());
		for (Lease lease : leases) {
			byte[] stored = lease.message().body();
			if (lease.delivery() == 1) {
				StoredMessage.markReceived(stored, now);
			}
			Received received = new Received(lease, StoredMessage.read(stored));
			if (received.message().system().group() != null && !QueueNames.isFifo(queue)) {
				if (announce) {
					this.fair.learn(queue);
				}
				else {
					this.fair.learnAnnounced(queue);
				}
			}
			deliveries.add(received);
		}
		return deliveries;
	}

	void counted(List<Lease> leases) {
		if (leases.isEmpty()) {
			this.events.emptyPoll();
		}
		else {
			this.events.delivered(leases);
		}
	}

	/**
	 * Makes the lease of a delivered message end {@code leaseSeconds} from now (0 to
	 * {@value Limits#MAX_LEASE_SECONDS}; 0 makes it ready at once), if {@code lease} is
	 * its current delivery's token; the token stays valid.
	 * @throws InvalidRequestException if {@code lease} is not a token this service hands
	 * out, or the lease is out of range
	 */
	public ByIdOutcome changeLease(String queue, long id, String lease, int leaseSeconds) {
		Checks.queueName(queue);
		int delivery = LeaseTokens.delivery(lease, id);
		return this.core.byId(queue, id, ByIdOperation.CHANGE_LEASE, delivery,
				TimeUnit.SECONDS.toMillis(Checks.leaseSeconds(leaseSeconds)));
	}

	/**
	 * Changes the leases of 1 to {@value Limits#MAX_BATCH} delivered messages, each as
	 * {@link #changeLease} would, all to end {@code leaseSeconds} from now, after every
	 * lease token was checked: one that is not a token refuses the whole batch.
	 * @return each entry's outcome, in order
	 */
	public List<ByIdOutcome> changeLeaseAll(String queue, List<BatchEntry> entries, int leaseSeconds) {
		Checks.queueName(queue);
		Checks.batch(entries.size());
		return this.core.changeLeaseAll(queue, ids(entries), deliveries(entries),
				TimeUnit.SECONDS.toMillis(Checks.leaseSeconds(leaseSeconds)));
	}

	/** Whether a poll would find a message now; leases nothing. */
	public boolean hasReady(String queue) {
		Checks.queueName(queue);
		return this.core.hasReady(queue);
	}

	/**
	 * Completes a delivered message by id: only the delivery {@code lease} names, or
	 * whichever is current when it is {@code null}.
	 * @throws InvalidRequestException if {@code lease} is not a token this service hands
	 * out
	 */
	public Completion complete(String queue, long id, String lease) {
		Checks.queueName(queue);
		int delivery = LeaseTokens.delivery(lease, id);
		if (completesFairInOneStep(queue)) {
			Completion completion = this.fair.complete(queue, new long[] { id }, new int[] { delivery }).get(0);
			if (completion == Completion.COMPLETED) {
				this.events.completed(1);
			}
			return completion;
		}
		Completion completion = this.core.complete(queue, id, delivery);
		if (completion == Completion.COMPLETED) {
			this.events.completed(1);
			left(queue, id);
		}
		return completion;
	}

	/**
	 * Completes 1 to {@value Limits#MAX_BATCH} messages, each as {@link #complete} would,
	 * after every lease token was checked: one that is not a token refuses the whole
	 * batch.
	 * @return each entry's outcome, in order
	 */
	public List<Completion> completeAll(String queue, List<BatchEntry> entries) {
		Checks.queueName(queue);
		Checks.batch(entries.size());
		long[] ids = ids(entries);
		if (completesFairInOneStep(queue)) {
			List<Completion> completions = this.fair.complete(queue, ids, deliveries(entries));
			this.events.completed(Collections.frequency(completions, Completion.COMPLETED));
			return completions;
		}
		List<Completion> completions = this.core.completeAll(queue, ids, deliveries(entries));
		int completed = 0;
		for (int i = 0; i < ids.length; i++) {
			if (completions.get(i) == Completion.COMPLETED) {
				completed++;
				left(queue, ids[i]);
			}
		}
		this.events.completed(completed);
		return completions;
	}

	/**
	 * Whether a completion on the queue, a fair one, takes its messages out of their
	 * groups in the same step ({@link FairQueues#completesInOneStep}).
	 */
	private boolean completesFairInOneStep(String queue) {
		return !QueueNames.isFifo(queue) && this.fair.completesInOneStep(queue);
	}

	static long[] ids(List<BatchEntry> entries) {
		long[] ids = new long[entries.size()];
		for (int i = 0; i < ids.length; i++) {
			ids[i] = entries.get(i).id();
		}
		return ids;
	}

	/**
	 * The delivery each entry's lease token names (0: any).
	 * @throws InvalidRequestException if one is not a token this service hands out
	 */
	static int[] deliveries(List<BatchEntry> entries) {
		int[] deliveries = new int[entries.size()];
		for (int i = 0; i < deliveries.length; i++) {
			BatchEntry entry = entries.get(i);
			deliveries[i] = LeaseTokens.delivery(entry.lease(), entry.id());
		}
		return deliveries;
	}

	/**
	 * On a FIFO queue, releases the next message of the group a completed one leaves; on
	 * a fair queue, takes it out of its group.
	 */
	private void left(String queue, long id) {
		if (QueueNames.isFifo(queue)) {
			if (this.fifo.release(queue, id)) {
				this.longPolls.pushed(queue);
			}
		}
		else {
			this.fair.left(queue, id);
		}
	}

	/**
	 * Up to {@code max} (1 to {@value Limits#MAX_BATCH}) messages from the queue's head
	 * with their state and delivery count, leasing nothing.
	 */
	public List<PeekedMessage> peek(String queue, int max) {
		Checks.queueName(queue);
		Checks.max(max);
		List<Peeked> peeked = this.core.peek(queue, max);
		List<PeekedMessage> messages = new ArrayList<>(peeked.size());
		for (Peeked one : peeked) {
			messages.add(new PeekedMessage(one, StoredMessage.read(one.message().body())));
		}
		return messages;
	}

	/**
	 * One entry of a batch by id (a completion, a lease change): the message's id and,
	 * optionally, the lease token of the delivery it acts on.
	 */
	public record BatchEntry(long id, String lease) {
	}

}
