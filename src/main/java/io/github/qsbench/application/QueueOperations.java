package io.github.qsbench.application;

import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.concurrent.TimeUnit;

import io.github.qsbench.application.queues.ExplicitQueues;
import io.github.qsbench.application.queues.FifoSettings;
import io.github.qsbench.application.queues.QueueSettings;
import io.github.qsbench.application.queues.QueueTags;
import io.github.qsbench.application.queues.Settings;
import io.github.qsbench.core.CapacityExceededException;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.Lease;
import io.github.qsbench.core.LeaseChange;
import io.github.qsbench.core.Message;
import io.github.qsbench.core.Peeked;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.QueueStats;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.web.server.context.WebServerGracefulShutdownLifecycle;
import org.springframework.context.SmartLifecycle;

/**
 * What the service does with a queue, for every way in (the REST controller, the fast
 * path, the SQS face): the message path itself (push, lease, long polls, lease changes,
 * completion, browse), and the operations on queues as wholes, which it hands to their
 * parts: {@link Settings}, {@link DeadLetters}, {@link QueueLifecycle} (retention runs
 * beside it, {@link Retention}). Around each core call it checks what the core takes for
 * granted (queue names, counts, lease tokens), reports what happened to
 * {@link QueueEvents}, and wakes the long polls a push can answer. It takes messages as
 * producers send them ({@link OutgoingMessage}) and answers them as consumers get them
 * ({@link Received}), keeping them in the core in one format of its own
 * ({@link StoredMessage}); completions, counts and lease tokens are the core's
 * ({@link Completion}, {@link QueueStats}, {@link LeaseTokens}). An adapter translates
 * those from and into its protocol and reads its own wire format (paths, headers, JSON,
 * charsets).
 *
 * <p>
 * Refusals are exceptions an adapter answers in its protocol:
 * {@link InvalidRequestException} for input, {@link CapacityExceededException} when a cap
 * is reached (nothing pushed); a completion's outcome is its {@link Completion}.
 */
public class QueueOperations implements SmartLifecycle, DisposableBean {

	/**
	 * What {@link #isQueueName} accepts, for API descriptions: SQS's names, a FIFO
	 * queue's ending {@value FifoSettings#SUFFIX}.
	 */
	public static final String QUEUE_NAME_REGEX = "(?:[A-Za-z0-9_-]{1,80}|[A-Za-z0-9_-]{1,75}\\.fifo)";

	private static final int MAX_QUEUE_NAME = 80;

	private static final Duration MAX_WAIT = Duration.ofSeconds(Limits.MAX_WAIT_SECONDS);

	private final QueueServiceCore core;

	private final QueueEvents events;

	private final InstantSource clock;

	private final int maxMessageBytes;

	private final Settings settings;

	private final LongPolls longPolls;

	private final DeadLetters deadLetters;

	private final QueueLifecycle queues;

	private final FifoQueues fifo;

	private final FairQueues fair;

	/** What follows a message leaving a queue: its FIFO or fair-queue group. */
	private final Departures departures;

	private volatile boolean running;

	/**
	 * @param core the core this layer calls (the strategy, or a decorator of it)
	 * @param explicit the queues created explicitly, which exist while empty, and their
	 * settings
	 * @param fifoGroups where FIFO queues keep their groups' order (in memory, or the
	 * store shared by instances)
	 * @param events told of what happens, after it happened
	 * @param leaseTimeout the lease of a queue without one of its own, as the core was
	 * built with it
	 * @param clock the core's clock
	 * @param maxMessageBytes the largest message (body and attributes) of a queue without
	 * one of its own, {@code qs.max-message-size}
	 */
	public QueueOperations(QueueServiceCore core, ExplicitQueues explicit, FifoGroups fifoGroups, QueueEvents events,
			Duration leaseTimeout, InstantSource clock, int maxMessageBytes) {
		this.core = core;
		this.clock = clock;
		this.maxMessageBytes = maxMessageBytes;
		this.events = events;
		this.settings = new Settings(explicit, leaseTimeout, maxMessageBytes, clock);
		this.longPolls = new LongPolls(this::deliverable);
		this.fifo = new FifoQueues(core, fifoGroups, clock, this.longPolls::after);
		this.fair = new FairQueues(core, fifoGroups.fair(), clock, events);
		this.deadLetters = new DeadLetters(core, explicit, events, this.longPolls, this.fifo, this.fair);
		this.departures = Departures.byKind(this.fifo, this.fair);
		this.queues = new QueueLifecycle(core, explicit, events, this.fifo, this.fair, this.departures);
	}

	/** Whether {@code name} matches {@link #QUEUE_NAME_REGEX}: a loop, not a matcher. */
	public static boolean isQueueName(String name) {
		int length = FifoSettings.isFifo(name) ? name.length() - FifoSettings.SUFFIX.length() : name.length();
		if (length == 0 || name.length() > MAX_QUEUE_NAME) {
			return false;
		}
		for (int i = 0; i < length; i++) {
			char c = name.charAt(i);
			if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-')) {
				return false;
			}
		}
		return true;
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
		if (FifoSettings.isFifo(queue)) {
			return sendFifo(queue, messages, delaySeconds);
		}
		boolean grouped = false;
		for (OutgoingMessage message : messages) {
			if (message.deduplicationId() != null) {
				throw new InvalidRequestException("Not a FIFO queue",
						"A deduplication id is for FIFO queues; '" + queue + "' is a standard queue.");
			}
			grouped |= message.group() != null;
		}
		int delay = this.settings.delaySeconds(queue, delaySeconds);
		int maxBytes = this.settings.maxMessageBytes(queue);
		long now = this.clock.millis();
		List<byte[]> stored = new ArrayList<>(messages.size());
		for (OutgoingMessage message : messages) {
			stored.add(StoredMessage.encode(message, now, 0, maxBytes));
		}
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
		List<Sent> sent = new ArrayList<>(pushed.size());
		for (Message message : pushed) {
			sent.add(new Sent(message.id(), 0));
		}
		return sent;
	}

	/**
	 * Sends to a FIFO queue ({@link FifoQueues}): it must have been created as one, and
	 * it takes no delay per message (its own delay applies).
	 */
	private List<Sent> sendFifo(String queue, List<OutgoingMessage> messages, Integer delaySeconds) {
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
			sending = this.fifo.send(queue, fifo, messages, TimeUnit.SECONDS.toMillis(delay),
					this.settings.maxMessageBytes(queue));
		}
		catch (CapacityExceededException ex) {
			this.events.refused(ex.limit());
			throw ex;
		}
		this.events.pushed(sending.pushed());
		if (sending.readyNow()) {
			this.longPolls.pushed(queue);
		}
		else if (delay > 0 && sending.pushed() > 0) {
			this.longPolls.dueIn(queue, Duration.ofSeconds(delay));
		}
		return sending.sent();
	}

	/** The most that a message's body and attributes may add up to, in bytes. */
	public int maxMessageBytes() {
		return this.maxMessageBytes;
	}

	/**
	 * Leases up to {@code max} (1 to {@value Limits#MAX_BATCH}) ready messages, in queue
	 * order, for the queue's lease; none if nothing is ready.
	 */
	public List<Received> lease(String queue, int max) {
		return lease(queue, max, (Integer) null);
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
		return deliveries(queue, leases);
	}

	/**
	 * Leases up to {@code max} messages as soon as one is ready, waiting up to
	 * {@code wait} (0 to {@value Limits#MAX_WAIT_SECONDS} s) without holding a thread.
	 * @param leaseSeconds the lease of these deliveries (0 to
	 * {@value Limits#MAX_LEASE_SECONDS} s, 0: ready again at once), or {@code null} for
	 * the queue's lease
	 */
	public LongPoll lease(String queue, int max, Duration wait, Integer leaseSeconds) {
		return lease(queue, max, wait, leaseSeconds, null);
	}

	/**
	 * Leases as {@link #lease(String, int, Duration, Integer)} does; on a FIFO queue, a
	 * receive retried with the same {@code attemptId} (SQS's
	 * {@code ReceiveRequestAttemptId}) within five minutes gets what the first delivered.
	 * @param attemptId {@code null} for none; ignored on a standard queue, as in SQS
	 */
	public LongPoll lease(String queue, int max, Duration wait, Integer leaseSeconds, String attemptId) {
		Checks.queueName(queue);
		if (attemptId != null && FifoSettings.isFifo(queue)) {
			List<Received> attempted = this.fifo.attempted(queue, attemptId);
			if (attempted != null) {
				return new LongPoll(attempted);
			}
			LongPoll poll = lease(queue, max, wait, leaseSeconds, null);
			poll.thenAccept(received -> {
				if (!received.isEmpty()) {
					this.fifo.attempt(queue, attemptId, received);
				}
			});
			return poll;
		}
		Checks.max(max);
		if (wait.isNegative() || wait.compareTo(MAX_WAIT) > 0) {
			throw InvalidRequestException.outOfRange("wait", 0, Limits.MAX_WAIT_SECONDS);
		}
		long leaseMillis = this.settings.leaseMillis(queue, leaseSeconds);
		List<Lease> ready = deliverable(queue, max, leaseMillis);
		if (!ready.isEmpty() || wait.isZero()) {
			counted(ready);
			return new LongPoll(deliveries(queue, ready));
		}
		LongPoll poll = new LongPoll(this.longPolls, queue, max, leaseMillis, leases -> {
			counted(leases);
			return deliveries(queue, leases);
		});
		this.longPolls.await(poll.waiter(), wait);
		return poll;
	}

	/**
	 * What a consumer is leased: the core's leases, dead letters moved; on a fair queue
	 * ({@link FairQueues}), when the core has fewer ready than asked for, held messages
	 * of noisy groups released and leased too.
	 */
	private List<Lease> deliverable(String queue, int max, long leaseMillis) {
		List<Lease> leases = this.deadLetters.deliverable(queue, max, leaseMillis);
		if (leases.size() < max && this.fair.tracks(queue)) {
			List<Lease> released = this.fair.release(queue, max - leases.size(), leaseMillis);
			if (!released.isEmpty()) {
				List<Lease> all = new ArrayList<>(leases.size() + released.size());
				all.addAll(leases);
				all.addAll(released);
				return all;
			}
		}
		return leases;
	}

	/**
	 * The leases as deliveries, each message read back; a first delivery records its
	 * time.
	 */
	private List<Received> deliveries(String queue, List<Lease> leases) {
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
			if (received.message().system().group() != null && !FifoSettings.isFifo(queue)) {
				this.fair.learn(queue);
			}
			deliveries.add(received);
		}
		return deliveries;
	}

	/**
	 * Makes the lease of a delivered message end {@code leaseSeconds} from now (0 to
	 * {@value Limits#MAX_LEASE_SECONDS}; 0 makes it ready at once), if {@code lease} is
	 * its current delivery's token; the token stays valid.
	 * @throws InvalidRequestException if {@code lease} is not a token this service hands
	 * out, or the lease is out of range
	 */
	public LeaseChange changeLease(String queue, long id, String lease, int leaseSeconds) {
		Checks.queueName(queue);
		int delivery = LeaseTokens.delivery(lease, id);
		return this.core.changeLease(queue, id, delivery, TimeUnit.SECONDS.toMillis(Checks.leaseSeconds(leaseSeconds)));
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
		Completion completion = this.core.complete(queue, id, LeaseTokens.delivery(lease, id));
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
	public List<Completion> completeAll(String queue, List<ToComplete> entries) {
		Checks.queueName(queue);
		Checks.batch(entries.size());
		long[] ids = new long[entries.size()];
		int[] deliveries = new int[entries.size()];
		for (int i = 0; i < deliveries.length; i++) {
			ToComplete entry = entries.get(i);
			ids[i] = entry.id();
			deliveries[i] = LeaseTokens.delivery(entry.lease(), entry.id());
		}
		List<Completion> completions = this.core.completeAll(queue, ids, deliveries);
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
	 * On a FIFO queue, releases the next message of the group a completed one leaves; on
	 * a fair queue, takes it out of its group.
	 */
	private void left(String queue, long id) {
		if (FifoSettings.isFifo(queue)) {
			if (this.fifo.release(queue, id)) {
				this.longPolls.pushed(queue);
			}
		}
		else {
			this.fair.left(queue, id);
		}
	}

	/**
	 * What a retention sweep tells of the messages it removes, so that a FIFO queue's
	 * groups, or a fair queue's, follow.
	 */
	public Departures departures() {
		return this.departures;
	}

	/**
	 * Whether this instance knows the standard queue to have message groups (a fair
	 * queue).
	 */
	public boolean hasGroups(String queue) {
		Checks.queueName(queue);
		return !FifoSettings.isFifo(queue) && this.fair.tracks(queue);
	}

	/**
	 * SQS's fair-queue counts of a standard queue: of its messages in quiet groups (a
	 * message without a group is a tenant of its own, never noisy).
	 */
	public QuietCounts quietCounts(String queue) {
		Checks.queueName(queue);
		return this.fair.quietCounts(queue);
	}

	/**
	 * Up to {@code max} (1 to {@value Limits#MAX_BATCH}) messages from the queue's head
	 * with their state and delivery count, leasing nothing.
	 */
	public List<Browse> peek(String queue, int max) {
		Checks.queueName(queue);
		Checks.max(max);
		List<Peeked> peeked = this.core.peek(queue, max);
		List<Browse> browsed = new ArrayList<>(peeked.size());
		for (Peeked one : peeked) {
			browsed.add(new Browse(one, StoredMessage.read(one.message().body())));
		}
		return browsed;
	}

	/** Long polls waiting now, by queue; a queue nobody waits on has no entry. */
	public Map<String, Integer> waiting() {
		return this.longPolls.waiting();
	}

	private void counted(List<Lease> leases) {
		if (leases.isEmpty()) {
			this.events.emptyPoll();
		}
		else {
			this.events.delivered(leases);
		}
	}

	/**
	 * The queue's settings: its lease (its own, or the service's), its delay (its own, or
	 * none), its retention (or none), its dead-letter policy.
	 */
	public QueueSettings settings(String queue) {
		return this.settings.settings(queue);
	}

	/**
	 * The most bytes a message pushed to the queue may carry, body and attributes as SQS
	 * counts them: the queue's own {@code maxMessageBytes}, else the service's
	 * {@code qs.max-message-size}. A face refuses a larger message in its own protocol
	 * before it pushes; answered from memory (the queue's cached settings), as a push's
	 * delay is.
	 */
	public int maxMessageBytes(String queue) {
		return this.settings.maxMessageBytes(queue);
	}

	/**
	 * Creates the queue explicitly (it stays until deleted) or changes its settings (its
	 * own lease, delay, retention, dead-letter policy, largest message and tags); fields
	 * left out keep their value.
	 * @return whether this call created it
	 * @throws InvalidRequestException for a setting out of SQS's range or not supported,
	 * a dead-letter queue that does not exist, or is the queue itself, tags SQS refuses
	 * or more than {@value QueueTags#MAX_TAGS} of them
	 * @throws CapacityExceededException if it did not exist and no more queues may be
	 * created ({@code qs.limits.max-queues}, in-process strategies)
	 */
	public boolean configure(String queue, QueueSettings.Change change) {
		return this.settings.configure(queue, change);
	}

	/** The queues whose dead-letter queue this is, by name. */
	public SortedSet<String> deadLetterSources(String queue) {
		return this.settings.deadLetterSources(queue);
	}

	/**
	 * Moves up to {@code max} messages from a dead-letter queue back to the queue each
	 * came from, or all to {@code to}: each as it was there (body and attributes), as a
	 * new message that has not been delivered. Each leaves the dead-letter queue once, by
	 * the completion of the lease this call took; only messages held when it began move,
	 * so it ends even if what it moves comes back (to this queue itself, or a source that
	 * dead-letters to it at once).
	 * @return how many moved
	 */
	public int redrive(String queue, String to, int max) {
		return this.deadLetters.redrive(queue, to, max);
	}

	/** Where messages are moved, for the move tasks that share it. */
	DeadLetters deadLetters() {
		return this.deadLetters;
	}

	/**
	 * Removes every message the queue held when the call began, ready, in flight or
	 * delayed, as SQS's {@code PurgeQueue} does: messages pushed while it runs may go
	 * too. Written once for every strategy, with what each offers: it leases the ready
	 * messages and completes them, then discards by id the ones a browse finds (in
	 * flight, delayed). So each message leaves exactly once, by the strategy's own
	 * completion or discard, whether a consumer completes it at the same moment or not; a
	 * consumer holding a purged message then gets {@link Completion#NOT_FOUND}.
	 * @return how many messages it removed
	 */
	public int purge(String queue) {
		return this.queues.purge(queue);
	}

	/**
	 * Deletes the queue: forgets that it was created explicitly, then purges it, so that
	 * the core removes it once empty (and its leases with it: a consumer holding one of
	 * its messages gets {@link Completion#NOT_FOUND}).
	 * @return whether it existed (created explicitly, or holding messages)
	 */
	public boolean deleteQueue(String queue) {
		return this.queues.deleteQueue(queue);
	}

	/** Whether the queue was created explicitly (it stays until deleted). */
	public boolean isExplicit(String queue) {
		return this.queues.isExplicit(queue);
	}

	/** Whether the queue was created explicitly or holds messages now. */
	public boolean exists(String queue) {
		return this.queues.exists(queue);
	}

	/**
	 * Every queue that exists, by name, with its counts: those created explicitly, empty
	 * or not, and those holding messages. What both faces list.
	 */
	public List<QueueStats> queues() {
		return this.queues.queues();
	}

	/**
	 * The queue's counts, or nothing if it holds no message now (a queue created
	 * explicitly may still exist: {@link #isExplicit}).
	 */
	public Optional<QueueStats> queue(String name) {
		return this.queues.queue(name);
	}

	/** Starts waking long polls on pushes by other instances sharing the store. */
	@Override
	public void start() {
		this.longPolls.start();
		this.core.onPushes(this.longPolls::pushedElsewhere);
		this.running = true;
	}

	/**
	 * Answers every waiting long poll with nothing, so graceful shutdown is not held up
	 * for a whole wait; polls from now on do not wait.
	 */
	@Override
	public void stop() {
		this.longPolls.stop();
		this.running = false;
	}

	/**
	 * Whether {@link #start} ran and {@link #stop} did not since: Spring starts a
	 * lifecycle bean only if it is not running.
	 */
	@Override
	public boolean isRunning() {
		return this.running;
	}

	/**
	 * Before the web server's graceful shutdown, which would wait for the waiters, and
	 * before the web layer waits for the answers to be written.
	 */
	@Override
	public int getPhase() {
		return WebServerGracefulShutdownLifecycle.SMART_LIFECYCLE_PHASE + 2;
	}

	@Override
	public void destroy() {
		this.longPolls.destroy();
	}

	/**
	 * One entry of a batch completion: the message's id and, optionally, the lease token
	 * of the delivery to complete.
	 */
	public record ToComplete(long id, String lease) {
	}

}
