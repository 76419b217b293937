package io.github.qsbench.compare;

/** Platform daemon threads (Java 17 has no {@code Thread.ofPlatform()}). */
final class Daemons {

	private Daemons() {
	}

	static Thread start(String name, Runnable task) {
		Thread thread = new Thread(task, name);
		thread.setDaemon(true);
		thread.start();
		return thread;
	}

}
