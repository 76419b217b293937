package io.github.qsbench.core.lanes;

import io.github.qsbench.core.Completion;
import io.github.qsbench.core.shared.CompletableMessage;
import io.github.qsbench.core.shared.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A message of {@link AbstractSplitQS}: ready messages wait in a queue that hands each to
 * one consumer, so the one race left on a message is between a redelivery and a
 * completion of the same delivery, decided by compare-and-set of one int holding its
 * delivery count and whether it is completed (no allocation per change).
 *
 * <p>
 * Nothing else: 32 bytes per message. What a delivery needs besides (its lease's expiry,
 * who may move its record) lives in a {@link SplitDelivery}, made when the message is
 * delivered, so a backlog of messages never delivered costs the garbage collector no more
 * than its messages.
 */
public final class SplitMessage implements CompletableMessage {

	private static final int COMPLETED = 1;

	private static final VarHandle STATE = VarHandles.field(MethodHandles.lookup(), "state", int.class);

	private final long id;

	/**
	 * The queue's own instance of its name once queued (shared by its messages): the
	 * index is one for all queues, so a completion checks that the message is in the
	 * queue it names.
	 */
	private String queue;

	/**
	 * The body's UTF-8 bytes, as in
	 * {@link io.github.qsbench.core.thesis.AbstractMessage}.
	 */
	private final byte[] body;

	/** Deliveries so far, shifted left by one, or'ed with {@link #COMPLETED}. */
	private volatile int state;

	public SplitMessage(long id, String queue, byte[] body) {
		this.id = id;
		this.queue = queue;
		this.body = body;
	}

	@Override
	public long id() {
		return this.id;
	}

	String queue() {
		return this.queue;
	}

	@Override
	public byte[] body() {
		return this.body;
	}

	void queuedIn(String queueName) {
		this.queue = queueName;
	}

	@Override
	public int deliveries() {
		return this.state >>> 1;
	}

	@Override
	public boolean isCompleted() {
		return (this.state & COMPLETED) != 0;
	}

	/**
	 * The first delivery, by the one consumer a ready queue handed the message to (nobody
	 * else can deliver it), unless it was discarded while it waited there: a
	 * compare-and-set against {@link #discard()}, uncontended but for that.
	 * @return {@code false} if it was discarded
	 */
	public boolean deliverFirst() {
		return STATE.compareAndSet(this, 0, 1 << 1);
	}

	/**
	 * Completes the message whatever its state (ready, delayed, in flight), as a purge
	 * does; decided against a delivery or a completion by the same compare-and-set.
	 * @return how often it had been delivered, or -1 if it was completed already
	 */
	@Override
	public int discard() {
		while (true) {
			int current = this.state;
			if ((current & COMPLETED) != 0) {
				return -1;
			}
			if (STATE.compareAndSet(this, current, current | COMPLETED)) {
				return current >>> 1;
			}
		}
	}

	/**
	 * Delivers the message once more (or, delayed, for the first time: {@code delivery}
	 * 0), by the claimer of its expired record, unless it was completed meanwhile (then
	 * the completion won and the caller drops it).
	 */
	public boolean redeliver(int delivery) {
		return STATE.compareAndSet(this, delivery << 1, (delivery + 1) << 1);
	}

	/** Takes no lock: a compare-and-set of the word a redelivery changes too. */
	@Override
	public Completion complete(int delivery) {
		while (true) {
			int current = this.state;
			Completion verdict = Completion.decide((current & COMPLETED) != 0, current >>> 1, delivery);
			if (verdict != Completion.COMPLETED || STATE.compareAndSet(this, current, current | COMPLETED)) {
				return verdict;
			}
		}
	}

}
