package io.github.qsbench.core.lanes;

import io.github.qsbench.core.Capacity;
import io.github.qsbench.core.QueueOptions;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * What {@link AbstractLanesQS} keeps of the service's setting: the held count (id lookup)
 * and the caps (limits). Chosen once, when a service is built ({@link #of}), so that no
 * call asks which setting it runs in: the thesis's setting gets this class, which keeps
 * nothing, and since one service's calls always meet the same kind of ledger, the JIT
 * inlines its empty methods away.
 */
class Ledger {

	private static final Ledger THESIS = new Ledger();

	Ledger() {
	}

	static Ledger of(QueueOptions options) {
		if (!options.idLookup()) {
			return THESIS;
		}
		return options.limits().equals(Capacity.Limits.UNLIMITED) ? new Counted()
				: new Capped(new Capacity(options.limits()));
	}

	/**
	 * Reserves room for a message with that body.
	 * @return its charge, to {@link #refund} if the push fails
	 * @throws io.github.qsbench.core.CapacityExceededException if the caps refuse it;
	 * nothing changed
	 */
	long reserve(byte[] body) {
		return 0;
	}

	/** {@link #reserve(byte[])} for a batch, all or none. */
	long reserve(List<byte[]> bodies) {
		return 0;
	}

	/** A push that reserved {@code charge} failed. */
	void refund(long charge) {
	}

	/**
	 * A queue comes to exist with {@code adding} messages.
	 * @throws io.github.qsbench.core.CapacityExceededException if the caps refuse it;
	 * nothing changed
	 */
	void openQueue(int adding) {
	}

	/** A queue ceased to exist (it holds nothing). */
	void closeQueue() {
	}

	void pushed(int count) {
	}

	/** A message was completed (by id: only the service's setting counts). */
	void completed() {
	}

	/** A message with that body left memory. */
	void evicted(byte[] body) {
	}

	/** Messages pushed and not completed; 0 without id lookup. */
	long held() {
		return 0;
	}

	/** The caps, {@code null} when unlimited. */
	Capacity capacity() {
		return null;
	}

	/** The service's setting without limits: the held count. */
	static class Counted extends Ledger {

		private final LongAdder held = new LongAdder();

		@Override
		void pushed(int count) {
			this.held.add(count);
		}

		@Override
		void completed() {
			this.held.decrement();
		}

		@Override
		long held() {
			return this.held.sum();
		}

	}

	/** The service's setting with limits: the held count and the caps. */
	static final class Capped extends Counted {

		private final Capacity capacity;

		Capped(Capacity capacity) {
			this.capacity = capacity;
		}

		@Override
		long reserve(byte[] body) {
			return this.capacity.reserve(body);
		}

		@Override
		long reserve(List<byte[]> bodies) {
			return this.capacity.reserve(bodies);
		}

		@Override
		void refund(long charge) {
			this.capacity.releaseBytes(charge);
		}

		@Override
		void openQueue(int adding) {
			this.capacity.checkQueue(0, adding);
			this.capacity.reserveQueue();
		}

		@Override
		void closeQueue() {
			this.capacity.releaseQueue();
		}

		@Override
		void evicted(byte[] body) {
			this.capacity.release(body);
		}

		@Override
		Capacity capacity() {
			return this.capacity;
		}

	}

}
