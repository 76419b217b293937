package io.github.qsbench.application;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.qsbench.application.queues.QueueSettings;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.strategy.Strategy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Purge and queue deletion, written once above the core on what every strategy offers
 * (lease, completion by id, browse), held to their contract for every strategy: every
 * message held when a purge begins leaves exactly once, ready or in flight, and racing
 * consumers neither lose a message the purge did not take nor complete one it did.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(Strategy.class)
class PurgeTests extends OperationsPerStrategy {

	@Test
	void purge_removesReadyAndInFlight_andTheHolderGetsNotFound() {
		for (int i = 0; i < 250; i++) {
			this.messages.push("q", utf8("m" + i));
		}
		List<Received> held = this.messages.lease("q", 3);
		this.messages.push("other", utf8("stays"));

		assertThat(this.operations.purge("q")).isEqualTo(250);

		assertThat(this.operations.queue("q")).isEmpty();
		assertThat(this.messages.lease("q", 1)).isEmpty();
		Received first = held.get(0);
		assertThat(this.messages.complete("q", first.id(), null)).isEqualTo(Completion.NOT_FOUND);
		this.clock.advance(LEASE);
		assertThat(this.messages.lease("q", 100)).as("nothing comes back after the leases lapse").isEmpty();
		assertThat(this.operations.queue("other")).isPresent();
		assertThat(this.core.heldCount()).isOne();
		assertThat(purged("ready")).isEqualTo(247);
		assertThat(purged("inflight")).isEqualTo(3);
	}

	@Test
	void purge_lapsedLease_countedAsInFlight() {
		this.messages.push("q", utf8("slow"));
		this.messages.lease("q", 1);
		this.clock.advance(LEASE);

		assertThat(this.operations.purge("q")).isOne();
		assertThat(purged("inflight")).isOne();
		assertThat(this.operations.purge("q")).as("nothing left").isZero();
	}

	@Test
	void purge_delayedMessages_countedAsDelayed_andNeverDelivered() {
		this.messages.send("q", OutgoingMessage.of(utf8("later")), 60);
		this.messages.sendAll("q", List.of(OutgoingMessage.of(utf8("much")), OutgoingMessage.of(utf8("later"))), 600);
		this.messages.push("q", utf8("now"));

		assertThat(this.operations.purge("q")).isEqualTo(4);
		assertThat(purged("delayed")).isEqualTo(3);
		assertThat(this.operations.queue("q")).isEmpty();
		this.clock.advance(Duration.ofSeconds(600));
		assertThat(this.messages.lease("q", 100)).isEmpty();
	}

	@Test
	void deleteQueue_explicitOrHoldingMessages_goesWithItsMessages() {
		assertThat(this.operations.deleteQueue("nothing")).isFalse();
		this.explicit.configure("empty", new QueueSettings.Change(null, null, null, null));
		assertThat(this.operations.exists("empty")).isTrue();
		assertThat(this.operations.deleteQueue("empty")).isTrue();
		assertThat(this.operations.exists("empty")).isFalse();

		this.messages.push("full", utf8("x"));
		assertThat(this.operations.deleteQueue("full")).isTrue();
		assertThat(this.operations.exists("full")).isFalse();
		assertThat(this.core.heldCount()).isZero();
	}

	/**
	 * Consumers lease and complete while a purge runs: each message ends exactly once,
	 * completed by its consumer or purged, and none stays.
	 */
	@Test
	void purgeWhilePolling_eachMessageEndsOnce() throws Exception {
		int messages = 5_000;
		for (int i = 0; i < messages; i += 100) {
			List<OutgoingMessage> batch = new ArrayList<>();
			for (int j = 0; j < 100; j++) {
				batch.add(OutgoingMessage.of(utf8("m" + (i + j))));
			}
			this.messages.sendAll("q", batch, null);
		}
		Set<Long> completedByConsumers = ConcurrentHashMap.newKeySet();
		AtomicBoolean duplicate = new AtomicBoolean();
		AtomicBoolean purging = new AtomicBoolean(true);
		CountDownLatch started = new CountDownLatch(2);
		ExecutorService pool = Executors.newFixedThreadPool(3);
		try {
			List<Future<?>> consumers = new ArrayList<>();
			for (int c = 0; c < 2; c++) {
				consumers.add(pool.submit(() -> {
					started.countDown();
					while (purging.get()) {
						for (Received lease : this.messages.lease("q", 10)) {
							if (this.messages.complete("q", lease.id(), null) == Completion.COMPLETED
									&& !completedByConsumers.add(lease.id())) {
								duplicate.set(true);
							}
						}
					}
				}));
			}
			Future<Integer> purge = pool.submit(() -> {
				started.await();
				try {
					return this.operations.purge("q");
				}
				finally {
					purging.set(false);
				}
			});
			int purged = purge.get(60, TimeUnit.SECONDS);
			for (Future<?> consumer : consumers) {
				consumer.get(60, TimeUnit.SECONDS);
			}
			assertThat(duplicate).as("a message completed twice").isFalse();
			assertThat(purged + completedByConsumers.size()).as("purged + completed by consumers").isEqualTo(messages);
			assertThat(this.core.heldCount()).isZero();
			assertThat(this.operations.queue("q")).isEmpty();
		}
		finally {
			pool.shutdownNow();
		}
	}

	private double purged(String state) {
		return this.registry.get("qs.messages.purged").tag("state", state).counter().count();
	}

}
