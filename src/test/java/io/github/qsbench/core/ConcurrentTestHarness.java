package io.github.qsbench.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Runs tasks on their own threads, released together through a gate, and fails with every
 * thread's stack if they are not all done within the timeout (after interrupting them). A
 * task that throws ends the wait at once and is the failure's cause: tasks that loop
 * until everything pushed was delivered would otherwise wait for a message the failed one
 * took, and the timeout would hide why.
 */
public final class ConcurrentTestHarness {

	/** How often the wait looks whether a task failed. */
	private static final long WAIT_STEP_MILLIS = 20;

	private ConcurrentTestHarness() {
	}

	/**
	 * A test duration or size from a system property, so a longer run needs no code
	 * change.
	 */
	public static int intProperty(String name, int defaultValue) {
		return Integer.getInteger(name, defaultValue);
	}

	public static void runAll(Duration timeout, List<Runnable> tasks) throws InterruptedException {
		runAll(timeout, tasks, () -> "");
	}

	/**
	 * @param state describes what the tasks work on, added to the failure if they are not
	 * all done in time (for example which messages were never delivered)
	 */
	public static void runAll(Duration timeout, List<Runnable> tasks, Supplier<String> state)
			throws InterruptedException {
		CountDownLatch gate = new CountDownLatch(1);
		CountDownLatch finished = new CountDownLatch(tasks.size());
		ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
		List<Thread> threads = new ArrayList<>();
		for (int i = 0; i < tasks.size(); i++) {
			Runnable task = tasks.get(i);
			Thread thread = new Thread(() -> {
				try {
					gate.await();
					task.run();
				}
				catch (Throwable ex) {
					failures.add(ex);
				}
				finally {
					finished.countDown();
				}
			}, "harness-" + i);
			thread.setDaemon(true);
			thread.start();
			threads.add(thread);
		}
		gate.countDown();
		long deadline = System.nanoTime() + timeout.toNanos();
		boolean allDone;
		while (!(allDone = finished.await(WAIT_STEP_MILLIS, TimeUnit.MILLISECONDS)) && failures.isEmpty()
				&& System.nanoTime() < deadline) {
			// until all are done, one failed, or the time is up
		}
		if (!failures.isEmpty()) {
			threads.forEach(Thread::interrupt);
			AssertionError error = new AssertionError("a task failed", failures.peek());
			failures.stream().skip(1).forEach(error::addSuppressed);
			throw error;
		}
		if (!allDone) {
			// counted before the interrupt, which lets a task that polls for it end at
			// once
			long running = finished.getCount();
			String dump = stacks("");
			threads.forEach(Thread::interrupt);
			throw new AssertionError(
					running + " threads still running after " + timeout + "\n" + state.get() + "\n" + dump);
		}
	}

	/**
	 * The stacks of the threads whose name starts with {@code prefix} ({@code ""}: all),
	 * for a failure to show where they were.
	 */
	public static String stacks(String prefix) {
		StringBuilder dump = new StringBuilder();
		for (Map.Entry<Thread, StackTraceElement[]> entry : Thread.getAllStackTraces().entrySet()) {
			if (!entry.getKey().getName().startsWith(prefix)) {
				continue;
			}
			dump.append('"')
				.append(entry.getKey().getName())
				.append("\" ")
				.append(entry.getKey().getState())
				.append('\n');
			for (StackTraceElement frame : entry.getValue()) {
				dump.append("    at ").append(frame).append('\n');
			}
		}
		return dump.toString();
	}

}
