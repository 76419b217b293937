package io.github.qsbench.core;

import java.util.concurrent.atomic.AtomicReference;

/**
 * A message whose whole state is one immutable {@link State} in an
 * {@link AtomicReference}, changed only by compare-and-set: of two threads racing to grab
 * or complete it, exactly one wins, so it is safe without any lock around it.
 */
public final class AtomicMessage extends AbstractMessage {

	private static final State READY = new State(0, 0, false);

	private final AtomicReference<State> state = new AtomicReference<>(READY);

	public AtomicMessage(long id, String queue, String body) {
		super(id, queue, body);
	}

	@Override
	public Grab tryGrab(long nowMillis, long leaseMillis) {
		while (true) {
			State current = this.state.get();
			if (current.completed) {
				return Grab.DECLINED_COMPLETED;
			}
			if (current.inFlightAt(nowMillis)) {
				return Grab.DECLINED_IN_FLIGHT;
			}
			State grabbed = new State(current.deliveries + 1, nowMillis + leaseMillis, false);
			if (this.state.compareAndSet(current, grabbed)) {
				return Grab.GRABBED;
			}
		}
	}

	@Override
	public boolean complete() {
		while (true) {
			State current = this.state.get();
			if (current.completed) {
				return false;
			}
			State done = new State(current.deliveries, current.leaseExpiresAtMillis, true);
			if (this.state.compareAndSet(current, done)) {
				return true;
			}
		}
	}

	@Override
	public Status status(long nowMillis) {
		State current = this.state.get();
		if (current.completed) {
			return Status.COMPLETED;
		}
		return current.inFlightAt(nowMillis) ? Status.IN_FLIGHT : Status.READY;
	}

	@Override
	public int deliveries() {
		return this.state.get().deliveries;
	}

	private record State(int deliveries, long leaseExpiresAtMillis, boolean completed) {

		boolean inFlightAt(long nowMillis) {
			return this.deliveries > 0 && nowMillis < this.leaseExpiresAtMillis;
		}

	}

}
