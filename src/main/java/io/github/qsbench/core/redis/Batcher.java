package io.github.qsbench.core.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;

import io.github.qsbench.core.CapacityExceededException;

/**
 * Runs the calls that threads make at the same time as one batch ("smart batching"): a
 * caller that finds no batch running runs every call waiting, its own among them, as one
 * batch; calls that arrive meanwhile wait, and when the batch is done the oldest of them
 * runs the next batch for all that wait then. No timer: a lone call runs at once, and a
 * batch is what arrived while the one before it ran, so batches grow with the load and
 * the callers share one round trip instead of queueing each their own.
 *
 * <p>
 * Invariants: only the thread holding {@link #running} takes calls out of
 * {@link #waiting}, and it answers every call it takes (with the batch's answer or its
 * failure) before it lets go; it lets go by handing {@link #running} to the oldest call
 * still waiting, or, with none waiting, by clearing it and looking once more (a call that
 * arrived in between then either takes {@link #running} itself or is handed it). So every
 * call is answered once, by one batch, and nobody waits while nobody runs.
 *
 * @param <Q> a call's request
 * @param <A> a call's answer
 */
final class Batcher<Q, A> {

	/** The most calls in one batch, so that one script does not hold Redis for long. */
	static final int MAX_CALLS = 256;

	private final Function<List<Q>, List<A>> run;

	private final Queue<Call<Q, A>> waiting = new ConcurrentLinkedQueue<>();

	private final AtomicBoolean running = new AtomicBoolean();

	/**
	 * @param run runs requests as one batch and answers each, in order; if it throws a
	 * {@link CapacityExceededException} it must have changed nothing (a cap refuses a
	 * batch as a whole), and each request of that batch is then run on its own, to be
	 * refused or not by itself
	 */
	Batcher(Function<List<Q>, List<A>> run) {
		this.run = run;
	}

	/**
	 * Runs the request, alone or in a batch with others, and answers it.
	 * @throws RuntimeException what running its batch threw
	 */
	A call(Q request) {
		Call<Q, A> call = new Call<>(request, Thread.currentThread());
		this.waiting.add(call);
		if (this.running.compareAndSet(false, true) || call.awaitTurn()) {
			runUntilAnswered(call);
		}
		return call.answer();
	}

	/** Whether no batch runs and no call waits. */
	boolean idle() {
		return !this.running.get() && this.waiting.isEmpty();
	}

	private void runUntilAnswered(Call<Q, A> own) {
		try {
			while (!own.done) {
				List<Call<Q, A>> batch = new ArrayList<>();
				for (Call<Q, A> next; batch.size() < MAX_CALLS && (next = this.waiting.poll()) != null;) {
					batch.add(next);
				}
				runBatch(batch);
			}
		}
		finally {
			handOver();
		}
	}

	private void runBatch(List<Call<Q, A>> batch) {
		List<Q> requests = new ArrayList<>(batch.size());
		for (Call<Q, A> call : batch) {
			requests.add(call.request);
		}
		try {
			List<A> answers = this.run.apply(requests);
			for (int i = 0; i < batch.size(); i++) {
				batch.get(i).answer(answers.get(i), null);
			}
		}
		catch (CapacityExceededException ex) {
			if (batch.size() == 1) {
				batch.get(0).answer(null, ex);
			}
			else {
				for (Call<Q, A> call : batch) {
					runBatch(List.of(call));
				}
			}
		}
		catch (RuntimeException | Error ex) {
			for (Call<Q, A> call : batch) {
				call.answer(null, ex);
			}
		}
	}

	private void handOver() {
		while (true) {
			this.running.set(false);
			if (this.waiting.isEmpty() || !this.running.compareAndSet(false, true)) {
				return;
			}
			// Holding running again: nobody else takes calls, so the head stays
			// unanswered.
			Call<Q, A> next = this.waiting.peek();
			if (next != null) {
				next.takeTurn();
				return;
			}
		}
	}

	private static final class Call<Q, A> {

		final Q request;

		private final Thread caller;

		private A answer;

		private Throwable failure;

		/** Set after answer and failure, so reading it true makes them visible. */
		volatile boolean done;

		/** Set when {@link Batcher#running} was handed to this call. */
		private volatile boolean turn;

		Call(Q request, Thread caller) {
			this.request = request;
			this.caller = caller;
		}

		void answer(A answer, Throwable failure) {
			this.answer = answer;
			this.failure = failure;
			this.done = true;
			if (this.caller != Thread.currentThread()) {
				LockSupport.unpark(this.caller);
			}
		}

		void takeTurn() {
			this.turn = true;
			LockSupport.unpark(this.caller);
		}

		/**
		 * Waits until this call is answered or has the turn to run a batch, whichever
		 * first (an interrupt does not end the wait, which a batch ends soon, and is
		 * kept).
		 * @return whether it has the turn and is not answered
		 */
		boolean awaitTurn() {
			boolean interrupted = false;
			while (!this.done && !this.turn) {
				LockSupport.park(this);
				interrupted |= Thread.interrupted();
			}
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
			return !this.done;
		}

		A answer() {
			if (this.failure instanceof RuntimeException ex) {
				throw ex;
			}
			if (this.failure instanceof Error error) {
				throw error;
			}
			return this.answer;
		}

	}

}
