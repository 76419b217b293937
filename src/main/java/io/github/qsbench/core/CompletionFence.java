package io.github.qsbench.core;

/**
 * What a fenced completion ({@link QueueServiceCore#completeFenced}) checks in the same
 * atomic step as it completes the message: that the caller still has the right to
 * complete it, by a record kept beside the queue, in the same place as its messages (such
 * as a message move task's owner and the moves its batch recorded). Opaque here: made by
 * the code that keeps the record, for the core that can read it there, and only passed on
 * by the caller; an in-process core is never given one.
 */
public interface CompletionFence {

}
