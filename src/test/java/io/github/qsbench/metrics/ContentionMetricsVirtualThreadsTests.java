package io.github.qsbench.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.BooleanSupplier;

import org.awaitility.Awaitility;
import io.github.qsbench.core.thesis.Lockable;
import io.github.qsbench.core.strategy.Strategy;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * The meter with virtual request threads, and the JDK behaviour it rests on. Each wait is
 * forced: the holder keeps the lock until the waiter's state shows it waiting, so every
 * run has exactly the waits it asserts on. The JDK 25 tests are skipped on older JDKs;
 * run them with {@code JAVA_HOME=<a JDK 25> ./mvnw test -Dtest='Contention*'}.
 */
class ContentionMetricsVirtualThreadsTests {

	private static final Duration MAX_WAIT = Duration.ofSeconds(10);

	/**
	 * On every JDK: before 25 nothing can see a virtual thread's wait, on 25 a monitor.
	 */
	@Test
	void monitorStrategyOnVirtualThreads_noRecordingNoMeter() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		ContentionMetrics metrics = new ContentionMetrics(registry, new ContentionProperties(true, true),
				Strategy.SYNCHRONIZED, true);
		metrics.start();
		try {
			assertThat(metrics.isRunning()).isFalse();
			assertThat(registry.find("qs.contention").meter()).isNull();
		}
		finally {
			metrics.stop();
		}
	}

	@Test
	@EnabledForJreRange(min = JRE.JAVA_25)
	void readWriteLockOnVirtualThreads_parkOnACoreLockCounted() throws Exception {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		ContentionMetrics metrics = new ContentionMetrics(registry, new ContentionProperties(true, true),
				Strategy.READ_WRITE_LOCK, true);
		metrics.start();
		try {
			assertThat(metrics.isRunning()).isTrue();
			Lockable<List<String>> queue = Lockable.readWrite(new ArrayList<>(), new ReentrantReadWriteLock());
			Thread reader = queue.write(held -> {
				Thread waiter = startVirtual(() -> queue.read(List::size));
				await(() -> waiter.getState() == Thread.State.WAITING, "the virtual reader parked");
				return waiter;
			});
			reader.join(MAX_WAIT.toMillis());

			await(() -> metrics.waitedSeconds() > 0, "the reader's wait counted");
			assertThat(metrics.waitedSecondsByLock())
				.containsOnlyKeys("java.util.concurrent.locks.ReentrantReadWriteLock$ReadLock");
			assertThat(registry.get("qs.contention").functionCounter().count()).isPositive();
		}
		finally {
			metrics.stop();
		}
	}

	/**
	 * Why the meter needs jdk.MethodTrace and gives up on monitors: on JDK 25 a virtual
	 * thread that parks on a lock or blocks on a monitor records neither
	 * {@code jdk.ThreadPark} nor {@code jdk.JavaMonitorEnter}, where a platform thread
	 * records both. Should a later JDK record them, this fails, and
	 * {@link ContentionVisibility} can be revisited.
	 */
	@Test
	@EnabledForJreRange(min = JRE.JAVA_25)
	void jdk25_virtualThreadsWaitWithoutThreadParkOrMonitorEnter() throws Exception {
		Set<String> seen = ConcurrentHashMap.newKeySet();
		try (RecordingStream stream = new RecordingStream()) {
			stream.enable(ContentionMetrics.THREAD_PARK).withThreshold(Duration.ZERO);
			stream.enable(ContentionMetrics.MONITOR_ENTER).withThreshold(Duration.ZERO);
			stream.onEvent(event -> seen.add(key(event)));
			stream.startAsync();

			long virtualParked = parkOnWriteLockedQueue(ContentionMetricsVirtualThreadsTests::startVirtual);
			long virtualBlocked = blockOnMonitor(ContentionMetricsVirtualThreadsTests::startVirtual);
			long platformParked = parkOnWriteLockedQueue(ContentionMetricsVirtualThreadsTests::startPlatform);
			long platformBlocked = blockOnMonitor(ContentionMetricsVirtualThreadsTests::startPlatform);

			// JFR flushes every buffer at once: once the platform threads' later events
			// are here, any event of the virtual threads would be too
			await(() -> seen.contains(ContentionMetrics.THREAD_PARK + "@" + platformParked)
					&& seen.contains(ContentionMetrics.MONITOR_ENTER + "@" + platformBlocked),
					"the platform threads' events");
			assertThat(seen).doesNotContain(ContentionMetrics.THREAD_PARK + "@" + virtualParked,
					ContentionMetrics.MONITOR_ENTER + "@" + virtualBlocked);
		}
	}

	/** A thread reads a queue whose write lock is held until it parks; its id. */
	private static long parkOnWriteLockedQueue(Starter starter) throws Exception {
		Lockable<List<String>> queue = Lockable.readWrite(new ArrayList<>(), new ReentrantReadWriteLock());
		Thread reader = queue.write(held -> {
			Thread waiter = starter.start(() -> queue.read(List::size));
			await(() -> waiter.getState() == Thread.State.WAITING, "the reader parked");
			return waiter;
		});
		reader.join(MAX_WAIT.toMillis());
		return reader.getId();
	}

	/** A thread enters a monitor held until it blocks; its id. */
	private static long blockOnMonitor(Starter starter) throws Exception {
		Object monitor = new Object();
		Thread blocked;
		synchronized (monitor) {
			blocked = starter.start(() -> {
				synchronized (monitor) {
					monitor.hashCode();
				}
			});
			await(() -> blocked.getState() == Thread.State.BLOCKED, "the thread blocked");
		}
		blocked.join(MAX_WAIT.toMillis());
		return blocked.getId();
	}

	private static String key(RecordedEvent event) {
		return event.getEventType().getName() + "@"
				+ ((event.getThread() != null) ? event.getThread().getJavaThreadId() : -1);
	}

	@FunctionalInterface
	private interface Starter {

		Thread start(Runnable task);

	}

	private static Thread startPlatform(Runnable task) {
		Thread thread = new Thread(task);
		thread.start();
		return thread;
	}

	/** {@code Thread.ofVirtual().start(task)}, which the Java 17 API does not have. */
	private static Thread startVirtual(Runnable task) {
		try {
			Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
			return (Thread) Class.forName("java.lang.Thread$Builder")
				.getMethod("start", Runnable.class)
				.invoke(builder, task);
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException("no virtual threads on this JDK", ex);
		}
	}

	private static void await(BooleanSupplier condition, String what) {
		Awaitility.await(what).atMost(MAX_WAIT).pollInterval(Duration.ofMillis(10)).until(condition::getAsBoolean);
	}

}
