package io.github.qsbench.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;

import org.awaitility.Awaitility;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Test;

/**
 * A comparison run with fake instances and a fake load: one at a time, its ranking and
 * verdicts, and its instances always stopped.
 */
class ComparisonsTests {

	/** Messages per window of each fake strategy, round by round. */
	static final Map<String, long[]> RATES = Map.of("concurrent-atomic", new long[] { 1000, 1000, 1000, 1000 },
			"lane-adaptive", new long[] { 2000, 2100, 1900, 2000 }, "synchronized",
			new long[] { 1000, 1010, 995, 1000 });

	final FakeInstances instances = new FakeInstances();

	@Test
	void aFinishedComparison_ranksByMessagesPerSecond_withRatiosToTheFirst() throws Exception {
		Comparisons comparisons = new Comparisons(this.instances, new FakeLoad(null));

		Comparison comparison = comparisons.start(request("concurrent-atomic", "lane-adaptive", "synchronized"),
				"curl ...");
		assertThat(comparisons.await(Duration.ofSeconds(10))).isTrue();

		Comparison.Snapshot snapshot = comparison.snapshot();
		assertThat(snapshot.state()).isEqualTo("finished");
		assertThat(snapshot.windowsDone()).isEqualTo(snapshot.windowsTotal()).isEqualTo(4 * 3);
		assertThat(snapshot.ranking()).extracting(Comparison.Ranked::strategy)
			.containsExactly("lane-adaptive", "synchronized", "concurrent-atomic");
		assertThat(snapshot.ranking()).extracting(Comparison.Ranked::verdict)
			.containsExactly("faster", "equivalent within ±5%", "baseline");
		assertThat(snapshot.ranking().get(0).ratio()).isBetween(1.9, 2.1);
		assertThat(snapshot.ranking().get(0).low()).isGreaterThan(1.0);
		assertThat(snapshot.ranking().get(0).cpuVerdict()).isEqualTo("costs less CPU");
		assertThat(snapshot.command()).isEqualTo("curl ...");
		assertThat(this.instances.started).containsExactlyInAnyOrder("concurrent-atomic", "lane-adaptive",
				"synchronized");
		assertThat(this.instances.running).isEmpty();
	}

	@Test
	void theSeedDecidesTheOrders() {
		ComparisonRequest request = request("concurrent-atomic", "lane-adaptive", "synchronized");
		Comparison a = new Comparison(1, request, this.instances, new FakeLoad(null), "");
		Comparison b = new Comparison(2, request, this.instances, new FakeLoad(null), "");

		assertThat(a.snapshot().orders()).isEqualTo(b.snapshot().orders()).hasSize(4);
	}

	@Test
	void aSecondComparison_isRefusedWhileOneRuns_andCancelStopsItsInstances() throws Exception {
		CountDownLatch loading = new CountDownLatch(1);
		Comparisons comparisons = new Comparisons(this.instances, new FakeLoad(loading));
		comparisons.start(request("concurrent-atomic", "synchronized"), "");
		assertThat(loading.await(10, TimeUnit.SECONDS)).isTrue();

		assertThatIllegalStateException()
			.isThrownBy(() -> comparisons.start(request("concurrent-atomic", "synchronized"), ""))
			.withMessageContaining("is running");

		assertThat(comparisons.cancel()).isPresent();
		assertThat(comparisons.await(Duration.ofSeconds(10))).isTrue();
		assertThat(comparisons.current().orElseThrow().snapshot().state()).isEqualTo("cancelled");
		assertThat(this.instances.running).isEmpty();
		assertThat(comparisons.cancel()).isEmpty();
		// and the next may start
		comparisons.start(request("concurrent-atomic", "synchronized"), "");
		comparisons.destroy();
		assertThat(this.instances.running).isEmpty();
	}

	@Test
	void anInstanceThatNeverAnswers_failsTheComparison_andTheOthersAreStopped() throws Exception {
		this.instances.dead = "synchronized";
		Comparisons comparisons = new Comparisons(this.instances, new FakeLoad(null));

		Comparison comparison = comparisons.start(request("concurrent-atomic", "synchronized"), "");
		assertThat(comparisons.await(Duration.ofSeconds(10))).isTrue();

		assertThat(comparison.snapshot().state()).isEqualTo("failed");
		assertThat(comparison.snapshot().error()).contains("synchronized died");
		assertThat(this.instances.running).isEmpty();
	}

	@Test
	void whereNoInstanceCanStart_nothingStarts() {
		this.instances.unavailable = "no jar";
		Comparisons comparisons = new Comparisons(this.instances, new FakeLoad(null));

		assertThatThrownBy(() -> comparisons.start(request("concurrent-atomic", "synchronized"), ""))
			.isInstanceOf(UnsupportedOperationException.class)
			.hasMessage("no jar");
		assertThat(comparisons.current()).isEmpty();
	}

	static ComparisonRequest request(String... strategies) {
		return new ComparisonRequest(List.of(strategies), "1-conn", 3, 1, 42L).validated();
	}

	static final class FakeInstances implements Instances {

		final Set<String> started = ConcurrentHashMap.newKeySet();

		final Set<String> running = ConcurrentHashMap.newKeySet();

		volatile String dead;

		volatile String unavailable;

		@Override
		public Optional<String> unavailable() {
			return Optional.ofNullable(this.unavailable);
		}

		@Override
		public Instance start(String profile) {
			this.started.add(profile);
			this.running.add(profile);
			return new Instance() {

				long cpu;

				@Override
				public String profile() {
					return profile;
				}

				@Override
				public void awaitReady(Instant deadline) throws IOException {
					if (profile.equals(FakeInstances.this.dead)) {
						throw new IOException(profile + " died at start-up");
					}
				}

				@Override
				public int port() {
					return 0;
				}

				@Override
				public OptionalLong cpuNanos() {
					// a fixed CPU time per window: the faster, the cheaper per message
					this.cpu += 1_000_000;
					return OptionalLong.of(this.cpu);
				}

				@Override
				public void close() {
					FakeInstances.this.running.remove(profile);
				}

			};
		}

	}

	/** Answers each strategy's rate at once, or with a latch blocks until cancelled. */
	static final class FakeLoad implements Load {

		private final CountDownLatch loading;

		private final Map<String, Integer> windows = new ConcurrentHashMap<>();

		FakeLoad(CountDownLatch loading) {
			this.loading = loading;
		}

		@Override
		public Window run(Instances.Instance instance, Workload workload, Duration window, BooleanSupplier cancelled)
				throws InterruptedException {
			if (this.loading != null) {
				this.loading.countDown();
				Awaitility.await("cancelled")
					.atMost(Duration.ofMinutes(1))
					.pollInterval(Duration.ofMillis(10))
					.until(cancelled::getAsBoolean);
				return new Window(0, window.toNanos(), 0);
			}
			int n = this.windows.merge(instance.profile(), 1, Integer::sum) - 1;
			long[] rates = RATES.get(instance.profile());
			return new Window(rates[n % rates.length], window.toNanos(), 0);
		}

	}

}
