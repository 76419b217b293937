package io.github.qsbench.core.lanes;

import io.github.qsbench.core.Capacity;
import io.github.qsbench.core.Peeked;
import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.QueueServiceView;
import io.github.qsbench.core.QueueStats;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The read-only half of {@link AbstractLanesQS}: the map of named lanes, the id counter
 * and the {@link Ledger}, and what reads them without changing anything (browsing,
 * listing, counting). A superclass rather than a part the outline calls, so a push or a
 * poll reaches the map and the ledger as its own fields.
 *
 * @param <L> the framework's lane
 */
abstract class LanesView<L extends QueueLane> implements QueueServiceView {

	/**
	 * Lanes by queue name, open or closed (closed ones stay a while, see
	 * {@link AbstractLanesQS#retire}).
	 */
	final ConcurrentHashMap<String, L> lanes = new ConcurrentHashMap<>();

	final Ledger ledger;

	/**
	 * The service's setting (index by id, counts) or the thesis's: read on completions
	 * and when a lane is made (polls and pushes go through the {@link #ledger} and the
	 * lanes' indexes).
	 */
	final boolean idLookup;

	final InstantSource clock;

	final AtomicLong lastId = new AtomicLong();

	LanesView(QueueOptions options) {
		this.ledger = Ledger.of(options);
		this.idLookup = options.idLookup();
		this.clock = options.clock();
	}

	// The framework's part

	/**
	 * Whether a poll of the lane would find a message at {@code nowMillis}: a ready one,
	 * or an in-flight entry whose lease (or delay) ended.
	 */
	abstract boolean hasReadyIn(L lane, long nowMillis);

	/**
	 * A browse of the lane, as a poll would deliver: its in-flight record first (lapsed
	 * leases are what a poll delivers first), then messages never delivered, into
	 * {@code seen} until it holds {@code max}.
	 */
	abstract void browse(L lane, long nowMillis, List<Peeked> seen, int max);

	// The reads

	@Override
	public boolean hasReady(String name) {
		L lane = this.lanes.get(name);
		return lane != null && hasReadyIn(lane, this.clock.millis());
	}

	@Override
	public List<Peeked> peek(String name, int max) {
		L lane = this.lanes.get(name);
		List<Peeked> seen = new ArrayList<>(Math.min(max, 16));
		if (lane != null) {
			browse(lane, this.clock.millis(), seen, max);
		}
		return seen;
	}

	/**
	 * {@link #browse}: adds one more message to what a browse saw.
	 * @return whether it saw {@code max} now
	 */
	static boolean see(List<Peeked> seen, Peeked message, int max) {
		seen.add(message);
		return seen.size() >= max;
	}

	@Override
	public List<QueueStats> queues() {
		QueueOptions.requireIdLookup(this.idLookup);
		List<QueueStats> stats = new ArrayList<>(this.lanes.size());
		long now = this.clock.millis();
		for (L lane : this.lanes.values()) {
			QueueStats one = lane.stats(now);
			if (one != null) {
				stats.add(one);
			}
		}
		stats.sort(Comparator.comparing(QueueStats::name));
		return stats;
	}

	@Override
	public Optional<QueueStats> queue(String name) {
		QueueOptions.requireIdLookup(this.idLookup);
		L lane = this.lanes.get(name);
		return Optional.ofNullable((lane != null) ? lane.stats(this.clock.millis()) : null);
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
	public long lastId() {
		return this.lastId.get();
	}

	@Override
	public long heldCount() {
		return this.ledger.held();
	}

	@Override
	public Optional<Capacity> capacity() {
		return Optional.ofNullable(this.ledger.capacity());
	}

}
