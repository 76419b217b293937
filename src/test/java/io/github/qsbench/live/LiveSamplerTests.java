package io.github.qsbench.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * The per-second arithmetic on a registry the test fills itself, with time moved by hand:
 * a Prometheus registry, as the service's (a simple registry keeps no histogram buckets).
 * {@code qs.core} is registered here as the queue layer registers it (one function
 * counter per operation), to show that the sampler sums it over its tags.
 */
class LiveSamplerTests {

	private final MeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

	private final AtomicLong nanos = new AtomicLong();

	private final LiveSampler sampler = new LiveSampler(this.registry, "test-strategy", false, this.nanos::get);

	@Test
	void ratesAndCoreShare_perSecondOfElapsedTime() {
		Counter completed = Counter.builder("qs.messages.completed").register(this.registry);
		Counter pushed = Counter.builder("qs.messages.pushed").register(this.registry);
		AtomicLong pushNanos = new AtomicLong();
		AtomicLong pollNanos = new AtomicLong();
		coreSeconds("push", pushNanos);
		coreSeconds("poll", pollNanos);
		Timer requests = requests("/queues/{queue}/messages");
		assertThat(this.sampler.sample()).as("the first reading is the baseline").isNull();

		pushed.increment(40);
		completed.increment(20);
		pushNanos.addAndGet(Duration.ofMillis(30).toNanos());
		pollNanos.addAndGet(Duration.ofMillis(10).toNanos());
		requests.record(Duration.ofMillis(100));
		requests.record(Duration.ofMillis(100));
		this.nanos.addAndGet(Duration.ofSeconds(2).toNanos());
		LiveSnapshot snapshot = this.sampler.sample();

		assertThat(snapshot.strategy()).isEqualTo("test-strategy");
		assertThat(snapshot.threads()).isEqualTo("platform");
		assertThat(snapshot.pushedPerSecond()).isCloseTo(20, within(1e-9));
		assertThat(snapshot.completedPerSecond()).isCloseTo(10, within(1e-9));
		assertThat(snapshot.requestsPerSecond()).isCloseTo(1, within(1e-9));
		assertThat(snapshot.coreMeasured()).isTrue();
		// 40 ms of core time in 200 ms of request time; 40 ms over 20 messages
		assertThat(snapshot.coreShare()).isCloseTo(0.2, within(1e-9));
		assertThat(snapshot.coreMicrosPerMessage()).isCloseTo(2000, within(1e-6));
		assertThat(snapshot.contentionMeasured()).isFalse();
		assertThat(snapshot.contentionSecondsPerSecond()).isNull();
		assertThat(snapshot.deliveredPerSecond()).as("no such meter").isNull();
	}

	@Test
	void latencyQuantiles_ofTheLastSecondOnly_andOfTheQueueApiOnly() {
		Timer requests = requests("/queues/{queue}/messages");
		Timer page = requests("/live/events");
		for (int i = 0; i < 100; i++) {
			requests.record(Duration.ofSeconds(5));
		}
		this.sampler.sample();
		for (int i = 0; i < 100; i++) {
			requests.record(Duration.ofMillis(i < 99 ? 2 : 500));
		}
		page.record(Duration.ofMinutes(10));
		this.nanos.addAndGet(Duration.ofSeconds(1).toNanos());
		LiveSnapshot snapshot = this.sampler.sample();

		assertThat(snapshot.latencyP50Seconds()).isBetween(0.001, 0.003);
		assertThat(snapshot.latencyP95Seconds()).isBetween(0.001, 0.003);
		assertThat(snapshot.latencyP99Seconds()).isBetween(0.001, 0.003);

		this.nanos.addAndGet(Duration.ofSeconds(1).toNanos());
		assertThat(this.sampler.sample().latencyP99Seconds()).as("no request in that second").isNull();
	}

	private void coreSeconds(String operation, AtomicLong nanos) {
		FunctionCounter.builder("qs.core", nanos, (n) -> n.get() / 1e9)
			.baseUnit("seconds")
			.tag("operation", operation)
			.register(this.registry);
	}

	private Timer requests(String uri) {
		return Timer.builder("http.server.requests")
			.tag("uri", uri)
			.publishPercentileHistogram()
			.register(this.registry);
	}

}
