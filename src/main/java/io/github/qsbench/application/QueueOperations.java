package io.github.qsbench.application;

import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import io.github.qsbench.config.QueueServiceProperties;
import io.github.qsbench.core.CapacityExceededException;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.Lease;
import io.github.qsbench.core.LeaseChange;
import io.github.qsbench.core.Message;
import io.github.qsbench.core.Peeked;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.QueueStats;
import io.github.qsbench.metrics.CoreTimeProperties;
import io.github.qsbench.metrics.CoreTimedQueueService;
import io.github.qsbench.metrics.QueueMetrics;
import io.github.qsbench.metrics.QueueMetrics.DeadLetterOutcome;
import io.micrometer.core.instrument.MeterRegistry;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.web.server.context.WebServerGracefulShutdownLifecycle;
import org.springframework.context.SmartLifecycle;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;
import org.springframework.stereotype.Component;

/**
 * What the service does with a queue, for every way in (the REST controller, the fast
 * path, any later protocol): the one caller of the core. Around each core call it checks
 * what the core takes for granted (queue names, counts, lease tokens), times the call
 * ({@code qs.core}, unless switched off), counts the {@code qs.*} meters, and wakes the
 * long polls a push can answer. What it takes and answers is the core's own (bodies as
 * UTF-8 bytes, {@link Message}, {@link Lease}, {@link Completion}, {@link QueueStats})
 * and lease tokens as strings ({@link LeaseTokens}); an adapter translates those from and
 * into its protocol and reads its own wire format (paths, headers, JSON, charsets).
 *
 * <p>
 * Refusals are exceptions an adapter answers in its protocol:
 * {@link InvalidRequestException} for input, {@link CapacityExceededException} when a cap
 * is reached (nothing pushed); a completion's outcome is its {@link Completion}.
 */
@Component
public class QueueOperations implements SmartLifecycle, DisposableBean {

	/** See {@link Limits#MAX_BATCH}. */
	public static final int MAX_BATCH = Limits.MAX_BATCH;

	/** See {@link Limits#MAX_WAIT_SECONDS}. */
	public static final int MAX_WAIT_SECONDS = Limits.MAX_WAIT_SECONDS;

	/** What {@link #isQueueName} accepts, for API descriptions. */
	public static final String QUEUE_NAME_REGEX = "[A-Za-z0-9_-]{1,80}";

	private static final int MAX_QUEUE_NAME = 80;

	private static final Duration MAX_WAIT = Duration.ofSeconds(MAX_WAIT_SECONDS);

	/** See {@link Limits#MAX_LEASE_SECONDS}. */
	public static final int MAX_LEASE_SECONDS = Limits.MAX_LEASE_SECONDS;

	/** See {@link Limits#MIN_RETENTION_SECONDS}. */
	public static final int MIN_RETENTION_SECONDS = Limits.MIN_RETENTION_SECONDS;

	/** See {@link Limits#MAX_RETENTION_SECONDS}. */
	public static final int MAX_RETENTION_SECONDS = Limits.MAX_RETENTION_SECONDS;

	/** See {@link Limits#MAX_DELAY_SECONDS}. */
	public static final int MAX_DELAY_SECONDS = Limits.MAX_DELAY_SECONDS;

	private static final Logger logger = LoggerFactory.getLogger(QueueOperations.class);

	/** How long a move holds its copy back at most (see {@link #move}). */
	private static final long HELD_BACK_MILLIS = TimeUnit.SECONDS.toMillis(MAX_DELAY_SECONDS);

	/** Messages a purge browses at a time for those in flight. */
	private static final int PURGE_SCAN = 1000;

	private final QueueServiceCore core;

	private final QueueMetrics metrics;

	private final LongPolls longPolls;

	private final ExplicitQueues explicit;

	/** The lease of a queue without one of its own, {@code qs.lease-timeout}. */
	private final long leaseSeconds;

	/** The core's clock, which retention reads. */
	private final InstantSource clock;

	private final PushTimeline timeline = new PushTimeline();

	/** Runs {@link #expire()} every second while the service runs. */
	private final ScheduledThreadPoolExecutor retention;

	/** The retention sweeps while started, else {@code null}. */
	private volatile ScheduledFuture<?> sweeps;

	/**
	 * @param strategy the active strategy; wrapped in {@link CoreTimedQueueService}
	 * unless {@code qs.metrics.core-time.enabled=false}
	 * @param explicit the queues created explicitly, which exist while empty
	 */
	@Autowired
	public QueueOperations(QueueServiceCore strategy, QueueMetrics metrics, CoreTimeProperties coreTime,
			MeterRegistry registry, ExplicitQueues explicit, QueueServiceProperties properties, InstantSource clock) {
		this(strategy, metrics, coreTime, registry, explicit, properties.leaseTimeout(), clock);
	}

	/**
	 * @param leaseTimeout the lease of a queue without one of its own, as the core was
	 * built with it
	 */
	QueueOperations(QueueServiceCore strategy, QueueMetrics metrics, CoreTimeProperties coreTime,
			MeterRegistry registry, ExplicitQueues explicit, Duration leaseTimeout, InstantSource clock) {
		this.core = coreTime.enabled() ? new CoreTimedQueueService(strategy, registry) : strategy;
		this.metrics = metrics;
		this.explicit = explicit;
		this.leaseSeconds = leaseTimeout.toSeconds();
		this.clock = clock;
		this.longPolls = new LongPolls(this::deliverable);
		CustomizableThreadFactory threads = new CustomizableThreadFactory("retention-");
		threads.setDaemon(true);
		this.retention = new ScheduledThreadPoolExecutor(1, threads);
	}

	/** Whether {@code name} matches {@link #QUEUE_NAME_REGEX}: a loop, not a matcher. */
	public static boolean isQueueName(String name) {
		int length = name.length();
		if (length == 0 || length > MAX_QUEUE_NAME) {
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
	 * Pushes one message, creating the queue if needed, and wakes a long poll waiting on
	 * it.
	 * @param body the message as UTF-8, checked by the adapter that read it
	 * @throws CapacityExceededException if a cap is reached; nothing was pushed
	 */
	public Message push(String queue, byte[] body) {
		return push(queue, body, null);
	}

	/**
	 * Pushes one message as {@link #push(String, byte[])} does, delayed by
	 * {@code delaySeconds} (0 to {@value #MAX_DELAY_SECONDS}; {@code null}: the queue's
	 * delay): held, and counted as delayed, but not delivered until then; a long poll
	 * waiting on the queue is woken when it is due.
	 * @throws CapacityExceededException if a cap is reached; nothing was pushed
	 */
	public Message push(String queue, byte[] body, Integer delaySeconds) {
		checkQueueName(queue);
		int delay = delaySeconds(queue, delaySeconds);
		Message message;
		try {
			message = (delay == 0) ? this.core.push(queue, body)
					: this.core.pushAll(queue, List.of(body), TimeUnit.SECONDS.toMillis(delay)).get(0);
		}
		catch (CapacityExceededException ex) {
			this.metrics.refused(ex.limit());
			throw ex;
		}
		this.metrics.pushed(1);
		pushed(queue, delay);
		return message;
	}

	/** Wakes the queue's long polls now, or when a delay ends. */
	private void pushed(String queue, int delaySeconds) {
		if (delaySeconds == 0) {
			this.longPolls.pushed(queue);
		}
		else {
			this.longPolls.dueIn(queue, Duration.ofSeconds(delaySeconds));
		}
	}

	/** The delay asked for, else the queue's own, else none. */
	private int delaySeconds(String queue, Integer delaySeconds) {
		if (delaySeconds != null) {
			if (delaySeconds < 0 || delaySeconds > MAX_DELAY_SECONDS) {
				throw InvalidRequestException.outOfRange("delaySeconds", 0, MAX_DELAY_SECONDS);
			}
			return delaySeconds;
		}
		Integer own = this.explicit.delaySeconds(queue);
		return (own != null) ? own : 0;
	}

	/**
	 * Pushes 1 to {@value #MAX_BATCH} messages in order, all or none, and wakes the long
	 * polls waiting on the queue.
	 * @throws CapacityExceededException if the batch would cross a cap; nothing was
	 * pushed
	 */
	public List<Message> pushAll(String queue, List<byte[]> bodies) {
		return pushAll(queue, bodies, null);
	}

	/**
	 * Pushes a batch as {@link #pushAll(String, List)} does, each message delayed as
	 * {@link #push(String, byte[], Integer)} delays one.
	 * @throws CapacityExceededException if the batch would cross a cap; nothing was
	 * pushed
	 */
	public List<Message> pushAll(String queue, List<byte[]> bodies, Integer delaySeconds) {
		checkQueueName(queue);
		checkBatch(bodies.size());
		int delay = delaySeconds(queue, delaySeconds);
		List<Message> messages;
		try {
			messages = this.core.pushAll(queue, bodies, TimeUnit.SECONDS.toMillis(delay));
		}
		catch (CapacityExceededException ex) {
			this.metrics.refused(ex.limit());
			throw ex;
		}
		this.metrics.pushed(messages.size());
		pushed(queue, delay);
		return messages;
	}

	/**
	 * Leases up to {@code max} (1 to {@value #MAX_BATCH}) ready messages, in queue order,
	 * for the queue's lease; none if nothing is ready.
	 */
	public List<Lease> lease(String queue, int max) {
		return lease(queue, max, (Integer) null);
	}

	/**
	 * Leases as {@link #lease(String, int)} does, for {@code leaseSeconds} (0 to
	 * {@value #MAX_LEASE_SECONDS} s, 0: ready again at once; {@code null}: the queue's
	 * lease).
	 */
	public List<Lease> lease(String queue, int max, Integer leaseSeconds) {
		checkQueueName(queue);
		checkMax(max);
		List<Lease> leases = deliverable(queue, max, leaseMillis(queue, leaseSeconds));
		counted(leases);
		return leases;
	}

	/**
	 * Leases up to {@code max} messages as soon as one is ready, waiting up to
	 * {@code wait} (0 to {@value #MAX_WAIT_SECONDS} s) without holding a thread.
	 * @param leaseSeconds the lease of these deliveries (0 to {@value #MAX_LEASE_SECONDS}
	 * s, 0: ready again at once), or {@code null} for the queue's lease
	 */
	public LongPoll lease(String queue, int max, Duration wait, Integer leaseSeconds) {
		checkQueueName(queue);
		checkMax(max);
		if (wait.isNegative() || wait.compareTo(MAX_WAIT) > 0) {
			throw InvalidRequestException.outOfRange("wait", 0, MAX_WAIT_SECONDS);
		}
		long leaseMillis = leaseMillis(queue, leaseSeconds);
		List<Lease> ready = deliverable(queue, max, leaseMillis);
		if (!ready.isEmpty() || wait.isZero()) {
			counted(ready);
			return new LongPoll(ready);
		}
		LongPoll poll = new LongPoll(this.longPolls, queue, max, leaseMillis, this::counted);
		this.longPolls.await(poll.waiter(), wait);
		return poll;
	}

	/** The lease asked for, else the queue's own, else the service's. */
	private long leaseMillis(String queue, Integer leaseSeconds) {
		if (leaseSeconds != null) {
			return TimeUnit.SECONDS.toMillis(checkLease(leaseSeconds));
		}
		Long own = this.explicit.leaseSeconds(queue);
		return TimeUnit.SECONDS.toMillis((own != null) ? own : this.leaseSeconds);
	}

	private static int checkLease(int leaseSeconds) {
		if (leaseSeconds < 0 || leaseSeconds > MAX_LEASE_SECONDS) {
			throw InvalidRequestException.outOfRange("leaseSeconds", 0, MAX_LEASE_SECONDS);
		}
		return leaseSeconds;
	}

	/**
	 * Makes the lease of a delivered message end {@code leaseSeconds} from now (0 to
	 * {@value #MAX_LEASE_SECONDS}; 0 makes it ready at once), if {@code lease} is its
	 * current delivery's token; the token stays valid.
	 * @throws InvalidRequestException if {@code lease} is not a token this service hands
	 * out, or the lease is out of range
	 */
	public LeaseChange changeLease(String queue, long id, String lease, int leaseSeconds) {
		checkQueueName(queue);
		int delivery = LeaseTokens.delivery(lease, id);
		return this.core.changeLease(queue, id, delivery, TimeUnit.SECONDS.toMillis(checkLease(leaseSeconds)));
	}

	/**
	 * Leases up to {@code max} messages to a consumer: those the core leases, less the
	 * ones due for the queue's dead-letter queue, which move there instead. Only a
	 * redelivery can be due, so a poll of first deliveries looks up no policy.
	 */
	private List<Lease> deliverable(String queue, int max, long leaseMillis) {
		List<Lease> leases = this.core.lease(queue, max, leaseMillis);
		for (Lease lease : leases) {
			if (lease.delivery() > 1) {
				return withoutDeadLetters(queue, max, leaseMillis, leases);
			}
		}
		return leases;
	}

	/**
	 * SQS's way, which needs no strategy to change: a message delivered
	 * {@code maxDeliveries} times whose last lease lapsed is found by the receive that
	 * would deliver it once more, and moves ({@link #move}) with its attributes and
	 * delivery count to the dead-letter queue: exactly one of a move and a late
	 * completion by an earlier holder wins (the holder then gets
	 * {@link Completion#NOT_FOUND}). A poll that found only dead letters leases again.
	 */
	private List<Lease> withoutDeadLetters(String queue, int max, long leaseMillis, List<Lease> leases) {
		DeadLetterPolicy policy = this.explicit.deadLetters(queue);
		if (policy == null || !this.explicit.contains(policy.queue())) {
			return leases;
		}
		List<Lease> kept = new ArrayList<>(leases.size());
		while (true) {
			boolean moved = false;
			for (Lease lease : leases) {
				if (lease.delivery() > policy.maxDeliveries()) {
					moveToDeadLetters(queue, lease, policy.queue());
					moved = true;
				}
				else {
					kept.add(lease);
				}
			}
			if (!kept.isEmpty() || !moved) {
				return kept;
			}
			leases = this.core.lease(queue, max, leaseMillis);
		}
	}

	private void moveToDeadLetters(String queue, Lease lease, String deadLetterQueue) {
		byte[] stored = StoredMessage.deadLettered(lease.message().body(), queue, lease.delivery() - 1);
		Move move = move(queue, lease, deadLetterQueue, stored);
		if (move == Move.MOVED) {
			this.metrics.deadLettered(DeadLetterOutcome.MOVED);
		}
		else if (move == Move.REFUSED) {
			this.metrics.deadLettered(DeadLetterOutcome.REFUSED);
		}
	}

	/**
	 * Moves a leased message of {@code from} to {@code to} as {@code stored}, losing and
	 * duplicating nothing, with what every strategy offers: the copy is pushed first,
	 * held back as a delayed message that no consumer sees; then the lease is completed,
	 * which decides against a late completion or a purge; then the copy is released, or,
	 * if the completion lost, discarded unseen. So the copy's room is taken before the
	 * message leaves its queue: a cap that refuses it leaves the message where it was,
	 * leased to nobody until its lease lapses, then delivered (and tried) again. Only a
	 * move held up between its push and its release for longer than
	 * {@link #HELD_BACK_MILLIS} would let the copy be seen before the completion decided.
	 */
	private Move move(String from, Lease lease, String to, byte[] stored) {
		Message copy;
		try {
			copy = this.core.pushAll(to, List.of(stored), HELD_BACK_MILLIS).get(0);
		}
		catch (CapacityExceededException refused) {
			return Move.REFUSED;
		}
		if (this.core.complete(from, lease.message().id(), lease.delivery()) != Completion.COMPLETED) {
			this.core.discard(to, copy.id());
			return Move.NOT_LEASED;
		}
		this.core.endDelay(to, copy.id());
		this.longPolls.pushedLater(to);
		return Move.MOVED;
	}

	/** What {@link #move} did. */
	private enum Move {

		MOVED,

		/** A cap refused the copy: the message stays where it was. */
		REFUSED,

		/**
		 * The lease was no longer the caller's (completed by an earlier holder since,
		 * purged): nothing moved.
		 */
		NOT_LEASED

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
		checkQueueName(queue);
		if (to != null) {
			checkQueueName(to);
		}
		if (max < 1) {
			throw InvalidRequestException.outOfRange("max", 1, Integer.MAX_VALUE);
		}
		long before = this.core.lastId();
		int moved = 0;
		List<Lease> leased;
		redrive: while (moved < max && !(leased = this.core.lease(queue, Math.min(MAX_BATCH, max - moved))).isEmpty()) {
			for (Lease lease : leased) {
				if (lease.message().id() > before) {
					break redrive; // pushed since the redrive began (one returned by a
									// cap): its lease lapses
				}
				byte[] stored = lease.message().body();
				StoredMessage.DeadLetter origin = StoredMessage.read(stored).deadLetter();
				String target = (to != null) ? to : (origin != null) ? origin.source() : null;
				if (target == null) {
					continue; // not a dead letter and nowhere named: its lease lapses
				}
				if (move(queue, lease, target, StoredMessage.withoutOrigin(stored)) == Move.MOVED) {
					moved++;
				}
			}
		}
		this.metrics.redriven(moved);
		return moved;
	}

	/**
	 * The queue's settings: its lease (its own, or the service's), its delay (its own, or
	 * none), its retention (or none), its dead-letter policy.
	 */
	public QueueSettings settings(String queue) {
		checkQueueName(queue);
		ExplicitQueues.Own own = this.explicit.own(queue);
		if (own == null) {
			own = ExplicitQueues.Own.NONE;
		}
		return new QueueSettings((own.leaseSeconds() != null) ? own.leaseSeconds() : this.leaseSeconds,
				(own.delaySeconds() != null) ? own.delaySeconds() : 0, own.retentionSeconds(), own.deadLetters());
	}

	/**
	 * Creates the queue explicitly (it stays until deleted) or changes its settings (its
	 * own lease, delay, retention and dead-letter policy); fields left out keep their
	 * value.
	 * @return whether this call created it
	 * @throws InvalidRequestException for a setting out of SQS's range or not supported,
	 * a dead-letter queue that does not exist, or is the queue itself
	 * @throws CapacityExceededException if it did not exist and no more queues may be
	 * created ({@code qs.limits.max-queues}, in-process strategies)
	 */
	public boolean configure(String queue, QueueSettings.Change change) {
		checkQueueName(queue);
		if (change.leaseSeconds() != null && (change.leaseSeconds() < 0 || change.leaseSeconds() > MAX_LEASE_SECONDS)) {
			throw InvalidRequestException.outOfRange("leaseSeconds", 0, MAX_LEASE_SECONDS);
		}
		if (change.delaySeconds() != null && (change.delaySeconds() < 0 || change.delaySeconds() > MAX_DELAY_SECONDS)) {
			throw InvalidRequestException.outOfRange("delaySeconds", 0, MAX_DELAY_SECONDS);
		}
		if (change.retentionSeconds() != null && (change.retentionSeconds() < MIN_RETENTION_SECONDS
				|| change.retentionSeconds() > MAX_RETENTION_SECONDS)) {
			throw InvalidRequestException.outOfRange("retentionSeconds", MIN_RETENTION_SECONDS, MAX_RETENTION_SECONDS);
		}
		DeadLetterPolicy policy = change.deadLetters();
		if (policy != null && policy != QueueSettings.Change.REMOVE) {
			checkQueueName(policy.queue());
			if (policy.queue().equals(queue)) {
				throw new InvalidRequestException("Invalid dead-letter queue",
						"A queue cannot be its own dead-letter queue.");
			}
			if (!this.explicit.contains(policy.queue())) {
				throw new InvalidRequestException("Invalid dead-letter queue", "Dead-letter queue '" + policy.queue()
						+ "' does not exist: create it first (PUT /queues/" + policy.queue() + ").");
			}
		}
		return this.explicit.configure(queue, change);
	}

	/** The queues whose dead-letter queue this is, by name. */
	public SortedSet<String> deadLetterSources(String queue) {
		checkQueueName(queue);
		return this.explicit.sources(queue);
	}

	/** Whether a poll would find a message now; leases nothing. */
	public boolean hasReady(String queue) {
		checkQueueName(queue);
		return this.core.hasReady(queue);
	}

	/**
	 * Completes a delivered message by id: only the delivery {@code lease} names, or
	 * whichever is current when it is {@code null}.
	 * @throws InvalidRequestException if {@code lease} is not a token this service hands
	 * out
	 */
	public Completion complete(String queue, long id, String lease) {
		checkQueueName(queue);
		Completion completion = this.core.complete(queue, id, LeaseTokens.delivery(lease, id));
		if (completion == Completion.COMPLETED) {
			this.metrics.completed(1);
		}
		return completion;
	}

	/**
	 * Completes 1 to {@value #MAX_BATCH} messages, each as {@link #complete} would, after
	 * every lease token was checked: one that is not a token refuses the whole batch.
	 * @return each entry's outcome, in order
	 */
	public List<Completion> completeAll(String queue, List<ToComplete> entries) {
		checkQueueName(queue);
		checkBatch(entries.size());
		long[] ids = new long[entries.size()];
		int[] deliveries = new int[entries.size()];
		for (int i = 0; i < deliveries.length; i++) {
			ToComplete entry = entries.get(i);
			ids[i] = entry.id();
			deliveries[i] = LeaseTokens.delivery(entry.lease(), entry.id());
		}
		List<Completion> completions = this.core.completeAll(queue, ids, deliveries);
		int completed = 0;
		for (Completion completion : completions) {
			if (completion == Completion.COMPLETED) {
				completed++;
			}
		}
		this.metrics.completed(completed);
		return completions;
	}

	/**
	 * Up to {@code max} (1 to {@value #MAX_BATCH}) messages from the queue's head with
	 * their state and delivery count, leasing nothing.
	 */
	public List<Peeked> peek(String queue, int max) {
		checkQueueName(queue);
		checkMax(max);
		return this.core.peek(queue, max);
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
		checkQueueName(queue);
		long before = this.core.lastId();
		int ready = 0;
		Removed browsed = new Removed();
		do {
			List<Lease> leased;
			drain: while (!(leased = this.core.lease(queue, MAX_BATCH)).isEmpty()) {
				for (Lease lease : leased) {
					if (this.core.complete(queue, lease.message().id(), lease.delivery()) == Completion.COMPLETED) {
						if (lease.delivery() == 1) {
							ready++;
						}
						else {
							browsed.inFlight++;
						}
					}
				}
				for (Lease lease : leased) {
					if (lease.message().id() > before) {
						break drain; // reached messages pushed since the purge began
					}
				}
			}
		}
		while (discardBrowsed(queue, before, browsed));
		this.metrics.purged(ready + browsed.ready, browsed.inFlight, browsed.delayed);
		return ready + browsed.total();
	}

	/**
	 * Discards what one browse of the queue's head finds with an id up to {@code lastId},
	 * counting each by the state it was browsed in.
	 * @return whether it discarded any
	 */
	private boolean discardBrowsed(String queue, long lastId, Removed removed) {
		boolean any = false;
		for (Peeked peeked : this.core.peek(queue, PURGE_SCAN)) {
			long id = peeked.message().id();
			if (id <= lastId && this.core.discard(queue, id) == Completion.COMPLETED) {
				if (peeked.deliveries() > 0) {
					removed.inFlight++;
				}
				else if (peeked.state() == Peeked.State.DELAYED) {
					removed.delayed++;
				}
				else {
					removed.ready++;
				}
				any = true;
			}
		}
		return any;
	}

	/**
	 * Drops, from every queue with a retention, the messages pushed longer ago than it
	 * (SQS's {@code MessageRetentionPeriod}), whatever their state: a holder of one gets
	 * {@link Completion#NOT_FOUND}. Push times come from a {@link PushTimeline} sampled
	 * here, so a message goes at most a sampling interval (a second, for retentions of a
	 * few hours) after its time, never before; it is found by a browse of its queue's
	 * head (the oldest messages), so one held behind more than {@value #PURGE_SCAN}
	 * younger deliveries waits until it gets nearer the head. Run every second on its own
	 * thread; tests call it after moving the clock.
	 * @return how many messages it dropped
	 */
	public int expire() {
		Map<String, Integer> retentions = this.explicit.retentions();
		if (retentions.isEmpty()) {
			return 0;
		}
		long now = this.clock.millis();
		long longest = TimeUnit.SECONDS.toMillis(Collections.max(retentions.values()));
		this.timeline.sample(now, this.core.lastId(), longest);
		Removed expired = new Removed();
		retentions.forEach((queue, seconds) -> {
			long lastId = this.timeline.lastIdAtOrBefore(now - TimeUnit.SECONDS.toMillis(seconds));
			if (lastId > 0) {
				while (discardBrowsed(queue, lastId, expired)) {
					// until a browse of the head finds none
				}
			}
		});
		this.metrics.expired(expired.ready, expired.inFlight, expired.delayed);
		return expired.total();
	}

	/** Messages removed by a purge or a retention sweep, by their state. */
	private static final class Removed {

		int ready;

		int inFlight;

		int delayed;

		int total() {
			return this.ready + this.inFlight + this.delayed;
		}

	}

	/**
	 * Deletes the queue: forgets that it was created explicitly, then purges it, so that
	 * the core removes it once empty (and its leases with it: a consumer holding one of
	 * its messages gets {@link Completion#NOT_FOUND}).
	 * @return whether it existed (created explicitly, or holding messages)
	 */
	public boolean deleteQueue(String queue) {
		checkQueueName(queue);
		boolean existed = this.explicit.remove(queue) | this.core.queue(queue).isPresent();
		purge(queue);
		return existed;
	}

	/** Whether the queue was created explicitly (it stays until deleted). */
	public boolean isExplicit(String queue) {
		checkQueueName(queue);
		return this.explicit.contains(queue);
	}

	/** Whether the queue was created explicitly or holds messages now. */
	public boolean exists(String queue) {
		checkQueueName(queue);
		return this.explicit.contains(queue) || this.core.queue(queue).isPresent();
	}

	/** Every queue with its ready and in-flight counts, by name. */
	public List<QueueStats> queues() {
		return this.core.queues();
	}

	/** The queue's counts, or nothing if no such queue exists now. */
	public Optional<QueueStats> queue(String name) {
		checkQueueName(name);
		return this.core.queue(name);
	}

	/** Long polls waiting now, by queue; a queue nobody waits on has no entry. */
	public Map<String, Integer> waiting() {
		return this.longPolls.waiting();
	}

	private void counted(List<Lease> leases) {
		if (leases.isEmpty()) {
			this.metrics.emptyPoll();
		}
		else {
			this.metrics.delivered(leases);
		}
	}

	private static void checkQueueName(String name) {
		if (!isQueueName(name)) {
			throw new InvalidRequestException("Invalid queue name",
					"A queue name is 1 to 80 characters of A-Z, a-z, 0-9, '_' and '-'.");
		}
	}

	private static void checkMax(int max) {
		if (max < 1 || max > MAX_BATCH) {
			throw InvalidRequestException.outOfRange("max", 1, MAX_BATCH);
		}
	}

	private static void checkBatch(int entries) {
		if (entries < 1 || entries > MAX_BATCH) {
			throw new InvalidRequestException("Invalid batch",
					"A batch holds 1 to " + MAX_BATCH + " entries; this one holds " + entries + ".");
		}
	}

	@Override
	public void start() {
		this.longPolls.start();
		this.core.onPushes(this::pushedElsewhere);
		this.sweeps = this.retention.scheduleWithFixedDelay(this::expireLogged, 1, 1, TimeUnit.SECONDS);
	}

	/**
	 * Wakes long polls on a queue that another instance pushed to (a store shared by
	 * instances, {@link QueueServiceCore#onPushes}), on the long polls' timer thread: the
	 * store's listener thread must not lease.
	 */
	private void pushedElsewhere(String queue, long delayMillis) {
		if (delayMillis == 0) {
			this.longPolls.pushedLater(queue);
		}
		else {
			this.longPolls.dueIn(queue, Duration.ofMillis(delayMillis));
		}
	}

	private void expireLogged() {
		try {
			expire();
		}
		catch (RuntimeException ex) {
			// the next sweep tries again; an exception would end the schedule
			logger.error("A retention sweep failed", ex);
		}
	}

	/**
	 * Answers every waiting long poll with nothing, so graceful shutdown is not held up
	 * for a whole wait; polls from now on do not wait.
	 */
	@Override
	public void stop() {
		this.longPolls.stop();
		ScheduledFuture<?> sweeping = this.sweeps;
		if (sweeping != null) {
			sweeping.cancel(false);
			this.sweeps = null;
		}
	}

	/**
	 * Whether {@link #start} ran and {@link #stop} did not since: Spring starts a
	 * lifecycle bean only if it is not running.
	 */
	@Override
	public boolean isRunning() {
		return this.sweeps != null;
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
		this.retention.shutdownNow();
		this.longPolls.destroy();
	}

	/**
	 * One entry of a batch completion: the message's id and, optionally, the lease token
	 * of the delivery to complete.
	 */
	public record ToComplete(long id, String lease) {
	}

}
