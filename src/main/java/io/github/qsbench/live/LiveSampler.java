package io.github.qsbench.live;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.thread.Threading;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.Environment;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import io.github.qsbench.core.strategy.Strategy;

/**
 * Reads the service's meters once a second, on one thread of its own, and pushes the
 * per-second {@link LiveSnapshot} to every open live page. The deltas are computed once
 * whatever the number of pages, from the {@link MeterRegistry} by meter name, as a
 * Prometheus scrape would read them: nothing is added to the queue core or to the request
 * path, and no strategy's lock is taken (the queue gauges read sizes without locks).
 *
 * <p>
 * Meters read: {@code qs.messages.pushed}, {@code qs.messages.delivered},
 * {@code qs.messages.completed}, {@code qs.pushes.refused} (counters, summed over their
 * tags), {@code qs.core} and {@code qs.contention} (function counters, summed; either may
 * be absent), {@code qs.messages.ready} and {@code qs.messages.inflight} (gauges),
 * {@code http.server.requests} (timers whose {@code uri} starts with {@code /queues}, as
 * the dashboard selects them), {@code process.cpu.usage} (gauge) and {@code jvm.gc.pause}
 * (timers).
 */
@Component
public class LiveSampler implements SmartLifecycle {

	private static final Logger logger = LoggerFactory.getLogger(LiveSampler.class);

	/**
	 * A page's stream ends after this and the browser reconnects, so none lives forever.
	 */
	static final Duration EMITTER_TIMEOUT = Duration.ofMinutes(10);

	/** How soon a browser reconnects after its stream ended. */
	private static final Duration RECONNECT = Duration.ofSeconds(1);

	private static final String QUEUE_API = "/queues";

	private final MeterRegistry registry;

	private final String strategy;

	private final String jvm;

	private final String threads;

	private final LongSupplier nanoTime;

	private final List<SseEmitter> emitters = new CopyOnWriteArrayList<>();

	/** Touched by the sampling thread only. */
	private Reading previous;

	private volatile LiveSnapshot last;

	private volatile ScheduledExecutorService executor;

	@Autowired
	public LiveSampler(MeterRegistry registry, Strategy strategy, Environment environment) {
		this(registry, strategy.profile(), Threading.VIRTUAL.isActive(environment), System::nanoTime);
	}

	LiveSampler(MeterRegistry registry, String strategy, boolean virtualThreads, LongSupplier nanoTime) {
		this.registry = registry;
		this.strategy = strategy;
		this.jvm = System.getProperty("java.vm.name") + " " + System.getProperty("java.version");
		this.threads = virtualThreads ? "virtual" : "platform";
		this.nanoTime = nanoTime;
	}

	/**
	 * A stream for one page: it gets the last snapshot at once, then each new one; it is
	 * dropped when it completes, times out or fails.
	 */
	SseEmitter subscribe() {
		SseEmitter emitter = new SseEmitter(EMITTER_TIMEOUT.toMillis());
		emitter.onCompletion(() -> this.emitters.remove(emitter));
		emitter.onTimeout(() -> this.emitters.remove(emitter));
		emitter.onError((failure) -> this.emitters.remove(emitter));
		this.emitters.add(emitter);
		LiveSnapshot snapshot = this.last;
		send(emitter, SseEmitter.event().reconnectTime(RECONNECT.toMillis()));
		if (snapshot != null) {
			send(emitter, event(snapshot));
		}
		return emitter;
	}

	int subscribers() {
		return this.emitters.size();
	}

	/**
	 * Reads the meters; from the second reading on, returns the snapshot of the time
	 * since the one before and sends it to every page.
	 */
	LiveSnapshot sample() {
		Reading reading = read();
		Reading before = this.previous;
		this.previous = reading;
		if (before == null) {
			return null;
		}
		LiveSnapshot snapshot = snapshot(before, reading);
		this.last = snapshot;
		SseEmitter.SseEventBuilder event = event(snapshot);
		for (SseEmitter emitter : this.emitters) {
			send(emitter, event);
		}
		return snapshot;
	}

	private static SseEmitter.SseEventBuilder event(LiveSnapshot snapshot) {
		return SseEmitter.event().name("snapshot").data(snapshot, MediaType.APPLICATION_JSON);
	}

	/**
	 * A page that went away fails its send; the container then completes its emitter,
	 * which removes it. It is removed here already so the next second does not try again.
	 */
	private void send(SseEmitter emitter, SseEmitter.SseEventBuilder event) {
		try {
			emitter.send(event);
		}
		catch (IOException | IllegalStateException ex) {
			this.emitters.remove(emitter);
		}
	}

	private Reading read() {
		LatencyHistogram requests = new LatencyHistogram();
		for (Timer timer : this.registry.find("http.server.requests").timers()) {
			String uri = timer.getId().getTag("uri");
			if (uri != null && uri.startsWith(QUEUE_API)) {
				requests.add(timer);
			}
		}
		double gcPause = 0;
		for (Timer timer : this.registry.find("jvm.gc.pause").timers()) {
			gcPause += timer.totalTime(TimeUnit.SECONDS);
		}
		return new Reading(this.nanoTime.getAsLong(), total("qs.messages.pushed"), total("qs.messages.delivered"),
				total("qs.messages.completed"), total("qs.pushes.refused"), total("qs.core"), total("qs.contention"),
				gcPause, requests, gauge("qs.messages.ready"), gauge("qs.messages.inflight"),
				gauge("process.cpu.usage"));
	}

	private LiveSnapshot snapshot(Reading before, Reading now) {
		double seconds = (now.nanoTime - before.nanoTime) / 1e9;
		LatencyHistogram requests = now.requests;
		double requestSeconds = requests.totalSeconds() - before.requests.totalSeconds();
		Double core = delta(before.core, now.core);
		Double completed = delta(before.completed, now.completed);
		return new LiveSnapshot(System.currentTimeMillis(), this.strategy, this.jvm, this.threads,
				perSecond(delta(before.pushed, now.pushed), seconds),
				perSecond(delta(before.delivered, now.delivered), seconds), perSecond(completed, seconds),
				perSecond(delta(before.refused, now.refused), seconds),
				perSecond(requests.count() - before.requests.count(), seconds),
				requests.quantileSince(before.requests, 0.5), requests.quantileSince(before.requests, 0.95),
				requests.quantileSince(before.requests, 0.99), now.core != null, ratio(core, requestSeconds),
				ratio(core, completed, 1e6), now.contention != null,
				perSecond(delta(before.contention, now.contention), seconds), now.ready, now.inflight, now.cpu,
				perSecond(now.gcPause - before.gcPause, seconds));
	}

	/**
	 * The sum of the counters or function counters of that name, {@code null} if none.
	 */
	private Double total(String name) {
		Double sum = null;
		for (Meter meter : this.registry.find(name).meters()) {
			if (meter instanceof Counter counter) {
				sum = ((sum != null) ? sum : 0) + counter.count();
			}
			else if (meter instanceof FunctionCounter counter) {
				sum = ((sum != null) ? sum : 0) + counter.count();
			}
		}
		return sum;
	}

	/** The sum of the gauges of that name, {@code null} if none or not a number. */
	private Double gauge(String name) {
		Double sum = null;
		for (Gauge gauge : this.registry.find(name).gauges()) {
			double value = gauge.value();
			if (Double.isFinite(value) && value >= 0) {
				sum = ((sum != null) ? sum : 0) + value;
			}
		}
		return sum;
	}

	/** A counter's increase; a counter that went back (a restart) counts from 0. */
	private static Double delta(Double before, Double now) {
		if (now == null) {
			return null;
		}
		return (before == null || now < before) ? now : now - before;
	}

	private static Double perSecond(Double delta, double seconds) {
		return (delta != null && seconds > 0) ? Math.max(0, delta) / seconds : null;
	}

	private static Double ratio(Double part, double whole) {
		return (part != null && whole > 0) ? part / whole : null;
	}

	private static Double ratio(Double part, Double whole, double scale) {
		return (part != null && whole != null && whole > 0) ? scale * part / whole : null;
	}

	@Override
	public void start() {
		ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "live-sampler");
			thread.setDaemon(true);
			return thread;
		});
		executor.scheduleAtFixedRate(this::sampleSafely, 0, 1, TimeUnit.SECONDS);
		this.executor = executor;
	}

	/** An exception would cancel the schedule: log it and go on with the next second. */
	private void sampleSafely() {
		try {
			sample();
		}
		catch (RuntimeException ex) {
			logger.warn("Live page sample failed", ex);
		}
	}

	/**
	 * Ends every page's stream before the web server's graceful shutdown (a later phase),
	 * which would otherwise wait for them.
	 */
	@Override
	public void stop() {
		ScheduledExecutorService executor = this.executor;
		this.executor = null;
		if (executor != null) {
			executor.shutdownNow();
		}
		for (SseEmitter emitter : this.emitters) {
			emitter.complete();
		}
		this.emitters.clear();
	}

	@Override
	public boolean isRunning() {
		return this.executor != null;
	}

	/** What the meters read at one moment. */
	private record Reading(long nanoTime, Double pushed, Double delivered, Double completed, Double refused,
			Double core, Double contention, double gcPause, LatencyHistogram requests, Double ready, Double inflight,
			Double cpu) {

	}

}
