package io.github.qsbench.core;

/** A queue's name and how many of its messages are ready and in flight at one moment. */
public record QueueStats(String name, int ready, int inflight) {
}
