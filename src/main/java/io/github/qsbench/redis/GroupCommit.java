package io.github.qsbench.redis;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A group commit: concurrent calls with one key (a queue, and what else must match) are
 * coalesced into one call of {@code batch}, one script run, and each caller is answered
 * from that run's result. A call made while no other call with its key runs is run at
 * once, alone: no added latency when alone. A call made while one runs waits for it (one
 * script's round trip at most), then runs in one batch with every call that came
 * meanwhile, up to {@code max} items. When a batch of several fails, each of its calls is
 * run again alone, so each caller gets its own answer or its own error (a queue's cap
 * refused for one push is not refused for the others). Keys are forgotten once idle.
 *
 * @param <K> what calls must share to be run together
 * @param <I> one call's item
 * @param <R> one call's result
 */
final class GroupCommit<K, I, R> {

	/** Runs items with one key at once: their results, in order, one per item. */
	interface Batch<K, I, R> {

		List<R> run(K key, List<I> items);

	}

	private final Batch<K, I, R> batch;

	private final int max;

	private final Map<K, Lane> lanes = new ConcurrentHashMap<>();

	/**
	 * @param max the most items run together (the size of a batch of one caller counts as
	 * one item)
	 */
	GroupCommit(int max, Batch<K, I, R> batch) {
		this.max = max;
		this.batch = batch;
	}

	/** Runs {@code item}, alone or with the calls with the same key at the same time. */
	R run(K key, I item) {
		while (true) {
			Lane lane = this.lanes.computeIfAbsent(key, Lane::new);
			Call call = lane.join(item);
			if (call != null) {
				return call.answer();
			}
			// the lane was retired as this call came: a new one
		}
	}

	/** Calls waiting with {@code key} while a batch of it runs (for tests). */
	int waiting(K key) {
		Lane lane = this.lanes.get(key);
		if (lane == null) {
			return 0;
		}
		lane.lock.lock();
		try {
			return lane.waiting.size();
		}
		finally {
			lane.lock.unlock();
		}
	}

	/** The calls with one key: at most one batch of them runs at a time. */
	private final class Lane {

		private final K key;

		private final ReentrantLock lock = new ReentrantLock();

		private final Condition ran = this.lock.newCondition();

		private final List<Call> waiting = new ArrayList<>();

		private boolean running;

		private boolean retired;

		Lane(K key) {
			this.key = key;
		}

		/** {@code null} if the lane was retired: the caller takes the key's new lane. */
		Call join(I item) {
			Call call = new Call(item);
			List<Call> mine;
			this.lock.lock();
			try {
				if (this.retired) {
					return null;
				}
				this.waiting.add(call);
				while (this.running && !call.done) {
					this.ran.awaitUninterruptibly();
				}
				if (call.done) {
					return call;
				}
				// this call leads: it runs every call waiting, up to max
				this.running = true;
				mine = new ArrayList<>();
				mine.add(call);
				this.waiting.remove(call);
				for (Iterator<Call> next = this.waiting.iterator(); next.hasNext() && mine.size() < max;) {
					mine.add(next.next());
					next.remove();
				}
			}
			finally {
				this.lock.unlock();
			}
			runAll(mine);
			this.lock.lock();
			try {
				for (Call done : mine) {
					done.done = true;
				}
				this.running = false;
				if (this.waiting.isEmpty()) {
					this.retired = true;
					GroupCommit.this.lanes.remove(this.key, this);
				}
				this.ran.signalAll();
			}
			finally {
				this.lock.unlock();
			}
			return call;
		}

		private void runAll(List<Call> calls) {
			List<I> items = new ArrayList<>(calls.size());
			for (Call call : calls) {
				items.add(call.item);
			}
			try {
				List<R> results = GroupCommit.this.batch.run(this.key, items);
				for (int i = 0; i < calls.size(); i++) {
					calls.get(i).result = results.get(i);
				}
				return;
			}
			catch (RuntimeException | Error ex) {
				if (calls.size() == 1) {
					calls.get(0).failure = ex;
					return;
				}
			}
			for (Call call : calls) {
				try {
					call.result = GroupCommit.this.batch.run(this.key, List.of(call.item)).get(0);
				}
				catch (RuntimeException | Error ex) {
					call.failure = ex;
				}
			}
		}

	}

	/** One caller's item and, once done (under its lane's lock), its answer. */
	private final class Call {

		final I item;

		boolean done;

		R result;

		Throwable failure;

		Call(I item) {
			this.item = item;
		}

		R answer() {
			if (this.failure instanceof RuntimeException ex) {
				throw ex;
			}
			if (this.failure instanceof Error error) {
				throw error;
			}
			return this.result;
		}

	}

}
