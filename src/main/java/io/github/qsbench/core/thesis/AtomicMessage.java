package io.github.qsbench.core.thesis;

import io.github.qsbench.core.ByIdOutcome;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.shared.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A message whose whole state is one immutable {@link State}, changed only by
 * compare-and-set: of two threads racing to grab or complete it, exactly one wins, so it
 * is safe without any lock around it.
 *
 * <p>
 * The state is a field of the message set through a {@link VarHandle}, which is what an
 * {@code AtomicReference} does inside, without a second object per message. A message
 * never delivered shares one {@code READY} state with all others.
 *
 * <p>
 * 24 bytes a message with its body's reference (a 12-byte header and three 4-byte
 * fields): the message keeps the id's lower 32 bits, its state the upper ones, which are
 * 0 for the first 4,294,967,295 ids of a service. A {@code long} id in the message would
 * take it to 32 bytes after alignment; the state object is 32 bytes either way (its
 * header, the deliveries, the lease and the completed flag leave 4 bytes that the upper
 * bits fill), and the shared {@code READY} state is one per upper word.
 */
public final class AtomicMessage extends AbstractMessage {

	private static final State READY = new State(0, 0, false, 0);

	/** The {@code READY} state of the last upper word past 0, shared by its messages. */
	private static volatile State readyAbove;

	private static final VarHandle STATE = VarHandles.field(MethodHandles.lookup(), "state", State.class);

	private volatile State state;

	/** The id's lower 32 bits; the upper ones are the state's. */
	private final int idLow;

	public AtomicMessage(long id, byte[] body) {
		super(body);
		this.idLow = (int) id;
		this.state = ready((int) (id >>> 32));
	}

	private static State ready(int idHigh) {
		if (idHigh == 0) {
			return READY;
		}
		State ready = readyAbove;
		if (ready == null || ready.idHigh != idHigh) {
			ready = new State(0, 0, false, idHigh);
			readyAbove = ready;
		}
		return ready;
	}

	@Override
	public long id() {
		return ((long) this.state.idHigh << 32) | (this.idLow & 0xFFFF_FFFFL);
	}

	@Override
	public Grab tryGrab(long nowMillis, long leaseMillis) {
		while (true) {
			State current = this.state;
			if (current.completed) {
				return Grab.DECLINED_COMPLETED;
			}
			if (current.inFlightAt(nowMillis)) {
				return Grab.DECLINED_IN_FLIGHT;
			}
			State grabbed = new State(current.deliveries + 1, nowMillis + leaseMillis, false, current.idHigh);
			if (STATE.compareAndSet(this, current, grabbed)) {
				return Grab.GRABBED;
			}
		}
	}

	@Override
	public Completion complete(int delivery) {
		while (true) {
			State current = this.state;
			Completion verdict = Completion.decide(current.completed, current.deliveries, delivery);
			if (verdict != Completion.COMPLETED || STATE.compareAndSet(this, current,
					new State(current.deliveries, current.leaseExpiresAtMillis, true, current.idHigh))) {
				return verdict;
			}
		}
	}

	@Override
	public void delayUntil(long dueMillis) {
		this.state = new State(0, dueMillis, false, this.state.idHigh);
	}

	@Override
	public boolean endDelay(long nowMillis) {
		while (true) {
			State current = this.state;
			if (current.completed || current.deliveries > 0 || current.leaseExpiresAtMillis == 0) {
				return false;
			}
			if (STATE.compareAndSet(this, current, new State(0, nowMillis, false, current.idHigh))) {
				return true;
			}
		}
	}

	@Override
	public int discard() {
		while (true) {
			State current = this.state;
			if (current.completed) {
				return -1;
			}
			if (STATE.compareAndSet(this, current,
					new State(current.deliveries, current.leaseExpiresAtMillis, true, current.idHigh))) {
				return current.deliveries;
			}
		}
	}

	@Override
	public ByIdOutcome changeLease(int delivery, long leaseEndMillis) {
		while (true) {
			State current = this.state;
			Completion verdict = Completion.decide(current.completed, current.deliveries, delivery);
			if (verdict != Completion.COMPLETED || STATE.compareAndSet(this, current,
					new State(current.deliveries, leaseEndMillis, false, current.idHigh))) {
				return ByIdOutcome.of(verdict);
			}
		}
	}

	@Override
	public boolean isCompleted() {
		return this.state.completed;
	}

	@Override
	public Status status(long nowMillis) {
		State current = this.state;
		if (current.completed) {
			return Status.COMPLETED;
		}
		if (!current.inFlightAt(nowMillis)) {
			return Status.READY;
		}
		return (current.deliveries > 0) ? Status.IN_FLIGHT : Status.DELAYED;
	}

	@Override
	public int deliveries() {
		return this.state.deliveries;
	}

	/**
	 * The message's state; a delayed message is one not yet delivered whose lease (its
	 * delay) has not expired.
	 */
	private record State(int deliveries, long leaseExpiresAtMillis, boolean completed, int idHigh) {

		/** In flight, or delayed. */
		boolean inFlightAt(long nowMillis) {
			return nowMillis < this.leaseExpiresAtMillis;
		}

	}

}
