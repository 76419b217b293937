package io.github.qsbench.core.strategy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.tuple;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.qsbench.core.ByIdOperation;
import io.github.qsbench.core.ByIdOutcome;
import io.github.qsbench.core.Capacity;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.Eviction;
import io.github.qsbench.core.Lease;
import io.github.qsbench.core.Message;
import io.github.qsbench.core.Peeked;
import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.QueueStats;
import io.github.qsbench.core.TestBodies;
import io.github.qsbench.core.TestCores;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Delayed messages and discarding, for every strategy: a delayed message is held and
 * counted as delayed, never delivered before its delay ends, and delivered like any other
 * after; a discard removes a message whatever its state, exactly once against completions
 * and deliveries, and leaves nothing behind. Time moves by the injected clock.
 */
class DelayAndDiscardContractTests extends StrategyContract {

	@Override
	QueueOptions options(Eviction eviction) {
		return new QueueOptions(LEASE, eviction, this.clock, true, new Capacity.Limits(10_000, 10_000, Long.MAX_VALUE));
	}

	@Test
	void delayed_heldAndCounted_deliveredOnlyOnceDue() {
		Message late = delay("q", "late", 10);
		this.service.push("q", "now");

		assertThat(this.service.queue("q")).contains(new QueueStats("q", 1, 0, 1));
		assertThat(this.service.lease("q", 10)).extracting(lease -> lease.message().text()).containsExactly("now");
		assertThat(this.service.hasReady("q")).isFalse();
		assertThat(this.service.peek("q", 10)).extracting(peeked -> peeked.message().text(), Peeked::state)
			.containsExactlyInAnyOrder(tuple("late", Peeked.State.DELAYED), tuple("now", Peeked.State.IN_FLIGHT));
		assertThat(this.service.heldCount()).isEqualTo(2);

		this.clock.advance(Duration.ofSeconds(9));
		assertThat(this.service.lease("q", 10)).isEmpty();
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(this.service.queue("q")).as("due: ready").contains(new QueueStats("q", 1, 1, 0));
		assertThat(this.service.hasReady("q")).isTrue();
		assertThat(this.service.peek("q", 10)).filteredOn(peeked -> peeked.message().id() == late.id())
			.singleElement()
			.extracting(Peeked::state)
			.isEqualTo(Peeked.State.READY);
		Lease lease = this.service.lease("q", 10).get(0);
		assertThat(lease.message().id()).isEqualTo(late.id());
		assertThat(lease.delivery()).isEqualTo(1);
		assertThat(this.service.queue("q")).contains(new QueueStats("q", 0, 2, 0));
	}

	@Test
	void delayed_eachAtItsOwnEnd_thenLeasedAndRedeliveredAsAnyOther() {
		delay("q", "twenty", 20);
		delay("q", "ten", 10);

		this.clock.advance(Duration.ofSeconds(10));
		Lease ten = this.service.lease("q", 10).get(0);
		assertThat(ten.message().text()).isEqualTo("ten");
		this.clock.advance(Duration.ofSeconds(10));
		assertThat(this.service.lease("q", 10)).extracting(lease -> lease.message().text()).containsExactly("twenty");

		this.clock.advance(LEASE);
		assertThat(this.service.lease("q", 10)).extracting(Lease::delivery).containsExactly(2, 2);
	}

	@Test
	void endDelay_readyNow_onlyForADelayedMessage() {
		Message late = delay("q", "late", 60);
		Message ready = this.service.push("q", "ready");
		Message gone = delay("q", "gone", 60);
		this.service.byId("q", gone.id(), ByIdOperation.DISCARD);

		assertThat(this.service.byId("q", ready.id(), ByIdOperation.END_DELAY)).as("not delayed")
			.isEqualTo(ByIdOutcome.NOT_FOUND);
		assertThat(this.service.byId("q", gone.id(), ByIdOperation.END_DELAY)).as("discarded")
			.isEqualTo(ByIdOutcome.NOT_FOUND);
		assertThat(this.service.byId("other", late.id(), ByIdOperation.END_DELAY)).isEqualTo(ByIdOutcome.NOT_FOUND);
		assertThat(this.service.byId("q", late.id(), ByIdOperation.END_DELAY)).isEqualTo(ByIdOutcome.DONE);
		assertThat(this.service.queue("q")).contains(new QueueStats("q", 2, 0, 0));
		assertThat(this.service.lease("q", 10)).extracting(lease -> lease.message().text())
			.containsExactlyInAnyOrder("ready", "late");
		assertThat(this.service.byId("q", late.id(), ByIdOperation.END_DELAY)).as("delivered")
			.isEqualTo(ByIdOutcome.NOT_FOUND);
	}

	@Test
	void delayed_notCompletableBeforeDelivery() {
		Message late = delay("q", "late", 10);

		assertThat(this.service.complete("q", late.id(), 1)).isEqualTo(Completion.NOT_DELIVERED);
		assertThat(this.service.complete("q", late.id())).isEqualTo(Completion.NOT_DELIVERED);
	}

	/** Ready, delayed, in flight and lapsed: each discarded once, and nothing is left. */
	@ParameterizedTest
	@EnumSource(Eviction.class)
	void discard_anyState_once_nothingLeft(Eviction eviction) {
		this.service = newService(eviction);
		Message ready = this.service.push("q", "ready");
		Message held = this.service.push("q", "held");
		Message lapsed = this.service.push("q", "lapsed");
		Message behind = this.service.push("q", "behind");
		Message delayed = delay("q", "delayed", 60);
		this.service.byId("q", ready.id(), ByIdOperation.DISCARD);
		List<Lease> leases = this.service.lease("q", 3);
		assertThat(leases).extracting(lease -> lease.message().id())
			.containsExactly(held.id(), lapsed.id(), behind.id());
		this.service.byId("q", lapsed.id(), ByIdOperation.CHANGE_LEASE, 1, 0);

		assertThat(this.service.byId("q", ready.id(), ByIdOperation.DISCARD)).as("twice")
			.isEqualTo(ByIdOutcome.NOT_FOUND);
		assertThat(this.service.byId("q", held.id(), ByIdOperation.DISCARD)).isEqualTo(ByIdOutcome.DONE);
		assertThat(this.service.byId("q", lapsed.id(), ByIdOperation.DISCARD)).isEqualTo(ByIdOutcome.DONE);
		assertThat(this.service.byId("q", delayed.id(), ByIdOperation.DISCARD)).isEqualTo(ByIdOutcome.DONE);
		assertThat(this.service.byId("other", behind.id(), ByIdOperation.DISCARD)).isEqualTo(ByIdOutcome.NOT_FOUND);
		assertThat(this.service.byId("q", 999_999, ByIdOperation.DISCARD)).isEqualTo(ByIdOutcome.NOT_FOUND);
		assertThat(this.service.complete("q", held.id(), 1)).as("its holder").isEqualTo(Completion.NOT_FOUND);
		assertThat(this.service.queue("q")).contains(new QueueStats("q", 0, 1, 0));
		assertThat(this.service.peek("q", 10)).extracting(peeked -> peeked.message().id()).containsExactly(behind.id());
		assertThat(this.service.heldCount()).isEqualTo(1);

		assertThat(this.service.byId("q", behind.id(), ByIdOperation.DISCARD)).isEqualTo(ByIdOutcome.DONE);
		this.clock.advance(Duration.ofSeconds(60));
		assertThat(this.service.lease("q", 10)).as("nothing comes back").isEmpty();
		assertEmpty();
	}

	@Test
	void discard_readyBehindOthers_neverDelivered() {
		this.service.push("q", "a");
		Message b = this.service.push("q", "b");
		this.service.push("q", "c");

		assertThat(this.service.byId("q", b.id(), ByIdOperation.DISCARD)).isEqualTo(ByIdOutcome.DONE);
		assertThat(this.service.queue("q")).contains(new QueueStats("q", 2, 0, 0));
		assertThat(this.service.lease("q", 10)).extracting(lease -> lease.message().text()).containsExactly("a", "c");
	}

	@Test
	void withoutIdLookup_discardRefused() {
		QueueServiceCore thesis = newService(new QueueOptions(LEASE, Eviction.LAZY, this.clock, false));
		assertThatIllegalStateException().isThrownBy(() -> thesis.byId("q", 1, ByIdOperation.DISCARD));
	}

	/**
	 * A discard racing the first delivery of a message whose delay just ended: whoever
	 * wins, the message ends once (a delivery that won is discarded as in flight, and its
	 * holder's completion is refused), and nothing is left.
	 */
	@Test
	void discard_racingTheDeliveryOfADueMessage_endsOnce() throws Exception {
		ExecutorService threads = Executors.newFixedThreadPool(2);
		try {
			for (int round = 0; round < 500; round++) {
				Message message = delay("q", "due", 1);
				this.clock.advance(Duration.ofSeconds(1));
				CyclicBarrier start = new CyclicBarrier(2);
				Future<ByIdOutcome> discard = threads.submit(() -> {
					start.await();
					return this.service.byId("q", message.id(), ByIdOperation.DISCARD);
				});
				Future<List<Lease>> delivery = threads.submit(() -> {
					start.await();
					return this.service.lease("q", 1);
				});
				assertThat(discard.get(10, TimeUnit.SECONDS)).as("round %d", round).isEqualTo(ByIdOutcome.DONE);
				for (Lease lease : delivery.get(10, TimeUnit.SECONDS)) {
					assertThat(this.service.complete("q", lease.message().id(), lease.delivery())).as("round %d", round)
						.isEqualTo(Completion.NOT_FOUND);
				}
				assertThat(this.service.heldCount()).isZero();
			}
			this.service.lease("q", 1);
			assertEmpty();
		}
		finally {
			threads.shutdownNow();
		}
	}

	/** A discard racing a completion: exactly one of them removes the message. */
	@Test
	void discard_racingACompletion_exactlyOneWins() throws Exception {
		ExecutorService threads = Executors.newFixedThreadPool(2);
		try {
			for (int round = 0; round < 500; round++) {
				this.service.push("q", "contested");
				Lease lease = this.service.lease("q", 1).get(0);
				CyclicBarrier start = new CyclicBarrier(2);
				Future<ByIdOutcome> discard = threads.submit(() -> {
					start.await();
					return this.service.byId("q", lease.message().id(), ByIdOperation.DISCARD);
				});
				Future<Completion> completion = threads.submit(() -> {
					start.await();
					return this.service.complete("q", lease.message().id(), lease.delivery());
				});
				assertThat(List.of(discard.get(10, TimeUnit.SECONDS),
						ByIdOutcome.of(completion.get(10, TimeUnit.SECONDS))))
					.as("round %d", round)
					.containsExactlyInAnyOrder(ByIdOutcome.DONE, ByIdOutcome.NOT_FOUND);
				assertThat(this.service.heldCount()).isZero();
			}
			this.service.lease("q", 1);
			assertEmpty();
		}
		finally {
			threads.shutdownNow();
		}
	}

	private Message delay(String queue, String body, int seconds) {
		return this.service.pushAll(queue, TestBodies.utf8(body), Duration.ofSeconds(seconds).toMillis()).get(0);
	}

	private void assertEmpty() {
		assertThat(this.service.queueCount()).as("queues").isZero();
		assertThat(this.service.heldCount()).as("held").isZero();
		TestCores.assertNothingCharged(this.strategy, this.service);
	}

}
