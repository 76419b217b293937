package io.github.qsbench.application.queues;

import java.util.ArrayList;
import java.util.List;

import io.github.qsbench.application.Departures;
import io.github.qsbench.core.ByIdOutcome;
import io.github.qsbench.core.Peeked;
import io.github.qsbench.core.QueueServiceCore;

/**
 * One removal of old messages from queues' heads, for a purge or a retention sweep:
 * discards by id what a browse finds, and counts each message it removed by the state it
 * was browsed in. Used by one thread for one removal.
 */
final class Sweep {

	/** Messages one browse looks at. */
	static final int SCAN = 1000;

	private final QueueServiceCore core;

	int ready;

	int inFlight;

	int delayed;

	/** Told of each message this removal removed. */
	private final Departures departures;

	Sweep(QueueServiceCore core, Departures departures) {
		this.core = core;
		this.departures = departures;
	}

	/**
	 * Discards what one browse of the queue's head finds with an id up to {@code lastId};
	 * a message completed or discarded meanwhile by someone else is not counted.
	 * @return whether it discarded any
	 */
	boolean discardHead(String queue, long lastId) {
		List<Peeked> old = new ArrayList<>();
		for (Peeked peeked : this.core.peek(queue, SCAN)) {
			if (peeked.message().id() <= lastId) {
				old.add(peeked);
			}
		}
		long[] ids = new long[old.size()];
		for (int i = 0; i < ids.length; i++) {
			ids[i] = old.get(i).message().id();
		}
		// one call for what the browse found: one round trip on a store across the
		// network
		List<ByIdOutcome> outcomes = this.core.discardAll(queue, ids);
		boolean any = false;
		for (int i = 0; i < ids.length; i++) {
			if (outcomes.get(i).done()) {
				Peeked peeked = old.get(i);
				this.departures.left(queue, ids[i]);
				if (peeked.deliveries() > 0) {
					this.inFlight++;
				}
				else if (peeked.state() == Peeked.State.DELAYED) {
					this.delayed++;
				}
				else {
					this.ready++;
				}
				any = true;
			}
		}
		return any;
	}

	/** Discards as {@link #discardHead} until a browse finds none. */
	void discardAll(String queue, long lastId) {
		while (discardHead(queue, lastId)) {
			// until a browse of the head finds none
		}
	}

	int total() {
		return this.ready + this.inFlight + this.delayed;
	}

}
