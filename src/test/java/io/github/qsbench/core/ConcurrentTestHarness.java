package io.github.qsbench.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Runs tasks on their own threads, released together through a gate, and fails with every
 * thread's stack if they are not all done within the timeout (after interrupting them).
 */
public final class ConcurrentTestHarness {

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
		CountDownLatch gate = new CountDownLatch(1);
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
			}, "harness-" + i);
			thread.setDaemon(true);
			thread.start();
			threads.add(thread);
		}
		gate.countDown();
		long deadline = System.nanoTime() + timeout.toNanos();
		for (Thread thread : threads) {
			thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
		}
		List<Thread> hung = threads.stream().filter(Thread::isAlive).toList();
		if (!hung.isEmpty()) {
			String dump = stacks();
			hung.forEach(Thread::interrupt);
			throw new AssertionError(hung.size() + " threads still running after " + timeout + "\n" + dump);
		}
		if (!failures.isEmpty()) {
			AssertionError error = new AssertionError("a task failed", failures.peek());
			failures.stream().skip(1).forEach(error::addSuppressed);
			throw error;
		}
	}

	private static String stacks() {
		StringBuilder dump = new StringBuilder();
		for (Map.Entry<Thread, StackTraceElement[]> entry : Thread.getAllStackTraces().entrySet()) {
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
