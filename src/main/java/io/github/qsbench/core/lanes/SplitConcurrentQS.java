package io.github.qsbench.core.lanes;

import java.util.concurrent.ConcurrentLinkedQueue;

import io.github.qsbench.core.QueueOptions;

/**
 * Messages in flight kept apart from ready ones (thesis 5.2.3.1), with a
 * {@link ConcurrentLinkedQueue} as each queue's ready queue: lock-free throughout, and
 * exactly-once because the ready queue hands each message to one consumer and a
 * compare-and-set on the message decides every later delivery (see
 * {@link AbstractSplitQS}).
 */
public final class SplitConcurrentQS extends AbstractSplitQS {

	public SplitConcurrentQS(QueueOptions options) {
		super(ConcurrentLinkedQueue::new, options);
	}

}
