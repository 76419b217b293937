package io.github.qsbench.application.fifo;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.github.qsbench.application.Departures;
import io.github.qsbench.application.InvalidRequestException;
import io.github.qsbench.application.OutgoingMessage;
import io.github.qsbench.application.Received;
import io.github.qsbench.application.Sent;
import io.github.qsbench.application.StoredMessage;
import io.github.qsbench.application.queues.FifoSettings;
import io.github.qsbench.core.ByIdOperation;
import io.github.qsbench.core.CapacityExceededException;
import io.github.qsbench.core.Message;
import io.github.qsbench.core.QueueServiceCore;

/**
 * FIFO queues, written once above the core on what every strategy offers (a push held as
 * a delayed message, {@link ByIdOperation#END_DELAY}), so that no strategy changes and
 * the thesis's benchmark measures what it did.
 *
 * <p>
 * The invariant, per queue and message group: the group's messages in the core are kept
 * in {@link FifoGroups} in the order they were sent, and only the first of them (the
 * group's head) can be delivered; every message is pushed held in the core (delayed for
 * {@link #HOLD_MILLIS}) and released ({@link ByIdOperation#END_DELAY}) when it becomes
 * its group's head: at once if its group had no message, else when the head before it
 * leaves the queue ({@link #left}: completed, moved to a dead-letter queue, purged,
 * expired). So while a message of a group is in flight no other of that group is
 * delivered, and a group's messages are delivered in the order they were sent; a lapsed
 * lease makes the head ready again, still first. Receives take from other groups
 * meanwhile, and from one group at most its head. Each step on the groups is atomic in
 * their store, which is Redis for the redis strategy: the rule holds across instances.
 *
 * <p>
 * Sends to a queue through this instance are serialised by the queue's monitor here; the
 * sequence numbers, deduplication ids and receive attempts are kept in {@link FifoState},
 * the groups' store's ({@link FifoGroups#state}): in memory, or in Redis, shared by every
 * instance. A send claims its deduplication ids there before it pushes and settles them
 * after, so a deduplication id seen within {@link #DEDUPLICATION_MILLIS}, through any
 * instance sharing the state, answers the original's id and sequence number without a
 * push, and a send that finds an id another instance is sending waits for that send's
 * answer. Sequence numbers grow in claim order. A receive retried with its attempt id
 * within that time gets what the first delivered ({@link #attempted}).
 *
 * <p>
 * Where instances share the store ({@link FifoGroups#sends}: Redis), an instance can die
 * between a send's push and its messages' joining their groups, which would leave them
 * held for {@link #HOLD_MILLIS}. So a send there records its messages' ids before it
 * pushes them and commits them after, in one atomic step: answered, appended to their
 * groups, records forgotten ({@link FifoSends}); another instance settles a send its
 * death cut ({@link FifoSettlement}) by discarding its messages, which nobody was
 * answered. In memory nothing is recorded: a send settles its claims, then appends.
 *
 * <p>
 * For the same reason, where instances share the store ({@link FifoGroups#heads}: Redis),
 * the step that makes a message its group's head (a send's commit, the removal of the
 * head before it, the admission of a moved message) releases it too, after the queue's
 * delay by the service's clock for a send: no release of this instance's, nor a timer in
 * its memory, that its death could cut and so leave the group blocked for
 * {@link #HOLD_MILLIS}. In memory this releases the new head after that step.
 */
final class FifoQueues implements Departures {

	/** How long a message behind its group's head is held: until released, in effect. */
	static final long HOLD_MILLIS = TimeUnit.DAYS.toMillis(365);

	/** SQS's deduplication interval, and how long a receive attempt is remembered. */
	static final long DEDUPLICATION_MILLIS = TimeUnit.MINUTES.toMillis(5);

	/** How long a send waits for another instance's send of the same deduplication id. */
	static final long PENDING_WAIT_MILLIS = 15_000;

	private final QueueServiceCore core;

	private final InstantSource clock;

	private final FifoGroups groups;

	/** How a head is released after the queue's delay. */
	private final Later later;

	private final FifoState state;

	/** Where sends in progress are recorded, or {@code null}: in process. */
	private final FifoSends sends;

	/**
	 * Where a new head is released in the step that makes it the head, or {@code null}:
	 * in process, where this releases it after that step.
	 */
	private final FifoHeads heads;

	/** Each queue's monitor, which serialises its sends through this instance. */
	private final Map<String, Object> monitors = new ConcurrentHashMap<>();

	FifoQueues(QueueServiceCore core, FifoGroups groups, InstantSource clock, Later later) {
		this.core = core;
		this.groups = groups;
		this.state = groups.state();
		this.sends = groups.sends();
		this.heads = groups.heads();
		this.clock = clock;
		this.later = later;
	}

	/** Runs a task for a queue after a delay. */
	@FunctionalInterface
	interface Later {

		void run(String queue, long delayMillis, Runnable task);

	}

	/**
	 * Sends {@code messages} to the FIFO queue in order, all or none: each a duplicate
	 * within the window answered as the original, each other one pushed held, then put at
	 * the end of its group, and released if it is its group's head: now, or after
	 * {@code delayMillis} (the queue's delay).
	 * @return the answers, in order, and whether a message became ready now
	 * @throws InvalidRequestException for a message without a group, or without a
	 * deduplication id on a queue that does not deduplicate by content
	 * @throws CapacityExceededException if a cap is reached; nothing was sent
	 */
	Sending send(String queue, FifoSettings settings, List<OutgoingMessage> messages, long delayMillis, int maxBytes) {
		List<OutgoingMessage> identified = new ArrayList<>(messages.size());
		List<String> keys = new ArrayList<>(messages.size());
		for (OutgoingMessage message : messages) {
			OutgoingMessage one = identified(settings, message);
			identified.add(one);
			keys.add(settings.perGroup() ? one.group() + '\u0000' + one.deduplicationId() : one.deduplicationId());
		}
		Map<String, Integer> firstOfKey = new HashMap<>();
		List<String> distinct = new ArrayList<>();
		for (int i = 0; i < keys.size(); i++) {
			if (firstOfKey.putIfAbsent(keys.get(i), i) == null) {
				distinct.add(keys.get(i));
			}
		}
		synchronized (this.monitors.computeIfAbsent(queue, name -> new Object())) {
			long now = this.clock.millis();
			FifoSends.Claimed claiming = claim(queue, distinct);
			FifoState.Claim claim = claiming.claim();
			long firstId = claiming.firstId();
			Map<String, Sent> answerOf = new HashMap<>();
			List<String> claimed = new ArrayList<>();
			List<String> groupOf = new ArrayList<>();
			List<Long> sequences = new ArrayList<>();
			List<byte[]> stored = new ArrayList<>();
			long sequence = claim.firstSequence() - 1;
			for (int k = 0; k < distinct.size(); k++) {
				Sent original = claim.found().get(k);
				if (original != null) {
					answerOf.put(distinct.get(k), original);
					continue;
				}
				claimed.add(distinct.get(k));
				groupOf.add(identified.get(firstOfKey.get(distinct.get(k))).group());
				sequences.add(++sequence);
				stored.add(
						StoredMessage.encode(identified.get(firstOfKey.get(distinct.get(k))), now, sequence, maxBytes));
			}
			List<Message> pushed;
			try {
				if (stored.isEmpty()) {
					pushed = List.of();
				}
				else if (firstId > 0) {
					pushed = this.core.pushAs(queue, firstId, stored, HOLD_MILLIS);
				}
				else {
					pushed = this.core.pushAll(queue, stored, HOLD_MILLIS);
				}
			}
			catch (RuntimeException ex) {
				if (firstId > 0 && ex instanceof CapacityExceededException) {
					// nothing was pushed: no message for a settlement to discard
					this.sends.forget(queue, ids(firstId, stored.size()));
				}
				this.state.settle(queue, claimed, Arrays.asList(new Sent[claimed.size()]), now);
				throw ex;
			}
			List<Sent> sent = new ArrayList<>(claimed.size());
			for (int j = 0; j < claimed.size(); j++) {
				Sent one = new Sent(pushed.get(j).id(), sequences.get(j));
				sent.add(one);
				answerOf.put(claimed.get(j), one);
			}
			boolean readyNow = false;
			if (firstId > 0) {
				// the commit releases its new heads itself (FifoSends#commit)
				boolean[] heads = commit(queue, claimed, sent, groupOf, now, delayMillis);
				for (boolean head : heads) {
					readyNow |= head && delayMillis == 0;
				}
			}
			else {
				if (!claimed.isEmpty()) {
					this.state.settle(queue, claimed, sent, now);
				}
				for (int j = 0; j < claimed.size(); j++) {
					readyNow |= append(queue, groupOf.get(j), sent.get(j).id(), delayMillis);
				}
			}
			List<Sent> answers = new ArrayList<>(keys.size());
			for (String key : keys) {
				answers.add(answerOf.get(key));
			}
			return new Sending(List.copyOf(answers), readyNow, pushed.size());
		}
	}

	/**
	 * Commits a recorded send's messages ({@link FifoSends#commit}): answered, in their
	 * groups, records forgotten. A send that took longer than the bound may have been
	 * settled already: its messages are discarded, never answered.
	 * @return per message whether it is its group's head
	 * @throws IllegalStateException if the send took longer than the bound
	 */
	private boolean[] commit(String queue, List<String> keys, List<Sent> sent, List<String> groups, long now,
			long delayMillis) {
		boolean[] heads = this.sends.commit(queue, keys, sent, groups, now, this.clock.millis(), delayMillis);
		if (heads == null) {
			this.core.discardAll(queue, sent.stream().mapToLong(Sent::id).toArray());
			throw new IllegalStateException("A send to queue '" + queue + "' took longer than "
					+ this.sends.boundMillis() + " ms and was undone: try again");
		}
		return heads;
	}

	private static List<Long> ids(long first, int count) {
		List<Long> ids = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			ids.add(first + i);
		}
		return ids;
	}

	/**
	 * Claims the keys, waiting while another instance's send holds one of them: its
	 * answer comes once it settles, or its claim lapses. Where sends are recorded, the
	 * claim records the messages of the keys it claims ({@link FifoSends#claim}).
	 * @throws IllegalStateException if a key stays pending past
	 * {@link #PENDING_WAIT_MILLIS}
	 */
	private FifoSends.Claimed claim(String queue, List<String> keys) {
		long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PENDING_WAIT_MILLIS);
		while (true) {
			long at = this.clock.millis();
			FifoSends.Claimed claim = (this.sends != null) ? this.sends.claim(queue, keys, at)
					: new FifoSends.Claimed(this.state.claim(queue, keys, at), 0);
			if (!claim.claim().found().contains(FifoState.PENDING)) {
				return claim;
			}
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException(
						"A deduplication id of queue '" + queue + "' stays claimed by another send: try again");
			}
			try {
				Thread.sleep(5);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("interrupted while another send held a deduplication id", ex);
			}
		}
	}

	/**
	 * Puts a message at the end of its group and releases it if it is the group's head:
	 * now, or after the queue's delay; in the same step where the groups' store does it
	 * ({@link FifoHeads}), else after it.
	 * @return whether it is ready now
	 */
	private boolean append(String queue, String group, long id, long delayMillis) {
		if (this.heads != null) {
			return this.heads.append(queue, group, id, this.clock.millis(), delayMillis) && delayMillis == 0;
		}
		return this.groups.append(queue, group, id) && releaseHead(queue, id, delayMillis);
	}

	/**
	 * Releases a group's new head: now, or after the queue's delay.
	 * @return whether it is ready now
	 */
	private boolean releaseHead(String queue, long id, long delayMillis) {
		if (delayMillis == 0) {
			return this.core.byId(queue, id, ByIdOperation.END_DELAY).done();
		}
		this.later.run(queue, delayMillis, () -> this.core.byId(queue, id, ByIdOperation.END_DELAY).done());
		return false;
	}

	/**
	 * Admits a message moved into the FIFO queue (from a dead-letter queue, or into one),
	 * held there by the mover: it joins its group's order, and is released if it is the
	 * group's head.
	 * @return whether it was released
	 */
	boolean admit(String queue, long id, String group) {
		return append(queue, group, id, 0);
	}

	/**
	 * Follows a message that left a FIFO queue: if it was its group's head, the next
	 * message of the group still in the queue is released.
	 */
	@Override
	public void left(String queue, long id) {
		release(queue, id);
	}

	/**
	 * As {@link #left}.
	 * @return whether a message was released
	 */
	boolean release(String queue, long id) {
		if (this.heads != null) {
			return this.heads.remove(queue, id, this.clock.millis()) > 0;
		}
		long next = this.groups.remove(queue, id);
		while (next > 0) {
			if (this.core.byId(queue, next, ByIdOperation.END_DELAY).done()) {
				return true;
			}
			next = this.groups.remove(queue, next); // gone meanwhile: the one after it
		}
		return false;
	}

	/**
	 * What a receive with this attempt id delivered within the last
	 * {@link #DEDUPLICATION_MILLIS}, for a retried receive to get again; {@code null} if
	 * none, in which case the attempt is now pending (for {@code pendingMillis}) until
	 * the caller {@link #attempt remembers} or {@link #dropAttempt drops} it. While
	 * another receive holds it pending, waits for its answer (or for its marker to
	 * lapse).
	 */
	List<Received> attempted(String queue, String attemptId, long pendingMillis) {
		long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(pendingMillis + PENDING_WAIT_MILLIS);
		while (true) {
			long now = this.clock.millis();
			List<Received> attempted = this.state.attempted(queue, attemptId, now, now + pendingMillis);
			if (attempted != FifoState.ATTEMPT_PENDING) {
				return attempted;
			}
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException(
						"A receive with this attempt id on queue '" + queue + "' has not answered: try again");
			}
			try {
				Thread.sleep(5);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("interrupted while another receive held the attempt id", ex);
			}
		}
	}

	/** Drops the pending marker of a receive attempt that delivered nothing or failed. */
	void dropAttempt(String queue, String attemptId) {
		this.state.dropAttempt(queue, attemptId);
	}

	/** Remembers what a receive with this attempt id delivered. */
	void attempt(String queue, String attemptId, List<Received> received) {
		this.state.attempt(queue, attemptId, received, this.clock.millis());
	}

	/** Forgets a deleted queue: its groups, deduplication ids and sequence. */
	void forget(String queue) {
		this.monitors.remove(queue);
		this.state.forget(queue);
		this.groups.forget(queue);
	}

	/**
	 * The message with the deduplication id it is deduplicated by: its own, or its body's
	 * SHA-256 on a queue that deduplicates by content (within its group for the
	 * {@link FifoSettings#MESSAGE_GROUP} scope).
	 */
	private static OutgoingMessage identified(FifoSettings settings, OutgoingMessage message) {
		if (message.group() == null || message.group().isEmpty()) {
			throw new InvalidRequestException("Message group required",
					"A message sent to a FIFO queue needs a message group (MessageGroupId).");
		}
		String id = message.deduplicationId();
		if (id == null) {
			if (!settings.contentBasedDeduplication()) {
				throw new InvalidRequestException("Deduplication id required",
						"The queue does not deduplicate by content: a message needs a deduplication id "
								+ "(MessageDeduplicationId), or the queue ContentBasedDeduplication.");
			}
			return message.withDeduplicationId(sha256(message.body()));
		}
		return message;
	}

	/** A body's SHA-256 in hex, the deduplication id content-based deduplication uses. */
	static String sha256(byte[] body) {
		try {
			return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("Every JDK has SHA-256", ex);
		}
	}

	/** What a send answers: one per message, and what the caller wakes and counts. */
	record Sending(List<Sent> sent, boolean readyNow, int pushed) {
	}

}
