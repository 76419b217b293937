package io.github.qsbench.application.queues;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;

/**
 * When messages were pushed, known from their ids without a field per message: ids grow
 * with every push, so a sample of the latest id at a time says that every message with
 * that id or a smaller one was pushed at or before that time. Retention uses it to find,
 * for a cut-off time, the largest id it may drop: never a message pushed after the
 * cut-off, and one pushed before it at most one sampling interval late.
 *
 * <p>
 * Samples are taken at most once per interval, which grows with the longest retention so
 * that about {@value #SAMPLES} of them span it (one second for retentions up to a few
 * hours), and dropped once older than that retention: memory stays bounded whatever the
 * retention. Thread safe: one lock, taken by the sampler about once a second and by a
 * sweep once per queue with retention; never by a push.
 */
final class PushTimeline {

	/** About how many samples span the longest retention. */
	static final int SAMPLES = 10_000;

	private static final long MIN_INTERVAL_MILLIS = 1_000;

	/** Samples, oldest first: {@code {timeMillis, lastId}}. */
	private final Deque<long[]> samples = new ArrayDeque<>();

	/**
	 * Records that every message with an id up to {@code lastId} was pushed by
	 * {@code nowMillis}, unless a sample was taken less than an interval ago; drops the
	 * samples that no cut-off within {@code longestRetentionMillis} of now can need (all
	 * but the latest taken at or before the earliest such cut-off).
	 */
	synchronized void sample(long nowMillis, long lastId, long longestRetentionMillis) {
		long interval = Math.max(MIN_INTERVAL_MILLIS, longestRetentionMillis / SAMPLES);
		long[] latest = this.samples.peekLast();
		if (latest == null || nowMillis - latest[0] >= interval) {
			this.samples.addLast(new long[] { nowMillis, lastId });
		}
		while (this.samples.size() > 1) {
			Iterator<long[]> oldest = this.samples.iterator();
			oldest.next();
			if (oldest.next()[0] > nowMillis - longestRetentionMillis) {
				return;
			}
			this.samples.removeFirst();
		}
	}

	/**
	 * The largest id that was surely pushed at or before {@code cutoffMillis}: that of
	 * the latest sample taken by then; 0 if none was.
	 */
	synchronized long lastIdAtOrBefore(long cutoffMillis) {
		long id = 0;
		for (long[] sample : this.samples) {
			if (sample[0] > cutoffMillis) {
				break;
			}
			id = sample[1];
		}
		return id;
	}

	synchronized int size() {
		return this.samples.size();
	}

}
