package io.github.qsbench.application.queues;

import io.github.qsbench.application.QueueNames;
import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A queue's settings as both faces show them: its lease (its own, or the service's
 * {@code qs.lease-timeout}); its delay (its own, or none); its retention ({@code null}:
 * messages stay until completed); its dead-letter policy, {@code null} for none; the
 * largest message it takes (its own, or the service's {@code qs.max-message-size}); its
 * tags, by key (none: empty); a FIFO queue's settings, {@code null} for a standard queue;
 * its recorded settings ({@link ExplicitQueues.Own#recorded}: none, empty); when it was
 * created and when its settings last changed, in epoch seconds ({@code null} for a queue
 * not created explicitly).
 */
public record QueueSettings(long leaseSeconds, int delaySeconds, Integer retentionSeconds, DeadLetterPolicy deadLetters,
		int maxMessageBytes, SortedMap<String, String> tags, FifoSettings fifo, SortedMap<String, String> recorded,
		Long createdSeconds, Long modifiedSeconds) {

	/**
	 * A change of settings, as a {@code PUT} or {@code SetQueueAttributes} asks for it:
	 * {@code null} leaves a setting as it is.
	 *
	 * @param deadLetters the new policy; {@link #REMOVE} removes it
	 * @param tags the tags to set and remove
	 * @param fifo for a queue whose name ends {@value QueueNames#FIFO_SUFFIX}, the FIFO
	 * settings to change (needed to create it: a FIFO queue is created as one); must be
	 * {@code null} for any other
	 * @param recorded recorded settings to set, by name, an empty value removing one (see
	 * {@link ExplicitQueues.Own#recorded}); never {@code null}
	 * @param atSeconds when the change is made, in epoch seconds: set by the application,
	 * {@code null} until then
	 * @param expected recorded settings, by name, that must have these values (empty: not
	 * set) for the change to apply: a compare-and-set, checked atomically with the
	 * change, so that a read-edit-write (SQS's {@code AddPermission}) loses no concurrent
	 * change, through any instance; never {@code null}
	 */
	public record Change(Long leaseSeconds, Integer delaySeconds, Integer retentionSeconds,
			DeadLetterPolicy deadLetters, Integer maxMessageBytes, QueueTags.Change tags, FifoSettings fifo,
			Map<String, String> recorded, Long atSeconds, Map<String, String> expected) {

		public Change {
			recorded = (recorded != null) ? Collections.unmodifiableMap(new TreeMap<>(recorded))
					: Collections.emptyMap();
			expected = (expected != null) ? Collections.unmodifiableMap(new TreeMap<>(expected))
					: Collections.emptyMap();
		}

		/** A change that expects nothing. */
		public Change(Long leaseSeconds, Integer delaySeconds, Integer retentionSeconds, DeadLetterPolicy deadLetters,
				Integer maxMessageBytes, QueueTags.Change tags, FifoSettings fifo, Map<String, String> recorded,
				Long atSeconds) {
			this(leaseSeconds, delaySeconds, retentionSeconds, deadLetters, maxMessageBytes, tags, fifo, recorded,
					atSeconds, null);
		}

		/** A change that records nothing. */
		public Change(Long leaseSeconds, Integer delaySeconds, Integer retentionSeconds, DeadLetterPolicy deadLetters,
				Integer maxMessageBytes, QueueTags.Change tags, FifoSettings fifo) {
			this(leaseSeconds, delaySeconds, retentionSeconds, deadLetters, maxMessageBytes, tags, fifo, null, null);
		}

		/** A change of {@code deadLetters} that removes the policy. */
		public static final DeadLetterPolicy REMOVE = new DeadLetterPolicy("", 1);

		/**
		 * A change that leaves the largest message, the tags and the FIFO settings as
		 * they are.
		 */
		public Change(Long leaseSeconds, Integer delaySeconds, Integer retentionSeconds, DeadLetterPolicy deadLetters) {
			this(leaseSeconds, delaySeconds, retentionSeconds, deadLetters, null, null, null);
		}

		/** A change of the tags alone. */
		public static Change of(QueueTags.Change tags) {
			return new Change(null, null, null, null, null, tags, null);
		}

		/** This change, made at {@code seconds} (epoch seconds). */
		public Change at(long seconds) {
			return new Change(this.leaseSeconds, this.delaySeconds, this.retentionSeconds, this.deadLetters,
					this.maxMessageBytes, this.tags, this.fifo, this.recorded, seconds, this.expected);
		}

		/**
		 * This change, applied only if the recorded setting {@code name} has
		 * {@code value} ({@code null}: is not set).
		 */
		public Change expecting(String name, String value) {
			Map<String, String> expected = new TreeMap<>(this.expected);
			expected.put(name, (value != null) ? value : "");
			return new Change(this.leaseSeconds, this.delaySeconds, this.retentionSeconds, this.deadLetters,
					this.maxMessageBytes, this.tags, this.fifo, this.recorded, this.atSeconds, expected);
		}

		/**
		 * Whether {@code own}'s recorded settings ({@code null}: a queue not created
		 * explicitly) meet {@link #expected}.
		 */
		public boolean expects(ExplicitQueues.Own own) {
			Map<String, String> recorded = (own != null) ? own.recorded() : Map.of();
			for (Map.Entry<String, String> one : this.expected.entrySet()) {
				if (!one.getValue().equals(recorded.getOrDefault(one.getKey(), ""))) {
					return false;
				}
			}
			return true;
		}

		/** Whether it changes more than the tags: what moves a queue's modified time. */
		public boolean changesSettings() {
			return this.leaseSeconds != null || this.delaySeconds != null || this.retentionSeconds != null
					|| this.deadLetters != null || this.maxMessageBytes != null || this.fifo != null
					|| !this.recorded.isEmpty();
		}

	}

	/**
	 * A change not made because a recorded setting it expected ({@link Change#expected})
	 * had changed: read again and retry.
	 */
	public static final class Conflict extends RuntimeException {

		private static final long serialVersionUID = 1L;

		public Conflict(String queue) {
			super("The settings of queue '" + queue + "' changed meanwhile");
		}

	}

}
