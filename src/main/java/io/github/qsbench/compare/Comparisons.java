package io.github.qsbench.compare;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;

/**
 * At most one comparison at a time: a second is refused while one runs. Keeps the last
 * one to show. A comparison's thread exists only while it runs; on the service's shutdown
 * the running one is cancelled and its instances stopped.
 */
@Component
class Comparisons implements DisposableBean {

	private final Instances instances;

	private final Load load;

	private final AtomicLong ids = new AtomicLong();

	private Comparison current;

	private Thread runner;

	@org.springframework.beans.factory.annotation.Autowired
	Comparisons(@Value("${qs.compare.jar:}") String jar) {
		this(new JarInstances(jar), new SocketLoad());
	}

	Comparisons(Instances instances, Load load) {
		this.instances = instances;
		this.load = load;
	}

	Optional<String> unavailable() {
		return this.instances.unavailable();
	}

	/**
	 * Starts a comparison.
	 * @param request a validated request
	 * @param command the command that repeats it
	 * @throws IllegalStateException while another runs
	 * @throws UnsupportedOperationException where no instance can be started
	 */
	synchronized Comparison start(ComparisonRequest request, String command) {
		if (this.current != null && !this.current.over()) {
			throw new IllegalStateException("Comparison " + this.current.id()
					+ " is running; wait for it to finish or cancel it (DELETE /compare).");
		}
		this.instances.unavailable().ifPresent((reason) -> {
			throw new UnsupportedOperationException(reason);
		});
		Comparison comparison = new Comparison(this.ids.incrementAndGet(), request, this.instances, this.load, command);
		this.current = comparison;
		this.runner = Daemons.start("comparison-" + comparison.id(), comparison);
		return comparison;
	}

	synchronized Optional<Comparison> current() {
		return Optional.ofNullable(this.current);
	}

	/** Cancels the running comparison. @return it, or empty when none runs */
	synchronized Optional<Comparison> cancel() {
		if (this.current == null || this.current.over()) {
			return Optional.empty();
		}
		this.current.cancel();
		this.runner.interrupt();
		return Optional.of(this.current);
	}

	/** Waits for the current comparison's thread, bounded. */
	boolean await(Duration timeout) throws InterruptedException {
		Thread thread;
		synchronized (this) {
			thread = this.runner;
		}
		return thread == null || joined(thread, timeout);
	}

	private static boolean joined(Thread thread, Duration timeout) throws InterruptedException {
		thread.join(timeout.toMillis());
		return !thread.isAlive();
	}

	@Override
	public void destroy() throws InterruptedException {
		Comparison comparison;
		synchronized (this) {
			comparison = this.current;
		}
		if (cancel().isPresent() && !await(Duration.ofSeconds(20))) {
			comparison.stopInstances();
		}
	}

}
