package io.github.qsbench.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The filter on the lock classes, threads and stacks JFR reports, as seen in recordings
 * of the service under load.
 */
class ContentionFilterTests {

	private static final String MUTEX = "io.github.qsbench.core.thesis.Lockable$Mutex";

	private static final String RW_SYNC = "java.util.concurrent.locks.ReentrantReadWriteLock$NonfairSync";

	private static final String REENTRANT_SYNC = "java.util.concurrent.locks.ReentrantLock$NonfairSync";

	private static final String CONDITION = "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject";

	private static final String CHM_NODE = "java.util.concurrent.ConcurrentHashMap$Node";

	private static final String WORKER = "qtp1407343478-42";

	/** jdk.JavaMonitorEnter on the synchronized strategy's map. */
	private static final List<String> MUTEX_STACK = List.of(MUTEX, "io.github.qsbench.core.thesis.AbstractQS",
			"io.github.qsbench.application.messages.MessageOperations");

	/** jdk.ThreadPark in a read lock of the read-write-lock strategy. */
	private static final List<String> READ_LOCK_STACK = List.of("jdk.internal.misc.Unsafe",
			"java.util.concurrent.locks.LockSupport", "java.util.concurrent.locks.AbstractQueuedSynchronizer",
			"java.util.concurrent.locks.ReentrantReadWriteLock$ReadLock",
			"io.github.qsbench.core.thesis.Lockable$ReadWriteLocked", "io.github.qsbench.core.thesis.AbstractQS",
			"io.github.qsbench.application.messages.MessageOperations");

	/** jdk.JavaMonitorEnter in ConcurrentHashMap.compute called by the caps. */
	private static final List<String> CAPACITY_STACK = List.of("java.util.concurrent.ConcurrentHashMap",
			"io.github.qsbench.core.Capacity", "io.github.qsbench.core.thesis.AbstractQS",
			"io.github.qsbench.application.messages.MessageOperations");

	/** An idle Jetty worker waiting for its next job. */
	private static final List<String> IDLE_WORKER_STACK = List.of("jdk.internal.misc.Unsafe",
			"java.util.concurrent.locks.LockSupport",
			"java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject",
			"org.eclipse.jetty.util.BlockingArrayQueue", "org.eclipse.jetty.util.thread.QueuedThreadPool$Runner");

	/** A ReentrantLock that NIO takes while Jetty writes a response. */
	private static final List<String> SOCKET_WRITE_STACK = List.of("jdk.internal.misc.Unsafe",
			"java.util.concurrent.locks.LockSupport", "java.util.concurrent.locks.AbstractQueuedSynchronizer",
			"java.util.concurrent.locks.ReentrantLock", "sun.nio.ch.SocketChannelImpl",
			"org.eclipse.jetty.io.SocketChannelEndPoint", "org.eclipse.jetty.io.WriteFlusher");

	/** A class-loading lock taken while core code first touches a class. */
	private static final List<String> CLASS_LOADING_STACK = List.of("java.lang.ClassLoader",
			"org.springframework.boot.loader.net.protocol.jar.JarUrlClassLoader", "java.lang.ClassLoader",
			"io.github.qsbench.core.thesis.AtomicMessage", "io.github.qsbench.core.thesis.AbstractQS");

	/**
	 * {@code jdk.MethodTrace} of {@code LockSupport.park} on virtual request threads, as
	 * recorded on Temurin 25.0.3 (read-write-lock, 4-4 Gatling load): the stack starts at
	 * the caller of {@code park}, and the event has no lock field.
	 */
	private static final List<String> VIRTUAL_READ_LOCK_STACK = List.of(
			"java.util.concurrent.locks.AbstractQueuedLongSynchronizer",
			"java.util.concurrent.locks.AbstractQueuedLongSynchronizer",
			"java.util.concurrent.locks.ReentrantReadWriteLock$ReadLock",
			"io.github.qsbench.core.thesis.Lockable$ReadWriteLocked", "io.github.qsbench.core.thesis.AbstractQS",
			"io.github.qsbench.application.messages.MessageOperations");

	private static final List<String> VIRTUAL_WRITE_LOCK_STACK = List.of(
			"java.util.concurrent.locks.AbstractQueuedLongSynchronizer",
			"java.util.concurrent.locks.AbstractQueuedLongSynchronizer",
			"java.util.concurrent.locks.ReentrantReadWriteLock$WriteLock",
			"io.github.qsbench.core.thesis.Lockable$ReadWriteLocked", "io.github.qsbench.core.thesis.AbstractQS",
			"io.github.qsbench.application.messages.MessageOperations");

	/** The reentrant-lock strategy's lock. */
	private static final List<String> VIRTUAL_REENTRANT_LOCK_STACK = List.of(
			"java.util.concurrent.locks.AbstractQueuedSynchronizer",
			"java.util.concurrent.locks.AbstractQueuedSynchronizer", "java.util.concurrent.locks.ReentrantLock$Sync",
			"java.util.concurrent.locks.ReentrantLock", "io.github.qsbench.core.thesis.Lockable$Locked",
			"io.github.qsbench.core.thesis.AbstractQS");

	/** The stamped-lock strategy's write lock (StampedLock parks by itself). */
	private static final List<String> VIRTUAL_STAMPED_LOCK_STACK = List.of("java.util.concurrent.locks.StampedLock",
			"java.util.concurrent.locks.StampedLock", "io.github.qsbench.core.thesis.Lockable$Stamped",
			"io.github.qsbench.core.thesis.AbstractQS");

	/**
	 * Jetty's own ReentrantLock (its {@code AutoLock}) around a request's state on a
	 * virtual thread.
	 */
	private static final List<String> VIRTUAL_JETTY_LOCK_STACK = List.of(
			"java.util.concurrent.locks.AbstractQueuedSynchronizer",
			"java.util.concurrent.locks.AbstractQueuedSynchronizer", "java.util.concurrent.locks.ReentrantLock$Sync",
			"java.util.concurrent.locks.ReentrantLock", "org.eclipse.jetty.util.thread.AutoLock",
			"org.eclipse.jetty.server.internal.HttpChannelState");

	/** A scheduler thread waiting for its next task. */
	private static final List<String> CONDITION_WAIT_STACK = List.of(
			"java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionNode", "java.util.concurrent.ForkJoinPool",
			"java.util.concurrent.ForkJoinPool",
			"java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject",
			"java.util.concurrent.ScheduledThreadPoolExecutor$DelayedWorkQueue");

	/** The same thread taking its lock back after the wait. */
	private static final List<String> CONDITION_REACQUIRE_STACK = List.of(
			"java.util.concurrent.locks.AbstractQueuedSynchronizer",
			"java.util.concurrent.locks.AbstractQueuedSynchronizer",
			"java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject",
			"java.util.concurrent.ScheduledThreadPoolExecutor$DelayedWorkQueue");

	@Nested
	class ParkedLockClass {

		@Test
		void coreLocks_theLocksOwnClass() {
			assertThat(ContentionFilter.parkedLockClass(VIRTUAL_READ_LOCK_STACK))
				.isEqualTo("java.util.concurrent.locks.ReentrantReadWriteLock$ReadLock");
			assertThat(ContentionFilter.parkedLockClass(VIRTUAL_WRITE_LOCK_STACK))
				.isEqualTo("java.util.concurrent.locks.ReentrantReadWriteLock$WriteLock");
			assertThat(ContentionFilter.parkedLockClass(VIRTUAL_REENTRANT_LOCK_STACK))
				.isEqualTo("java.util.concurrent.locks.ReentrantLock$Sync");
			assertThat(ContentionFilter.parkedLockClass(VIRTUAL_STAMPED_LOCK_STACK))
				.isEqualTo("java.util.concurrent.locks.StampedLock");
		}

		@Test
		void conditionWaits_theCondition() {
			assertThat(ContentionFilter.parkedLockClass(CONDITION_WAIT_STACK))
				.isEqualTo("java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionNode");
			assertThat(ContentionFilter.parkedLockClass(CONDITION_REACQUIRE_STACK)).isEqualTo(CONDITION);
		}

		@Test
		void noStack_unknown() {
			assertThat(ContentionFilter.parkedLockClass(null)).isNull();
			assertThat(ContentionFilter.parkedLockClass(List.of())).isNull();
			assertThat(ContentionFilter.parkedLockClass(List.of("java.util.concurrent.locks.LockSupport"))).isNull();
		}

	}

	/** What the meter counts of jdk.MethodTrace on virtual request threads. */
	@Nested
	class ParksTracedOnVirtualThreads {

		private final ContentionFilter filter = new ContentionFilter(true);

		private static final String HANDLER = "jetty-7";

		private boolean counts(List<String> stack) {
			return this.filter.counts(ContentionFilter.parkedLockClass(stack), HANDLER, stack);
		}

		@Test
		void coreLocks_count() {
			assertThat(counts(VIRTUAL_READ_LOCK_STACK)).isTrue();
			assertThat(counts(VIRTUAL_WRITE_LOCK_STACK)).isTrue();
			assertThat(counts(VIRTUAL_REENTRANT_LOCK_STACK)).isTrue();
			assertThat(counts(VIRTUAL_STAMPED_LOCK_STACK)).isTrue();
		}

		@Test
		void jettysLocksAndConditionWaits_doNotCount() {
			assertThat(counts(VIRTUAL_JETTY_LOCK_STACK)).isFalse();
			assertThat(counts(CONDITION_WAIT_STACK)).isFalse();
			assertThat(counts(CONDITION_REACQUIRE_STACK)).isFalse();
		}

		@Test
		void withoutStackTraces_readWriteLocksOfRequestThreadsCount() {
			ContentionFilter requestThreads = new ContentionFilter(false);
			assertThat(requestThreads.counts(ContentionFilter.parkedLockClass(VIRTUAL_READ_LOCK_STACK), HANDLER,
					VIRTUAL_READ_LOCK_STACK))
				.isTrue();
			assertThat(requestThreads.counts(ContentionFilter.parkedLockClass(VIRTUAL_JETTY_LOCK_STACK), HANDLER,
					VIRTUAL_JETTY_LOCK_STACK))
				.isFalse();
		}

	}

	@Nested
	class WithStackTraces {

		private final ContentionFilter filter = new ContentionFilter(true);

		@Test
		void strategyLocksTakenByTheCore_count() {
			assertThat(this.filter.counts(MUTEX, WORKER, MUTEX_STACK)).isTrue();
			assertThat(this.filter.counts(RW_SYNC, WORKER, READ_LOCK_STACK)).isTrue();
		}

		@Test
		void concurrentHashMapBinTakenByTheCore_counts() {
			assertThat(this.filter.counts(CHM_NODE, WORKER, CAPACITY_STACK)).isTrue();
		}

		@Test
		void anyThreadRunningTheCore_counts() {
			assertThat(this.filter.counts(MUTEX, "test-worker-1", MUTEX_STACK)).isTrue();
			assertThat(this.filter.counts(MUTEX, null, MUTEX_STACK)).isTrue();
		}

		@Test
		void idleWorkersAndConditionWaits_doNotCount() {
			assertThat(this.filter.counts(CONDITION, WORKER, IDLE_WORKER_STACK)).isFalse();
			// even under the core: waiting for a message is not contention
			assertThat(this.filter.counts(CONDITION, WORKER, READ_LOCK_STACK)).isFalse();
		}

		@Test
		void sharedLocksTakenOutsideTheCore_doNotCount() {
			assertThat(this.filter.counts(REENTRANT_SYNC, WORKER, SOCKET_WRITE_STACK)).isFalse();
			assertThat(this.filter.counts(CHM_NODE, WORKER, List.of("java.util.concurrent.ConcurrentHashMap",
					"org.springframework.util.ConcurrentReferenceHashMap", "io.github.qsbench.core.thesis.AbstractQS")))
				.isFalse();
		}

		@Test
		void reentrantLockTakenByTheCore_counts() {
			assertThat(this.filter.counts(REENTRANT_SYNC, WORKER,
					List.of("jdk.internal.misc.Unsafe", "java.util.concurrent.locks.LockSupport",
							"java.util.concurrent.locks.ReentrantLock", "java.util.concurrent.LinkedBlockingQueue",
							"io.github.qsbench.core.thesis.AbstractQS")))
				.isTrue();
		}

		@Test
		void classLoadingUnderTheCore_doesNotCount() {
			assertThat(this.filter.counts("java.lang.Object", WORKER, CLASS_LOADING_STACK)).isFalse();
			assertThat(this.filter.counts(CHM_NODE, WORKER, CLASS_LOADING_STACK)).isFalse();
		}

		@Test
		void mayCount_isTheLockClassGateAlone() {
			assertThat(this.filter.mayCount(MUTEX)).isTrue();
			assertThat(this.filter.mayCount(CHM_NODE)).isTrue();
			assertThat(this.filter.mayCount(CONDITION)).isFalse();
			assertThat(this.filter.mayCount(null)).isFalse();
		}

		@Test
		void missingClassOrStack_doesNotCount() {
			assertThat(this.filter.counts(null, WORKER, MUTEX_STACK)).isFalse();
			assertThat(this.filter.counts(MUTEX, WORKER, null)).isFalse();
			assertThat(this.filter.counts(MUTEX, WORKER, List.of())).isFalse();
			// the core frame cut off by JFR's stack depth
			assertThat(this.filter.counts(RW_SYNC, WORKER, READ_LOCK_STACK.subList(0, 4))).isFalse();
		}

	}

	@Nested
	class WithoutStackTraces {

		private final ContentionFilter filter = new ContentionFilter(false);

		@Test
		void strategyLocksOnRequestThreads_count() {
			assertThat(this.filter.counts(MUTEX, WORKER, null)).isTrue();
			assertThat(this.filter.counts(RW_SYNC, WORKER, null)).isTrue();
			assertThat(this.filter.counts(RW_SYNC, "jetty-12", null)).isTrue();
			assertThat(this.filter.counts("java.util.concurrent.locks.StampedLock", WORKER, null)).isTrue();
		}

		@Test
		void otherThreads_doNotCount() {
			assertThat(this.filter.counts(MUTEX,
					"qtp1407343478-17-acceptor-0@6b3e12b5-ServerConnector@3c9c0d96{HTTP/1.1, (http/1.1)}{127.0.0.1:8080}",
					null))
				.isFalse();
			assertThat(this.filter.counts(RW_SYNC, "Scheduler-1407343478-1", null)).isFalse();
			assertThat(this.filter.counts(RW_SYNC, null, null)).isFalse();
		}

		@Test
		void mayCount_excludesLocksThatNeedAStack() {
			assertThat(this.filter.mayCount(RW_SYNC)).isTrue();
			assertThat(this.filter.mayCount(REENTRANT_SYNC)).isFalse();
		}

		@Test
		void locksJettyAlsoUses_doNotCount() {
			// without a stack a ReentrantLock or a map bin cannot be told from Jetty's
			// own
			assertThat(this.filter.counts(REENTRANT_SYNC, WORKER, null)).isFalse();
			assertThat(this.filter.counts(CHM_NODE, WORKER, null)).isFalse();
			assertThat(this.filter.counts(CONDITION, WORKER, null)).isFalse();
		}

	}

}
