package io.github.qsbench.core;

import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the two frameworks that keep messages in flight apart from ready ones share
 * ({@link AbstractSplitQS}, lock-free, and {@link AbstractLaneLockedQS}, a lock per
 * queue): a map of named queues (lanes) that stay in it a while after they close, the
 * settings read from {@link QueueOptions}, and the listing and counting of queues and
 * messages. How a lane holds, hands out and retires messages is each framework's own.
 *
 * @param <L> the framework's lane
 */
public abstract class AbstractLanesQS<L extends AbstractLanesQS.QueueLane> implements QueueServiceCore {

	/**
	 * Lanes by queue name, open or closed (closed ones stay a while, see each framework).
	 */
	final ConcurrentHashMap<String, L> lanes = new ConcurrentHashMap<>();

	/** Index by id and kept counts; off in the thesis's setting. */
	final boolean idLookup;

	/** {@code null} when unlimited. */
	final Capacity capacity;

	final int maxPerQueue;

	/** Messages pushed and not completed; {@code null} in the thesis's setting. */
	final LongAdder held;

	final InstantSource clock;

	final long leaseMillis;

	final boolean eager;

	final AtomicLong lastId = new AtomicLong();

	AbstractLanesQS(QueueOptions options) {
		this.idLookup = options.idLookup();
		this.capacity = options.limits().equals(Capacity.Limits.UNLIMITED) ? null : new Capacity(options.limits());
		this.maxPerQueue = options.limits().maxMessagesPerQueue();
		this.held = this.idLookup ? new LongAdder() : null;
		this.clock = options.clock();
		this.leaseMillis = options.leaseTimeout().toMillis();
		this.eager = options.eviction() == Eviction.EAGER;
	}

	@Override
	public List<QueueStats> queues() {
		requireIdLookup();
		List<QueueStats> stats = new ArrayList<>(this.lanes.size());
		for (L lane : this.lanes.values()) {
			QueueStats one = lane.stats();
			if (one != null) {
				stats.add(one);
			}
		}
		stats.sort(Comparator.comparing(QueueStats::name));
		return stats;
	}

	@Override
	public Optional<QueueStats> queue(String name) {
		requireIdLookup();
		L lane = this.lanes.get(name);
		return Optional.ofNullable((lane != null) ? lane.stats() : null);
	}

	/** Open lanes, counted without a lock (closed ones stay in the map a while). */
	@Override
	public int queueCount() {
		int open = 0;
		for (L lane : this.lanes.values()) {
			open += lane.isOpen() ? 1 : 0;
		}
		return open;
	}

	/** Lanes in memory, open or closed: what the retirement bounds. */
	int lanesInMemory() {
		return this.lanes.size();
	}

	@Override
	public long heldCount() {
		return (this.held != null) ? this.held.sum() : 0;
	}

	@Override
	public Optional<Capacity> capacity() {
		return Optional.ofNullable(this.capacity);
	}

	void requireIdLookup() {
		if (!this.idLookup) {
			throw new IllegalStateException("built without id lookup");
		}
	}

	/** One named queue, as the listing and counting above see it. */
	public interface QueueLane {

		/**
		 * Holds messages and counts as a queue (a closed lane waits in the map empty).
		 */
		boolean isOpen();

		/** Its counts now, {@code null} if it holds nothing or is closed. */
		QueueStats stats();

	}

}
