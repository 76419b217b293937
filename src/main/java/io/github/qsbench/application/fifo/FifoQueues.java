package io.github.qsbench.application.fifo;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
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
import io.github.qsbench.core.CapacityExceededException;
import io.github.qsbench.core.Message;
import io.github.qsbench.core.QueueServiceCore;

/**
 * FIFO queues, written once above the core on what every strategy offers (a push held as
 * a delayed message, {@link QueueServiceCore#endDelay}), so that no strategy changes and
 * the thesis's benchmark measures what it did.
 *
 * <p>
 * The invariant, per queue and message group: the group's messages in the core are kept
 * in {@link FifoGroups} in the order they were sent, and only the first of them (the
 * group's head) can be delivered; every message is pushed held in the core (delayed for
 * {@link #HOLD_MILLIS}) and released ({@link QueueServiceCore#endDelay}) when it becomes
 * its group's head: at once if its group had no message, else when the head before it
 * leaves the queue ({@link #left}: completed, moved to a dead-letter queue, purged,
 * expired). So while a message of a group is in flight no other of that group is
 * delivered, and a group's messages are delivered in the order they were sent; a lapsed
 * lease makes the head ready again, still first. Receives take from other groups
 * meanwhile, and from one group at most its head. Each step on the groups is atomic in
 * their store, which is Redis for the redis strategy: the rule holds across instances.
 *
 * <p>
 * Sends to a queue through this instance are serialised by the queue's monitor here:
 * sequence numbers follow send order, and a deduplication id seen within
 * {@link #DEDUPLICATION_MILLIS} answers the original's id and sequence number without a
 * push; a receive retried with its attempt id within that time gets what the first
 * delivered ({@link #attempted}). Sequence numbers, deduplication ids and attempts are
 * this instance's (on Redis, each instance's own).
 */
final class FifoQueues implements Departures {

	/** How long a message behind its group's head is held: until released, in effect. */
	static final long HOLD_MILLIS = TimeUnit.DAYS.toMillis(365);

	/** SQS's deduplication interval, and how long a receive attempt is remembered. */
	static final long DEDUPLICATION_MILLIS = TimeUnit.MINUTES.toMillis(5);

	private final QueueServiceCore core;

	private final InstantSource clock;

	private final FifoGroups groups;

	/** How a head is released after the queue's delay. */
	private final Later later;

	private final Map<String, FifoQueue> queues = new ConcurrentHashMap<>();

	FifoQueues(QueueServiceCore core, FifoGroups groups, InstantSource clock, Later later) {
		this.core = core;
		this.groups = groups;
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
		FifoQueue fifo = this.queues.computeIfAbsent(queue, name -> new FifoQueue());
		synchronized (fifo) {
			long now = this.clock.millis();
			fifo.forgetBefore(now);
			Sent[] answers = new Sent[identified.size()];
			Map<String, Integer> firstOfKey = new HashMap<>();
			List<Integer> entries = new ArrayList<>();
			List<byte[]> stored = new ArrayList<>();
			long[] sequences = new long[identified.size()];
			long sequence = fifo.lastSequence;
			for (int i = 0; i < identified.size(); i++) {
				Deduplicated original = fifo.deduplication.get(keys.get(i));
				if (original != null) {
					answers[i] = new Sent(original.id, original.sequenceNumber);
				}
				else if (firstOfKey.putIfAbsent(keys.get(i), i) == null) {
					sequences[i] = ++sequence;
					entries.add(i);
					stored.add(StoredMessage.encode(identified.get(i), now, sequence, maxBytes));
				}
			}
			List<Message> pushed = stored.isEmpty() ? List.of() : this.core.pushAll(queue, stored, HOLD_MILLIS);
			fifo.lastSequence = sequence;
			boolean readyNow = false;
			for (int j = 0; j < entries.size(); j++) {
				int i = entries.get(j);
				long id = pushed.get(j).id();
				answers[i] = new Sent(id, sequences[i]);
				fifo.deduplication.put(keys.get(i), new Deduplicated(id, sequences[i], now));
				if (this.groups.append(queue, identified.get(i).group(), id)) {
					readyNow |= releaseHead(queue, id, delayMillis);
				}
			}
			for (int i = 0; i < answers.length; i++) {
				if (answers[i] == null) { // a duplicate of an earlier entry of this batch
					answers[i] = answers[firstOfKey.get(keys.get(i))];
				}
			}
			return new Sending(List.of(answers), readyNow, pushed.size());
		}
	}

	/**
	 * Releases a group's new head: now, or after the queue's delay.
	 * @return whether it is ready now
	 */
	private boolean releaseHead(String queue, long id, long delayMillis) {
		if (delayMillis == 0) {
			return this.core.endDelay(queue, id);
		}
		this.later.run(queue, delayMillis, () -> this.core.endDelay(queue, id));
		return false;
	}

	/**
	 * Admits a message moved into the FIFO queue (from a dead-letter queue, or into one),
	 * held there by the mover: it joins its group's order, and is released if it is the
	 * group's head.
	 * @return whether it was released
	 */
	boolean admit(String queue, long id, String group) {
		return this.groups.append(queue, group, id) && this.core.endDelay(queue, id);
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
		long next = this.groups.remove(queue, id);
		while (next > 0) {
			if (this.core.endDelay(queue, next)) {
				return true;
			}
			next = this.groups.remove(queue, next); // gone meanwhile: the one after it
		}
		return false;
	}

	/**
	 * What a receive with this attempt id delivered within the last
	 * {@link #DEDUPLICATION_MILLIS}, for a retried receive to get again; {@code null} if
	 * none.
	 */
	List<Received> attempted(String queue, String attemptId) {
		FifoQueue fifo = this.queues.get(queue);
		if (fifo == null) {
			return null;
		}
		synchronized (fifo) {
			fifo.forgetBefore(this.clock.millis());
			Attempt attempt = fifo.attempts.get(attemptId);
			return (attempt != null) ? attempt.received : null;
		}
	}

	/** Remembers what a receive with this attempt id delivered. */
	void attempt(String queue, String attemptId, List<Received> received) {
		FifoQueue fifo = this.queues.computeIfAbsent(queue, name -> new FifoQueue());
		synchronized (fifo) {
			fifo.attempts.put(attemptId, new Attempt(received, this.clock.millis()));
		}
	}

	/** Forgets a deleted queue: its groups, deduplication ids and sequence. */
	void forget(String queue) {
		this.queues.remove(queue);
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

	private record Deduplicated(long id, long sequenceNumber, long sentMillis) {
	}

	private record Attempt(List<Received> received, long atMillis) {
	}

	/** One FIFO queue's state, guarded by its monitor. */
	private static final class FifoQueue {

		/** Deduplication keys in send order, so the oldest expire first. */
		final LinkedHashMap<String, Deduplicated> deduplication = new LinkedHashMap<>();

		/** Receive attempts by id, oldest first. */
		final LinkedHashMap<String, Attempt> attempts = new LinkedHashMap<>();

		long lastSequence;

		void forgetBefore(long nowMillis) {
			Iterator<Deduplicated> oldest = this.deduplication.values().iterator();
			while (oldest.hasNext() && oldest.next().sentMillis <= nowMillis - DEDUPLICATION_MILLIS) {
				oldest.remove();
			}
			Iterator<Attempt> attempt = this.attempts.values().iterator();
			while (attempt.hasNext() && attempt.next().atMillis <= nowMillis - DEDUPLICATION_MILLIS) {
				attempt.remove();
			}
		}

	}

}
