package io.github.qsbench.metrics;

import java.util.List;
import java.util.Set;

/**
 * Decides whether one JFR lock event is a wait of the queue core: a pure function of the
 * event's lock class, thread name and (when recorded) stack, so it can be tested without
 * a JVM recording.
 *
 * <p>
 * Two gates, both must pass:
 * <ol>
 * <li><b>The lock's class</b> is one the core waits on: a monitor of a core class
 * ({@code Lockable$Mutex}), the sync of a {@code ReentrantReadWriteLock}, a
 * {@code StampedLock}, and, with stack traces, a {@code ReentrantLock} sync or a
 * {@code ConcurrentHashMap} bin (its {@code compute} locks the key's bin). Condition
 * waits ({@code AbstractQueuedSynchronizer$ConditionObject}: idle Jetty workers, a long
 * poll waiting for a message) are never contention and never pass. A
 * {@code jdk.MethodTrace} of {@code LockSupport.park} (the source on virtual threads) has
 * no lock field: {@link #parkedLockClass} reads the lock from its stack.</li>
 * <li><b>Who took it</b>: with stack traces, the first frame from the top that is not JDK
 * code ({@code java.*}, {@code jdk.*}, {@code sun.*}) belongs to
 * {@code io.github.qsbench.core}, so the lock was taken by the core or by JDK code the
 * core called (a class-loading lock during warm-up is taken by a class loader and does
 * not count). Without stack traces, the thread is a request thread: Jetty's pooled
 * {@code qtp*} workers or Spring Boot's virtual {@code jetty-*} threads, not an
 * acceptor.</li>
 * </ol>
 */
final class ContentionFilter {

	static final String CORE_PACKAGE = "io.github.qsbench.core.";

	/** Lock classes that only the core uses on request threads: no stack needed. */
	private static final Set<String> CORE_LOCKS = Set.of(
			"java.util.concurrent.locks.ReentrantReadWriteLock$NonfairSync",
			"java.util.concurrent.locks.ReentrantReadWriteLock$FairSync", "java.util.concurrent.locks.StampedLock",
			// as parkedLockClass names them
			"java.util.concurrent.locks.ReentrantReadWriteLock$ReadLock",
			"java.util.concurrent.locks.ReentrantReadWriteLock$WriteLock");

	/**
	 * Lock classes that Jetty, NIO and Spring also use on request threads: counted only
	 * when a stack shows the core took them.
	 */
	private static final Set<String> SHARED_LOCKS = Set.of("java.util.concurrent.locks.ReentrantLock$NonfairSync",
			"java.util.concurrent.locks.ReentrantLock$FairSync", "java.util.concurrent.locks.ReentrantLock$Sync",
			"java.util.concurrent.ConcurrentHashMap$Node", "java.util.concurrent.ConcurrentHashMap$TreeBin",
			"java.util.concurrent.ConcurrentHashMap$ReservationNode");

	/**
	 * What a stack passes through between a lock's {@code lock()} and
	 * {@code LockSupport.park}.
	 */
	private static final Set<String> PARKING = Set.of("java.util.concurrent.locks.LockSupport",
			"java.util.concurrent.locks.AbstractQueuedSynchronizer",
			"java.util.concurrent.locks.AbstractQueuedLongSynchronizer");

	private static final List<String> JDK_PACKAGES = List.of("java.", "jdk.", "sun.", "com.sun.");

	private final boolean stackTraces;

	/**
	 * @param stackTraces whether events carry stack traces; decides which gates apply
	 */
	ContentionFilter(boolean stackTraces) {
		this.stackTraces = stackTraces;
	}

	/**
	 * @param lockClass the monitor's class ({@code jdk.JavaMonitorEnter.monitorClass}),
	 * the park blocker's ({@code jdk.ThreadPark.parkedClass}) or the
	 * {@link #parkedLockClass} of a {@code jdk.MethodTrace}; {@code null} when unknown
	 * @param threadName the Java name of the waiting thread, {@code null} when unknown
	 * @param frameClasses declaring classes of the stack's frames, top first;
	 * {@code null} when the event has no stack
	 */
	boolean counts(String lockClass, String threadName, List<String> frameClasses) {
		if (!mayCount(lockClass)) {
			return false;
		}
		return this.stackTraces ? takenByCore(frameClasses) : isRequestThread(threadName);
	}

	/**
	 * The first gate alone: whether a wait on this lock class can count at all. Most
	 * events (idle workers, the NIO poller) fail it, so a caller can skip reading their
	 * thread and stack.
	 */
	boolean mayCount(String lockClass) {
		if (lockClass == null) {
			return false;
		}
		return lockClass.startsWith(CORE_PACKAGE) || CORE_LOCKS.contains(lockClass)
				|| (this.stackTraces && SHARED_LOCKS.contains(lockClass));
	}

	/**
	 * The lock a thread parked for, read from the stack of a {@code jdk.MethodTrace} of
	 * {@code LockSupport.park}: the class of the first frame from the top outside
	 * {@code LockSupport} and the queued synchronizers, that is the lock's own class
	 * ({@code ReentrantReadWriteLock$ReadLock}, {@code ReentrantLock$Sync},
	 * {@code StampedLock}) or whatever else parked ({@code ConditionObject},
	 * {@code CountDownLatch}, ...), which the lock gate then judges.
	 * @param frameClasses declaring classes of the stack's frames, top first;
	 * {@code null} when the event has no stack
	 * @return the class, or {@code null} when the stack does not say
	 */
	static String parkedLockClass(List<String> frameClasses) {
		if (frameClasses == null) {
			return null;
		}
		for (String frameClass : frameClasses) {
			if (!PARKING.contains(frameClass)) {
				return frameClass;
			}
		}
		return null;
	}

	/** The first frame outside the JDK is core code. */
	static boolean takenByCore(List<String> frameClasses) {
		if (frameClasses == null) {
			return false;
		}
		for (String frameClass : frameClasses) {
			if (!isJdk(frameClass)) {
				return frameClass.startsWith(CORE_PACKAGE);
			}
		}
		return false;
	}

	private static boolean isJdk(String className) {
		for (String prefix : JDK_PACKAGES) {
			if (className.startsWith(prefix)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Jetty's {@code QueuedThreadPool} names its platform threads {@code qtp<hash>-<id>}
	 * (for example {@code qtp1407343478-42}); with virtual threads Spring Boot's
	 * {@code VirtualThreadPool} names them {@code jetty-<n>}. The same pool runs the
	 * selectors, which may go on to serve a request they read, and the acceptors, which
	 * Jetty renames {@code <name>-acceptor-<n>@...} and which never serve one.
	 */
	static boolean isRequestThread(String threadName) {
		return threadName != null && (threadName.startsWith("qtp") || threadName.startsWith("jetty-"))
				&& !threadName.contains("-acceptor-");
	}

}
