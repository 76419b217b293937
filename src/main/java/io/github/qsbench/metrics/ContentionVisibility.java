package io.github.qsbench.metrics;

import io.github.qsbench.core.strategy.Strategy;

/**
 * Whether JFR can see the waits of the active strategy's own locks, given the kind of
 * request threads: a pure function, so that the decision is tested without a JVM
 * recording.
 *
 * <p>
 * Platform threads: always ({@code jdk.JavaMonitorEnter}, {@code jdk.ThreadPark}).
 * Virtual threads (measured on Temurin 25.0.3): a virtual thread that blocks does not
 * block its carrier, it unmounts, and the JVM records neither event for it. A park on a
 * {@code java.util.concurrent} lock goes through {@code VirtualThread.park}, which yields
 * the continuation instead of calling {@code Unsafe.park}, the only place
 * {@code jdk.ThreadPark} is emitted; JDK 25's method tracing (JEP 520,
 * {@code jdk.MethodTrace} of {@code LockSupport::park}) times that call on any thread, so
 * these waits stay visible there. A contended {@code synchronized} unmounts too since JEP
 * 491 (JDK 24), inside the JVM, with no Java method around the wait to trace: no event at
 * all. Only waits that pin the carrier (a native or VM frame on the stack) are still
 * recorded, and the core's are not of that kind.
 */
final class ContentionVisibility {

	private ContentionVisibility() {
	}

	/**
	 * Why the meter cannot measure this strategy, or {@code null} when it can.
	 * @param strategy the active strategy
	 * @param virtualThreads whether requests run on virtual threads
	 * @param methodTrace whether this JVM has the {@code jdk.MethodTrace} event (JDK 25+)
	 */
	static String blindSpot(Strategy strategy, boolean virtualThreads, boolean methodTrace) {
		if (!virtualThreads) {
			return null;
		}
		if (!methodTrace) {
			return "request threads are virtual, and a virtual thread parked on a java.util.concurrent lock "
					+ "emits no jdk.ThreadPark (it unmounts); jdk.MethodTrace of LockSupport.park, which does "
					+ "see it, needs JDK 25 or newer";
		}
		if (!strategy.waits().meteredOnVirtualThreads()) {
			return "request threads are virtual, and strategy " + strategy.profile() + " waits on monitors: "
					+ "a virtual thread blocked entering a monitor unmounts (JEP 491) and JFR records no "
					+ "jdk.JavaMonitorEnter for it, so the meter would read 0 whatever the contention; "
					+ "measure it with platform threads (spring.threads.virtual.enabled=false)";
		}
		return null;
	}

}
