package io.github.qsbench.metrics;

import java.time.Duration;
import java.util.AbstractList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import jdk.jfr.EventType;
import jdk.jfr.FlightRecorder;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.thread.Threading;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;

import io.github.qsbench.core.strategy.Strategy;

/**
 * {@code qs.contention} (Prometheus {@code qs_contention_seconds_total}): the time
 * request threads spent blocked on a lock or monitor of the queue core, from a JFR
 * {@link RecordingStream} of the slow paths of locks, kept by {@link ContentionFilter};
 * off with {@code qs.metrics.contention.enabled=false} ({@link ContentionProperties}).
 * Sources, limits and why not {@code ThreadMXBean}: docs/design/contention-meter.md; on
 * virtual threads: docs/design/contention-on-virtual-threads.md.
 */
@Component
public class ContentionMetrics implements SmartLifecycle {

	private static final Logger logger = LoggerFactory.getLogger(ContentionMetrics.class);

	static final String MONITOR_ENTER = "jdk.JavaMonitorEnter";

	static final String THREAD_PARK = "jdk.ThreadPark";

	static final String METHOD_TRACE = "jdk.MethodTrace";

	/** Every untimed park, which is how the core's j.u.c locks wait. */
	static final String PARK_METHODS = "java.util.concurrent.locks.LockSupport::park";

	private final MeterRegistry registry;

	private final ContentionProperties properties;

	private final ContentionFilter filter;

	private final Strategy strategy;

	private final boolean virtualThreads;

	/** Written by the stream's thread only. */
	private final AtomicLong waitedNanos = new AtomicLong();

	/** By lock class, for the shutdown log and tests; only counted waits reach it. */
	private final Map<String, AtomicLong> waitedNanosByLock = new ConcurrentHashMap<>();

	private volatile RecordingStream stream;

	@Autowired
	public ContentionMetrics(MeterRegistry registry, ContentionProperties properties, Strategy strategy,
			Environment environment) {
		this(registry, properties, strategy, Threading.VIRTUAL.isActive(environment));
	}

	/**
	 * @param virtualThreads whether requests run on virtual threads (Spring Boot's
	 * {@code spring.threads.virtual.enabled} on JDK 21+)
	 */
	ContentionMetrics(MeterRegistry registry, ContentionProperties properties, Strategy strategy,
			boolean virtualThreads) {
		this.registry = registry;
		this.properties = properties;
		this.filter = new ContentionFilter(properties.stackTraces());
		this.strategy = strategy;
		this.virtualThreads = virtualThreads;
	}

	@Override
	public void start() {
		if (!this.properties.enabled()) {
			logger.info("Core contention meter off (qs.metrics.contention.enabled=false)");
			return;
		}
		RecordingStream started;
		try {
			started = new RecordingStream();
		}
		catch (IllegalStateException | SecurityException ex) {
			logger.warn("Core contention meter off: JFR is not available ({})", ex.getMessage());
			return;
		}
		String blindSpot = ContentionVisibility.blindSpot(this.strategy, this.virtualThreads,
				this.virtualThreads && hasMethodTrace());
		if (blindSpot != null) {
			started.close();
			logger.warn("Core contention meter off, qs_contention_seconds_total not exported: {}", blindSpot);
			return;
		}
		// disk chunks are kept only while the stream may still read them
		started.setMaxAge(Duration.ofMinutes(2));
		started.setMaxSize(32 * 1024 * 1024);
		// no event is kept past its handler, and their order does not matter to a sum
		started.setReuse(true);
		started.setOrdered(false);
		enable(started, MONITOR_ENTER, "monitorClass");
		if (this.virtualThreads) {
			// both would count a platform thread's park: one source for parks
			enableParkTrace(started);
		}
		else {
			enable(started, THREAD_PARK, "parkedClass");
		}
		started.onError(ex -> logger.warn("Core contention meter: JFR stream failed", ex));
		started.startAsync();
		this.stream = started;
		String parks = this.virtualThreads ? METHOD_TRACE + " of " + PARK_METHODS : THREAD_PARK;
		FunctionCounter.builder("qs.contention", this, ContentionMetrics::waitedSeconds)
			.description("Time request threads spent blocked on a lock or monitor of the queue core (JFR "
					+ MONITOR_ENTER + " and " + parks + "); about 0 for the concurrent strategies, "
					+ "whose compare-and-set retries are not waits")
			.baseUnit("seconds")
			.register(this.registry);
		logger.info("Core contention meter on: JFR {} and {}, threshold 0, {}", MONITOR_ENTER, parks,
				this.properties.stackTraces() ? "with stack traces" : "without stack traces (request threads)");
		if (this.virtualThreads) {
			logger.info("Core contention meter on virtual threads: {} always takes stack traces (they tell "
					+ "the lock); a virtual thread blocked on a monitor (the caps' ConcurrentHashMap bins) "
					+ "unmounts without a JFR event and is not counted", METHOD_TRACE);
		}
	}

	/**
	 * Times {@code LockSupport.park} on every thread: {@code jdk.ThreadPark} misses a
	 * virtual thread's park, which yields instead of parking its carrier.
	 */
	private void enableParkTrace(RecordingStream stream) {
		stream.enable(METHOD_TRACE).with("filter", PARK_METHODS).withThreshold(Duration.ZERO).withStackTrace();
		stream.onEvent(METHOD_TRACE, recorded -> {
			List<String> frames = frameClasses(recorded.getStackTrace());
			String lockClass = ContentionFilter.parkedLockClass(frames);
			if (this.filter.mayCount(lockClass)) {
				count(recorded, lockClass, frames);
			}
		});
	}

	private static boolean hasMethodTrace() {
		for (EventType type : FlightRecorder.getFlightRecorder().getEventTypes()) {
			if (METHOD_TRACE.equals(type.getName())) {
				return true;
			}
		}
		return false;
	}

	private void enable(RecordingStream stream, String event, String lockField) {
		var settings = stream.enable(event).withThreshold(Duration.ZERO);
		if (this.properties.stackTraces()) {
			settings.withStackTrace();
		}
		else {
			settings.withoutStackTrace();
		}
		stream.onEvent(event, recorded -> accept(recorded, lockField));
	}

	private void accept(RecordedEvent event, String lockField) {
		RecordedClass lock = event.getClass(lockField);
		String lockClass = (lock != null) ? lock.getName() : null;
		if (this.filter.mayCount(lockClass)) {
			count(event, lockClass, frameClasses(event.getStackTrace()));
		}
	}

	/** The second gate, for an event whose lock passed the first. */
	private void count(RecordedEvent event, String lockClass, List<String> frames) {
		RecordedThread thread = event.getThread();
		String threadName = (thread != null) ? thread.getJavaName() : null;
		if (this.filter.counts(lockClass, threadName, frames)) {
			long nanos = event.getDuration().toNanos();
			this.waitedNanos.addAndGet(nanos);
			this.waitedNanosByLock.computeIfAbsent(lockClass, key -> new AtomicLong()).addAndGet(nanos);
		}
	}

	/** A view, so only the top frames the filter reads are resolved. */
	private static List<String> frameClasses(RecordedStackTrace stackTrace) {
		if (stackTrace == null) {
			return null;
		}
		List<RecordedFrame> frames = stackTrace.getFrames();
		return new AbstractList<>() {

			@Override
			public String get(int index) {
				return frames.get(index).getMethod().getType().getName();
			}

			@Override
			public int size() {
				return frames.size();
			}

		};
	}

	double waitedSeconds() {
		return this.waitedNanos.get() / 1e9;
	}

	/** Seconds counted so far by lock class, sorted by name. */
	Map<String, Double> waitedSecondsByLock() {
		Map<String, Double> seconds = new TreeMap<>();
		this.waitedNanosByLock.forEach((lock, nanos) -> seconds.put(lock, nanos.get() / 1e9));
		return seconds;
	}

	@Override
	public void stop() {
		RecordingStream running = this.stream;
		if (running != null) {
			this.stream = null;
			running.close();
			logger.info("Core contention meter stopped: {} s blocked in the core, by lock {}",
					String.format("%.3f", waitedSeconds()), waitedSecondsByLock());
		}
	}

	@Override
	public boolean isRunning() {
		return this.stream != null;
	}

	/**
	 * Starts before the web server takes requests and stops after it has drained them.
	 */
	@Override
	public int getPhase() {
		return 0;
	}

}
