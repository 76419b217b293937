package io.github.qsbench.application.queues;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

import io.github.qsbench.application.InvalidRequestException;
import io.github.qsbench.core.CapacityExceededException;

/**
 * Queues created explicitly (a {@code PUT} of their settings, the SQS face's
 * {@code CreateQueue}) and their own settings (lease, delay, retention, dead-letter
 * policy, largest message, tags, recorded settings, creation and modified times): such a
 * queue exists while it is empty, where a queue created by its first push is removed by
 * the core when it empties, and keeps default settings. Only names and settings are kept
 * here, above the core: the messages live in the core's queue of the same name, which
 * comes and goes with them, so no strategy changes. A name goes when its queue is deleted
 * ({@link QueueOperations#deleteQueue}).
 *
 * <p>
 * Where they live follows the core: in this instance's memory for the in-process
 * strategies ({@link InMemoryExplicitQueues}), in Redis for the redis strategy
 * ({@link io.github.qsbench.redis.RedisExplicitQueues}), so that every instance on one
 * Redis serves the same queues with the same settings. {@link #own} is read on every push
 * and lease: both answer it from a map in memory, the Redis one once it has read the
 * queue.
 */
public interface ExplicitQueues {

	/**
	 * What the queue has of its own, {@code null} if it was not created explicitly (its
	 * settings are the service's).
	 */
	Own own(String queue);

	/**
	 * Creates the queue explicitly if it was not, then applies {@code change} to its
	 * settings, all of it or (when refused) nothing, atomically: the cap on tags holds
	 * under concurrent changes.
	 * @return whether this call created it
	 * @throws CapacityExceededException if it was not created and no more may be
	 * @throws InvalidRequestException if the queue would carry more than
	 * {@value QueueTags#MAX_TAGS} tags
	 * @throws QueueSettings.Conflict if a recorded setting the change expects
	 * ({@link QueueSettings.Change#expected}) has another value; nothing changed
	 */
	boolean configure(String queue, QueueSettings.Change change);

	/**
	 * Forgets the queue, its settings and its tags.
	 * @return whether it was created explicitly
	 */
	boolean remove(String queue);

	/** The names, in no order: a copy. */
	Set<String> names();

	/**
	 * Whether {@link #own} would answer from memory, asking the store nothing: always in
	 * process; in a shared store, once the queue's settings are cached.
	 */
	default boolean inMemory(String queue) {
		return true;
	}

	default boolean contains(String queue) {
		return own(queue) != null;
	}

	/** The queue's dead-letter policy, {@code null} if it has none. */
	default DeadLetterPolicy deadLetters(String queue) {
		Own own = own(queue);
		return (own != null) ? own.deadLetters() : null;
	}

	/**
	 * The queue's own lease, {@code null} if it has none (it leases for the service's).
	 */
	default Long leaseSeconds(String queue) {
		Own own = own(queue);
		return (own != null) ? own.leaseSeconds() : null;
	}

	/** The queue's own delay, {@code null} if it has none (no delay). */
	default Integer delaySeconds(String queue) {
		Own own = own(queue);
		return (own != null) ? own.delaySeconds() : null;
	}

	/**
	 * The queue's retention, {@code null} if it has none (messages stay until completed).
	 */
	default Integer retentionSeconds(String queue) {
		Own own = own(queue);
		return (own != null) ? own.retentionSeconds() : null;
	}

	/** The queues that have a retention, with it. */
	default Map<String, Integer> retentions() {
		Map<String, Integer> retentions = new HashMap<>();
		for (String name : names()) {
			Integer retention = retentionSeconds(name);
			if (retention != null) {
				retentions.put(name, retention);
			}
		}
		return retentions;
	}

	/** The queues whose dead-letter queue is {@code queue}, by name. */
	default SortedSet<String> sources(String queue) {
		SortedSet<String> sources = new TreeSet<>();
		for (String name : names()) {
			DeadLetterPolicy policy = deadLetters(name);
			if (policy != null && policy.queue().equals(queue)) {
				sources.add(name);
			}
		}
		return sources;
	}

	/**
	 * What an explicit queue has of its own; {@code null}: the service's. Its tags and
	 * recorded settings are never {@code null}: none is empty.
	 *
	 * @param fifo a FIFO queue's settings, {@code null} for a standard queue
	 * @param recorded settings kept as a face gave them, by name, which the application
	 * acts on not at all: a face answers them back and may act on them itself (SQS's
	 * access policy and encryption settings, which nothing here enforces)
	 * @param createdSeconds when the queue was created explicitly, epoch seconds;
	 * {@code null} if that is not known
	 * @param modifiedSeconds when a change other than of its tags was last made, epoch
	 * seconds; {@code null} if that is not known
	 */
	record Own(DeadLetterPolicy deadLetters, Long leaseSeconds, Integer delaySeconds, Integer retentionSeconds,
			Integer maxMessageBytes, SortedMap<String, String> tags, FifoSettings fifo,
			SortedMap<String, String> recorded, Long createdSeconds, Long modifiedSeconds) {

		/** The settings of an explicit queue that has none of its own. */
		public static final Own NONE = new Own(null, null, null, null);

		public Own {
			tags = (tags != null) ? tags : Collections.emptySortedMap();
			recorded = (recorded != null) ? recorded : Collections.emptySortedMap();
		}

		/** Settings without recorded ones or times. */
		public Own(DeadLetterPolicy deadLetters, Long leaseSeconds, Integer delaySeconds, Integer retentionSeconds,
				Integer maxMessageBytes, SortedMap<String, String> tags, FifoSettings fifo) {
			this(deadLetters, leaseSeconds, delaySeconds, retentionSeconds, maxMessageBytes, tags, fifo, null, null,
					null);
		}

		/** A standard queue's settings without a largest message or tags of their own. */
		public Own(DeadLetterPolicy deadLetters, Long leaseSeconds, Integer delaySeconds, Integer retentionSeconds) {
			this(deadLetters, leaseSeconds, delaySeconds, retentionSeconds, null, null, null);
		}

		/**
		 * These settings with {@code change} applied: what it leaves {@code null} stays,
		 * {@link QueueSettings.Change#REMOVE} removes the dead-letter policy, its tags
		 * and recorded settings are set and removed; its time, if it has one, becomes the
		 * creation time if there is none yet, and the modified time if it changes more
		 * than tags or there is none yet.
		 * @throws InvalidRequestException if the queue would carry more than
		 * {@value QueueTags#MAX_TAGS} tags
		 */
		public Own with(QueueSettings.Change change) {
			DeadLetterPolicy policy = (change.deadLetters() == null) ? this.deadLetters
					: (change.deadLetters() == QueueSettings.Change.REMOVE) ? null : change.deadLetters();
			FifoSettings fifo = (change.fifo() == null) ? this.fifo
					: ((this.fifo != null) ? this.fifo : FifoSettings.DEFAULTS).with(change.fifo());
			return new Own(policy, (change.leaseSeconds() != null) ? change.leaseSeconds() : this.leaseSeconds,
					(change.delaySeconds() != null) ? change.delaySeconds() : this.delaySeconds,
					(change.retentionSeconds() != null) ? change.retentionSeconds() : this.retentionSeconds,
					(change.maxMessageBytes() != null) ? change.maxMessageBytes() : this.maxMessageBytes,
					QueueTags.apply(this.tags, change.tags()), fifo, record(this.recorded, change.recorded()),
					(this.createdSeconds != null) ? this.createdSeconds : change.atSeconds(),
					(change.atSeconds() != null && (change.changesSettings() || this.modifiedSeconds == null))
							? change.atSeconds() : this.modifiedSeconds);
		}

		private static SortedMap<String, String> record(SortedMap<String, String> recorded,
				Map<String, String> change) {
			if (change.isEmpty()) {
				return recorded;
			}
			SortedMap<String, String> changed = new TreeMap<>(recorded);
			change.forEach((name, value) -> {
				if (value.isEmpty()) {
					changed.remove(name);
				}
				else {
					changed.put(name, value);
				}
			});
			return Collections.unmodifiableSortedMap(changed);
		}

	}

}
