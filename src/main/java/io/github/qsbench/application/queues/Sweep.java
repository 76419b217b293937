package io.github.qsbench.application.queues;

import io.github.qsbench.application.Departures;
import io.github.qsbench.core.ByIdOperation;
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
		boolean any = false;
		for (Peeked peeked : this.core.peek(queue, SCAN)) {
			long id = peeked.message().id();
			if (id <= lastId && this.core.byId(queue, id, ByIdOperation.DISCARD).done()) {
				this.departures.left(queue, id);
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
