package io.github.qsbench.core.strategy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.tuple;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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
import io.github.qsbench.core.Delivery;
import io.github.qsbench.core.Eviction;
import io.github.qsbench.core.Lease;
import io.github.qsbench.core.Message;
import io.github.qsbench.core.Peeked;
import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.QueueStats;
import io.github.qsbench.core.TestCores;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Leases of their own, for every strategy: a lease asked for by the poll
 * ({@link QueueServiceCore#lease(String, int, long)}) and a lease changed by its holder
 * ({@link ByIdOperation#CHANGE_LEASE}). Each lapses at its own end, whatever the
 * service's lease and whatever the other deliveries' leases, and a change is decided
 * exactly as a completion is. Time moves by the injected clock.
 */
class OwnLeaseContractTests extends StrategyContract {

	@Override
	QueueOptions options(Eviction eviction) {
		return new QueueOptions(LEASE, eviction, this.clock, true, new Capacity.Limits(10_000, 10_000, Long.MAX_VALUE));
	}

	@Test
	void ownLease_shorterThanTheService_lapsesFirst_andOthersStillAtTheirs() {
		this.service.push("q", "default");
		this.service.push("q", "short");
		Lease usual = this.service.lease("q", 1).get(0);
		this.service.lease("q", 1, seconds(5));

		this.clock.advance(Duration.ofSeconds(5));
		assertThat(this.service.lease("q", 10)).as("only the short lease lapsed")
			.singleElement()
			.satisfies(lease -> assertThat(lease.message().text()).isEqualTo("short"))
			.extracting(Lease::delivery)
			.isEqualTo(2);

		this.clock.advance(Duration.ofSeconds(25));
		assertThat(this.service.lease("q", 10)).singleElement()
			.extracting(lease -> lease.message().id())
			.isEqualTo(usual.message().id());
	}

	@Test
	void ownLease_longerThanTheService_heldUntilItsEnd() {
		this.service.push("q", "long");
		this.service.lease("q", 1, seconds(90));

		this.clock.advance(LEASE);
		assertThat(this.service.lease("q", 1)).as("past the service's lease").isEmpty();
		assertThat(this.service.hasReady("q")).isFalse();
		this.clock.advance(Duration.ofSeconds(60));
		assertThat(this.service.hasReady("q")).isTrue();
		assertThat(this.service.lease("q", 1)).singleElement().extracting(Lease::delivery).isEqualTo(2);
	}

	@Test
	void ownLease_zero_readyAgainAtOnce() {
		this.service.push("q", "peek-like");
		Lease first = this.service.lease("q", 1, 0).get(0);

		Lease second = this.service.lease("q", 1).get(0);
		assertThat(second.message().id()).isEqualTo(first.message().id());
		assertThat(second.delivery()).isEqualTo(2);
		assertThat(complete(first)).isEqualTo(Completion.STALE_LEASE);
	}

	@Test
	void changeLease_extends_theTokenStaysValid() {
		this.service.push("q", "slow work");
		Lease lease = this.service.lease("q", 1).get(0);

		assertThat(change(lease, 60)).isEqualTo(ByIdOutcome.DONE);
		this.clock.advance(LEASE);
		assertThat(this.service.lease("q", 1)).as("extended past the service's lease").isEmpty();
		assertThat(this.service.queue("q")).contains(new QueueStats("q", 0, 1));
		assertThat(complete(lease)).isEqualTo(Completion.COMPLETED);
		assertThat(this.service.heldCount()).isZero();
		assertThat(this.service.queueCount()).isZero();
	}

	@Test
	void changeLease_extendedLapsesAtItsNewEnd() {
		this.service.push("q", "m");
		Lease lease = this.service.lease("q", 1).get(0);
		this.clock.advance(Duration.ofSeconds(20));
		change(lease, 60);

		this.clock.advance(Duration.ofSeconds(59));
		assertThat(this.service.lease("q", 1)).isEmpty();
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(this.service.lease("q", 1)).singleElement().extracting(Lease::delivery).isEqualTo(2);
	}

	@Test
	void changeLease_toZero_readyAtOnce_andTheOldLeaseStaleOnceDeliveredAgain() {
		this.service.push("q", "give back");
		Lease lease = this.service.lease("q", 1).get(0);

		assertThat(change(lease, 0)).isEqualTo(ByIdOutcome.DONE);
		assertThat(this.service.hasReady("q")).isTrue();
		Lease again = this.service.lease("q", 1).get(0);
		assertThat(again.delivery()).isEqualTo(2);
		assertThat(change(lease, 10)).isEqualTo(ByIdOutcome.STALE_LEASE);
		assertThat(complete(lease)).isEqualTo(Completion.STALE_LEASE);
		assertThat(complete(again)).isEqualTo(Completion.COMPLETED);
		assertThat(this.service.heldCount()).isZero();
	}

	@Test
	void changeLease_shortensAnOwnLease() {
		this.service.push("q", "m");
		Lease lease = this.service.lease("q", 1, seconds(600)).get(0);

		change(lease, 5);
		this.clock.advance(Duration.ofSeconds(5));
		assertThat(this.service.lease("q", 1)).singleElement().extracting(Lease::delivery).isEqualTo(2);
	}

	/** An extended lease must not hold back the leases behind it that end sooner. */
	@Test
	void changeLease_extendedHead_doesNotHoldBackOthers() {
		for (String body : List.of("a", "b", "c")) {
			this.service.push("q", body);
		}
		List<Lease> leases = this.service.lease("q", 3);
		change(leases.get(0), 120);

		this.clock.advance(LEASE);
		assertThat(this.service.lease("q", 10)).extracting(lease -> lease.message().text())
			.containsExactlyInAnyOrder("b", "c");
	}

	@Test
	void changeLease_refusedAsACompletionWouldBe() {
		Message never = this.service.push("q", "never polled");
		this.service.push("other", "o");
		Lease stale = this.service.lease("other", 1).get(0);
		this.clock.advance(LEASE);
		Lease current = this.service.lease("other", 1).get(0);

		assertThat(this.service.byId("q", never.id(), ByIdOperation.CHANGE_LEASE, 1, 10))
			.isEqualTo(ByIdOutcome.NOT_DELIVERED);
		assertThat(this.service.byId("q", 999_999, ByIdOperation.CHANGE_LEASE, 1, 10)).isEqualTo(ByIdOutcome.NOT_FOUND);
		assertThat(this.service.byId("nowhere", current.message().id(), ByIdOperation.CHANGE_LEASE, 2, 10))
			.isEqualTo(ByIdOutcome.NOT_FOUND);
		assertThat(this.service.byId("q", current.message().id(), ByIdOperation.CHANGE_LEASE, 2, 10))
			.as("another queue's message")
			.isEqualTo(ByIdOutcome.NOT_FOUND);
		assertThat(this.service.byId("other", stale.message().id(), ByIdOperation.CHANGE_LEASE, stale.delivery(), 10))
			.isEqualTo(ByIdOutcome.STALE_LEASE);
		this.service.complete("other", current.message().id(), current.delivery());
		assertThat(
				this.service.byId("other", current.message().id(), ByIdOperation.CHANGE_LEASE, current.delivery(), 10))
			.isEqualTo(ByIdOutcome.NOT_FOUND);
	}

	@Test
	void withoutIdLookup_refused() {
		QueueServiceCore thesis = newService(new QueueOptions(LEASE, Eviction.LAZY, this.clock, false));
		assertThatIllegalStateException().isThrownBy(() -> thesis.byId("q", 1, ByIdOperation.CHANGE_LEASE, 1, 10));
		assertThatIllegalStateException().isThrownBy(() -> thesis.lease("q", 1, 10));
	}

	@Test
	void peek_andCounts_seeOwnLeases() {
		this.service.push("q", "own");
		this.service.push("q", "usual");
		this.service.push("q", "waiting");
		this.service.lease("q", 1, seconds(10));
		this.service.lease("q", 1);

		assertThat(this.service.queue("q")).contains(new QueueStats("q", 1, 2));
		assertThat(this.service.peek("q", 10)).extracting(peeked -> peeked.message().text(), Peeked::state)
			.containsExactlyInAnyOrder(tuple("own", Peeked.State.IN_FLIGHT), tuple("usual", Peeked.State.IN_FLIGHT),
					tuple("waiting", Peeked.State.READY));
		this.clock.advance(Duration.ofSeconds(10));
		assertThat(this.service.peek("q", 10)).filteredOn(peeked -> peeked.message().text().equals("own"))
			.singleElement()
			.extracting(Peeked::state)
			.isEqualTo(Peeked.State.READY);
	}

	/**
	 * Completed under a lease of its own, or after a change, a message leaves memory and
	 * its queue goes, in both eviction modes, also when it completes behind another.
	 */
	@ParameterizedTest
	@EnumSource(Eviction.class)
	void completedOwnLeases_nothingLeft(Eviction eviction) {
		this.service = newService(eviction);
		this.service.push("q", "a");
		this.service.push("q", "b");
		this.service.push("q", "c");
		Lease a = this.service.lease("q", 1, seconds(100)).get(0);
		Lease b = this.service.lease("q", 1, seconds(50)).get(0);
		Lease c = this.service.lease("q", 1).get(0);
		change(c, 200);

		assertThat(complete(b)).isEqualTo(Completion.COMPLETED);
		assertThat(complete(c)).isEqualTo(Completion.COMPLETED);
		assertThat(complete(a)).isEqualTo(Completion.COMPLETED);
		this.service.lease("q", 1);
		assertThat(this.service.heldCount()).isZero();
		assertThat(this.service.queueCount()).isZero();
		TestCores.assertNothingCharged(this.strategy, this.service);
	}

	/**
	 * A holder extends its lease just as it lapses while another consumer polls: either
	 * the change wins (the poll finds nothing) or the redelivery does (the change is
	 * refused as stale); never both.
	 */
	@Test
	void changeLease_racingARedelivery_oneWins() throws Exception {
		assumeTrue(this.strategy.delivery(Eviction.LAZY) == Delivery.EXACTLY_ONCE, "at-least-once may let both win");
		ExecutorService threads = Executors.newFixedThreadPool(2);
		try {
			for (int round = 0; round < 1_000; round++) {
				this.service.push("q", "contested");
				Lease lapsed = this.service.lease("q", 1).get(0);
				this.clock.advance(LEASE);
				CyclicBarrier start = new CyclicBarrier(2);
				Future<ByIdOutcome> change = threads.submit(() -> {
					start.await();
					return change(lapsed, 60);
				});
				Future<List<Lease>> redelivery = threads.submit(() -> {
					start.await();
					return this.service.lease("q", 1);
				});
				ByIdOutcome changed = change.get(10, TimeUnit.SECONDS);
				List<Lease> redelivered = redelivery.get(10, TimeUnit.SECONDS);
				Lease holder;
				if (changed == ByIdOutcome.DONE) {
					assertThat(redelivered).as("round %d: extended, nothing to redeliver", round).isEmpty();
					holder = lapsed;
				}
				else {
					assertThat(changed).as("round %d", round).isEqualTo(ByIdOutcome.STALE_LEASE);
					assertThat(redelivered).as("round %d", round)
						.singleElement()
						.extracting(Lease::delivery)
						.isEqualTo(2);
					holder = redelivered.get(0);
				}
				assertThat(complete(holder)).as("round %d", round).isEqualTo(Completion.COMPLETED);
				assertThat(this.service.heldCount()).isZero();
			}
			this.service.lease("q", 1);
			assertThat(this.service.queueCount()).isZero();
		}
		finally {
			threads.shutdownNow();
		}
	}

	/**
	 * A change racing a completion of the same delivery: the completion always counts,
	 * the change may or may not, and the message leaves memory either way.
	 */
	@Test
	void changeLease_racingACompletion_messageEndsOnce() throws Exception {
		ExecutorService threads = Executors.newFixedThreadPool(2);
		try {
			for (int round = 0; round < 1_000; round++) {
				this.service.push("q", "contested");
				Lease lease = this.service.lease("q", 1).get(0);
				int seconds = (round % 2 == 0) ? 60 : 30; // to the sorted record, or back
				CyclicBarrier start = new CyclicBarrier(2);
				Future<ByIdOutcome> change = threads.submit(() -> {
					start.await();
					return change(lease, seconds);
				});
				Future<Completion> completion = threads.submit(() -> {
					start.await();
					return complete(lease);
				});
				assertThat(completion.get(10, TimeUnit.SECONDS)).as("round %d", round).isEqualTo(Completion.COMPLETED);
				assertThat(change.get(10, TimeUnit.SECONDS)).as("round %d", round)
					.isIn(ByIdOutcome.DONE, ByIdOutcome.NOT_FOUND);
				assertThat(this.service.heldCount()).isZero();
			}
			this.clock.advance(Duration.ofSeconds(61));
			assertThat(this.service.lease("q", 1)).isEmpty();
			assertThat(this.service.queueCount()).isZero();
			TestCores.assertNothingCharged(this.strategy, this.service);
		}
		finally {
			threads.shutdownNow();
		}
	}

	private static long seconds(int seconds) {
		return Duration.ofSeconds(seconds).toMillis();
	}

	private ByIdOutcome change(Lease lease, int seconds) {
		return this.service.byId("q", lease.message().id(), ByIdOperation.CHANGE_LEASE, lease.delivery(),
				seconds(seconds));
	}

	private Completion complete(Lease lease) {
		return this.service.complete("q", lease.message().id(), lease.delivery());
	}

}
