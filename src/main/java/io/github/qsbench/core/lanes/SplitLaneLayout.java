package io.github.qsbench.core.lanes;

import io.github.qsbench.core.shared.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Queue;

/**
 * The field layout of a {@link SplitLane}, class by class so that the JVM keeps their
 * order: the references every operation reads, a cache line of padding, the producers'
 * total, another cache line, then (in {@link SplitLane}) the consumers' total and the
 * counts.
 */
final class SplitLaneLayout {

	private SplitLaneLayout() {
	}

	/**
	 * What every operation on a lane reads, and nobody writes but a lane that closes or
	 * leaves the ring of retired ones ({@link QueueLane}'s flag, now and then).
	 */
	abstract static class Refs extends QueueLane {

		final Queue<SplitMessage> ready;

		final LockFreeInFlight inFlight = new LockFreeInFlight();

		/** Whether ready and in-flight messages are counted (with id lookup). */
		final boolean counted;

		Refs(String name, Queue<SplitMessage> ready, boolean counted) {
			super(name);
			this.ready = ready;
			this.counted = counted;
		}

	}

	/** A cache line between the references and the producers' total. */
	abstract static class PadRefs extends Refs {

		long p01, p02, p03, p04, p05, p06, p07, p08;

		PadRefs(String name, Queue<SplitMessage> ready, boolean counted) {
			super(name, ready, counted);
		}

	}

	/** Producers' total. */
	abstract static class Admitted extends PadRefs {

		static final long CLOSED_TOTAL = Long.MIN_VALUE / 2;

		static final long REMOVED_TOTAL = Long.MIN_VALUE;

		static final VarHandle ADMITTED = VarHandles.field(MethodHandles.lookup(), "admitted", long.class);

		/**
		 * Messages admitted, ever; {@link #CLOSED_TOTAL} once its last one was evicted,
		 * {@link #REMOVED_TOTAL} once removed.
		 */
		volatile long admitted;

		Admitted(String name, Queue<SplitMessage> ready, boolean counted) {
			super(name, ready, counted);
		}

	}

	/** A cache line between the producers' total and the consumers'. */
	abstract static class PadAdmitted extends Admitted {

		long p11, p12, p13, p14, p15, p16, p17, p18;

		PadAdmitted(String name, Queue<SplitMessage> ready, boolean counted) {
			super(name, ready, counted);
		}

	}

}
