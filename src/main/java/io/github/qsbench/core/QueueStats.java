package io.github.qsbench.core;

/**
 * A queue's name and how many of its messages are ready, in flight and delayed (pushed
 * with a delay that has not passed) at one moment.
 */
public record QueueStats(String name, int ready, int inflight, int delayed) {

	/** A queue holding no delayed message. */
	public QueueStats(String name, int ready, int inflight) {
		this(name, ready, inflight, 0);
	}

}
