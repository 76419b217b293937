package io.github.qsbench.core.lanes;

import org.jctools.queues.MpmcArrayQueue;
import org.jctools.queues.MpmcUnboundedXaddArrayQueue;

import io.github.qsbench.core.QueueOptions;

/**
 * Messages in flight kept apart from ready ones (thesis 5.2.3.1), with JCTools'
 * {@link MpmcUnboundedXaddArrayQueue} as each queue's ready queue: producers claim a slot
 * with one fetch-and-add instead of a compare-and-set loop, messages sit in array chunks
 * instead of one node each, and producer and consumer indexes live on cache lines of
 * their own. Exactly-once, as {@link AbstractSplitQS} explains.
 *
 * <p>
 * Why not the bounded {@link MpmcArrayQueue}: its ring is allocated whole up front, and
 * the one bound that matters is already kept by the caps, charged until a message leaves
 * memory (ready, in flight, or completed behind one in flight, which a ring of ready
 * messages does not see). A ring sized from {@code qs.limits.max-messages-per-queue} (a
 * million by default) would cost 4 MB per queue, up to 10,000 queues; a smaller one would
 * refuse pushes the caps allow. The unbounded queue grows and shrinks by chunks of
 * {@value #CHUNK} slots and keeps {@value #POOLED_CHUNKS} spare chunks, so the caps stay
 * the only bound and a short queue costs one chunk.
 *
 * <p>
 * The price of the fetch-and-add: a consumer whose slot was claimed by a producer that
 * has not yet written it waits for that write (JCTools' {@code poll} spins there), so a
 * producer descheduled at that instant holds up that queue's consumers; the
 * {@link SplitConcurrentQS} never waits.
 */
public final class SplitJCToolsQS extends AbstractSplitQS {

	static final int CHUNK = 128;

	static final int POOLED_CHUNKS = 2;

	public SplitJCToolsQS(QueueOptions options) {
		super(() -> new MpmcUnboundedXaddArrayQueue<>(CHUNK, POOLED_CHUNKS), options);
	}

}
