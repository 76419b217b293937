package io.github.qsbench.metrics;

import io.github.qsbench.core.strategy.Strategy;

/**
 * Whether JFR can see the waits of the active strategy's own locks, given the kind of
 * request threads: a pure function, so that the decision is tested without a JVM
 * recording. Platform threads: always. Virtual threads: only parks on
 * {@code java.util.concurrent} locks, and only on JDK 25 (method tracing); why, as
 * measured: docs/design/contention-on-virtual-threads.md.
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
