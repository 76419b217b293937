package io.github.qsbench.application.fifo;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.github.qsbench.application.Received;
import io.github.qsbench.application.Sent;

/**
 * FIFO queues' sequence numbers, deduplication ids and receive attempts in this
 * instance's memory (see {@link FifoState}), guarded by each queue's monitor. A claim
 * only reads: the sequence and the ids move when the send {@link #settle settles}, so a
 * failed push uses no sequence number, and no send is ever {@link #PENDING}; a receive
 * attempt is pending while its first receive runs.
 */
public final class InMemoryFifoState implements FifoState {

	private final Map<String, Queue> queues = new ConcurrentHashMap<>();

	@Override
	public Claim claim(String queue, List<String> keys, long nowMillis) {
		Queue fifo = this.queues.computeIfAbsent(queue, name -> new Queue());
		synchronized (fifo) {
			fifo.forgetBefore(nowMillis);
			List<Sent> found = new ArrayList<>(keys.size());
			for (String key : keys) {
				Deduplicated original = fifo.deduplication.get(key);
				found.add((original != null) ? original.sent : null);
			}
			return new Claim(found, fifo.lastSequence + 1);
		}
	}

	@Override
	public void settle(String queue, List<String> keys, List<Sent> sent, long sentMillis) {
		Queue fifo = this.queues.computeIfAbsent(queue, name -> new Queue());
		synchronized (fifo) {
			for (int i = 0; i < keys.size(); i++) {
				Sent one = sent.get(i);
				if (one != null) {
					fifo.deduplication.put(keys.get(i), new Deduplicated(one, sentMillis));
					fifo.lastSequence = Math.max(fifo.lastSequence, one.sequenceNumber());
				}
			}
		}
	}

	@Override
	public List<Received> attempted(String queue, String attemptId, long nowMillis, long pendingUntilMillis) {
		Queue fifo = this.queues.computeIfAbsent(queue, name -> new Queue());
		synchronized (fifo) {
			fifo.forgetBefore(nowMillis);
			Attempt attempt = fifo.attempts.get(attemptId);
			if (attempt != null) {
				return attempt.received;
			}
			Long pending = fifo.pendingAttempts.get(attemptId);
			if (pending != null && pending > nowMillis) {
				return ATTEMPT_PENDING;
			}
			fifo.pendingAttempts.put(attemptId, pendingUntilMillis);
			return null;
		}
	}

	@Override
	public void attempt(String queue, String attemptId, List<Received> received, long atMillis) {
		Queue fifo = this.queues.computeIfAbsent(queue, name -> new Queue());
		synchronized (fifo) {
			fifo.pendingAttempts.remove(attemptId);
			fifo.attempts.put(attemptId, new Attempt(received, atMillis));
		}
	}

	@Override
	public void dropAttempt(String queue, String attemptId) {
		Queue fifo = this.queues.get(queue);
		if (fifo != null) {
			synchronized (fifo) {
				fifo.pendingAttempts.remove(attemptId);
			}
		}
	}

	@Override
	public void forget(String queue) {
		this.queues.remove(queue);
	}

	private record Deduplicated(Sent sent, long sentMillis) {
	}

	private record Attempt(List<Received> received, long atMillis) {
	}

	/** One FIFO queue's state, guarded by its monitor. */
	private static final class Queue {

		/** Deduplication keys in send order, so the oldest expire first. */
		final LinkedHashMap<String, Deduplicated> deduplication = new LinkedHashMap<>();

		/** Receive attempts by id, oldest first. */
		final LinkedHashMap<String, Attempt> attempts = new LinkedHashMap<>();

		/**
		 * Receive attempts pending (their receive has not answered), by id: until when.
		 */
		final Map<String, Long> pendingAttempts = new java.util.HashMap<>();

		long lastSequence;

		void forgetBefore(long nowMillis) {
			Iterator<Deduplicated> oldest = this.deduplication.values().iterator();
			while (oldest.hasNext() && oldest.next().sentMillis <= nowMillis - FifoQueues.DEDUPLICATION_MILLIS) {
				oldest.remove();
			}
			Iterator<Attempt> attempt = this.attempts.values().iterator();
			while (attempt.hasNext() && attempt.next().atMillis <= nowMillis - FifoQueues.DEDUPLICATION_MILLIS) {
				attempt.remove();
			}
		}

	}

}
