package io.github.qsbench.core.strategy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.TestBodies;
import io.github.qsbench.core.Capacity;
import io.github.qsbench.core.CapacityExceededException;
import io.github.qsbench.core.ByIdOutcome;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.Delivery;
import io.github.qsbench.core.Eviction;
import io.github.qsbench.core.Lease;
import io.github.qsbench.core.Message;
import io.github.qsbench.core.MutableClock;
import io.github.qsbench.core.Peeked;
import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.QueueStats;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What every strategy must do, run once per constant of {@link Strategy}, so a new
 * strategy is held to the contract as soon as it exists. Where a guarantee differs
 * between strategies, the test asks {@link Strategy#delivery(Eviction)}, never a name.
 * Time is a {@link MutableClock}: leases expire because a test moves the clock, never by
 * sleeping.
 */
class QueueServiceContractTests extends StrategyContract {

	@Test
	void push_thenPoll_deliversBodyOnce() {
		Message pushed = this.service.push("q", "hello");

		Message polled = this.service.poll("q").orElseThrow();

		assertThat(polled.id()).isEqualTo(pushed.id());
		assertThat(polled.text()).isEqualTo("hello");
		assertThat(polled.deliveries()).isEqualTo(1);
		assertThat(this.service.poll("q")).as("held by its consumer").isEmpty();
	}

	@Test
	void poll_fifoWithinQueue() {
		for (int i = 0; i < 5; i++) {
			this.service.push("q", "m" + i);
		}
		for (int i = 0; i < 5; i++) {
			assertThat(this.service.poll("q").orElseThrow().text()).isEqualTo("m" + i);
		}
	}

	@Test
	void poll_queuesAreIndependent() {
		this.service.push("a", "for a");
		this.service.push("b", "for b");

		assertThat(this.service.poll("b").orElseThrow().text()).isEqualTo("for b");
		assertThat(this.service.poll("b")).isEmpty();
		assertThat(this.service.poll("a").orElseThrow().text()).isEqualTo("for a");
	}

	@Test
	void poll_unknownQueue_nothing() {
		assertThat(this.service.poll("never-pushed")).isEmpty();
	}

	@Test
	void poll_drainedQueue_nothing() {
		this.service.complete("q", pushAndPoll("q", "only"));

		assertThat(this.service.poll("q")).isEmpty();
	}

	@Test
	void push_sameBodyTwice_twoMessages() {
		String body = "same";
		Message first = this.service.push("q", body);
		Message second = this.service.push("q", body);

		assertThat(first.id()).isNotEqualTo(second.id());
		assertThat(this.service.poll("q").orElseThrow().id()).isEqualTo(first.id());
		assertThat(this.service.poll("q").orElseThrow().id()).isEqualTo(second.id());
	}

	@Test
	void push_idsIncreaseAcrossQueues() {
		long a = this.service.push("a", "x").id();
		long b = this.service.push("b", "x").id();

		assertThat(a).isPositive();
		assertThat(b).isGreaterThan(a);
	}

	@Test
	void complete_polledMessage_neverComesBack() {
		Message message = pushAndPoll("q", "done");

		assertThat(this.service.complete("q", message)).isTrue();
		this.clock.advance(LEASE.multipliedBy(3));

		assertThat(this.service.poll("q")).isEmpty();
	}

	@Test
	void complete_twice_secondReturnsFalse() {
		Message message = pushAndPoll("q", "done");

		assertThat(this.service.complete("q", message)).isTrue();
		assertThat(this.service.complete("q", message)).isFalse();
	}

	@Test
	void poll_uncompleted_comesBackAfterLeaseNotBefore() {
		Message first = pushAndPoll("q", "slow consumer");

		this.clock.advance(LEASE.minusMillis(1));
		assertThat(this.service.poll("q")).as("lease not yet expired").isEmpty();

		this.clock.advance(Duration.ofMillis(1));
		Message again = this.service.poll("q").orElseThrow();
		assertThat(again.id()).isEqualTo(first.id());
		assertThat(again.deliveries()).isEqualTo(2);
		assertThat(this.service.poll("q")).as("leased again").isEmpty();
	}

	@Test
	void poll_expiredMessage_comesBeforeLaterMessages() {
		Message early = pushAndPoll("q", "early");
		this.service.push("q", "late");

		this.clock.advance(LEASE);

		assertThat(this.service.poll("q").orElseThrow().id()).isEqualTo(early.id());
		assertThat(this.service.poll("q").orElseThrow().text()).isEqualTo("late");
	}

	@Test
	void poll_skipsInFlightMessages() {
		pushAndPoll("q", "held");
		this.service.push("q", "next");

		assertThat(this.service.poll("q").orElseThrow().text()).isEqualTo("next");
	}

	@Test
	void emptyQueue_disappearsWhenItsLastMessageIsCompleted() {
		this.service.complete("q", pushAndPoll("q", "only"));

		assertThat(this.service.queueCount()).as("dropped from the head at completion").isZero();
		assertThat(this.service.queue("q")).isEmpty();
		assertThat(this.service.queues()).isEmpty();
	}

	@Test
	void thesisSetting_emptyQueue_disappearsOnNextPoll() {
		assumeTrue(this.strategy.framework() != Strategy.Framework.EXTERNAL,
				"lazy eviction is the in-process frameworks'");
		QueueServiceCore thesis = newService(new QueueOptions(LEASE, Eviction.LAZY, this.clock, false));
		thesis.push("q", "only");
		thesis.complete("q", thesis.poll("q").orElseThrow());
		assertThat(thesis.queueCount()).as("lazy eviction keeps it until a poll walks it").isEqualTo(1);

		assertThat(thesis.poll("q")).isEmpty();

		assertThat(thesis.queueCount()).isZero();
	}

	@Test
	void queueWithInFlightMessage_staysAfterPoll() {
		pushAndPoll("q", "held");

		assertThat(this.service.poll("q")).isEmpty();

		assertThat(this.service.queue("q")).contains(new QueueStats("q", 0, 1));
	}

	@Test
	void push_toRemovedQueue_createsItAgain() {
		this.service.complete("q", pushAndPoll("q", "first"));
		this.service.poll("q");

		this.service.push("q", "second");

		assertThat(this.service.poll("q").orElseThrow().text()).isEqualTo("second");
	}

	@Test
	void eagerEviction_completeRemovesMessageAndQueue() {
		this.service = newService(Eviction.EAGER);
		this.service.push("q", "a");
		Message a = this.service.poll("q").orElseThrow();
		this.service.push("q", "b");

		this.service.complete("q", a);
		assertThat(this.service.queue("q")).contains(new QueueStats("q", 1, 0));

		this.service.complete("q", this.service.poll("q").orElseThrow());
		assertThat(this.service.queueCount()).as("removed by the completion, no poll needed").isZero();
		assertThat(this.service.heldCount()).isZero();
	}

	@Test
	void eagerEviction_redeliversAfterLease() {
		this.service = newService(Eviction.EAGER);
		Message first = pushAndPoll("q", "slow");

		this.clock.advance(LEASE);

		assertThat(this.service.poll("q").orElseThrow().id()).isEqualTo(first.id());
	}

	@Test
	void queues_countReadyAndInFlight() {
		this.service.push("b", "1");
		this.service.push("a", "1");
		this.service.push("a", "2");
		this.service.push("a", "3");
		this.service.poll("a");

		assertThat(this.service.queues()).containsExactly(new QueueStats("a", 2, 1), new QueueStats("b", 1, 0));

		this.clock.advance(LEASE);
		assertThat(this.service.queue("a")).as("a lapsed lease counts as in flight until redelivered")
			.contains(new QueueStats("a", 2, 1));
		this.service.poll("a");
		assertThat(this.service.queue("a")).as("redelivered").contains(new QueueStats("a", 2, 1));
		this.service.complete("a", this.service.poll("a").orElseThrow());
		assertThat(this.service.queue("a")).contains(new QueueStats("a", 1, 1));
	}

	@Test
	void hasReady_stopsAtTheFirstReadyMessage() {
		assertThat(this.service.hasReady("q")).isFalse();
		pushAndPoll("q", "held");
		assertThat(this.service.hasReady("q")).as("only one in flight").isFalse();

		this.service.push("q", "next");
		assertThat(this.service.hasReady("q")).isTrue();
		assertThat(this.service.poll("q").orElseThrow().text()).as("a look leases nothing").isEqualTo("next");

		this.clock.advance(LEASE);
		assertThat(this.service.hasReady("q")).as("lapsed leases").isTrue();
	}

	@Test
	void peek_showsReadyMessagesInOrder_andLeasesNothing() {
		List<Long> ids = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			ids.add(this.service.push("q", "m" + i).id());
		}

		List<Peeked> seen = this.service.peek("q", 3);

		assertThat(seen).extracting(one -> one.message().id()).containsExactlyElementsOf(ids.subList(0, 3));
		assertThat(seen).allSatisfy(one -> {
			assertThat(one.state()).isEqualTo(Peeked.State.READY);
			assertThat(one.deliveries()).isZero();
		});
		assertThat(this.service.peek("q", 100)).hasSize(5);
		List<Lease> leased = this.service.lease("q", 1);
		assertThat(leased.get(0).message().id()).as("a browse leases nothing").isEqualTo(ids.get(0));
		assertThat(leased.get(0).delivery()).isEqualTo(1);
	}

	@Test
	void peek_showsInFlight_lapsed_andNotCompleted() {
		Message held = this.service.push("q", "held");
		Message done = this.service.push("q", "done");
		Message ready = this.service.push("q", "ready");
		this.service.lease("q", 2);
		assertThat(this.service.complete("q", done.id())).isEqualTo(Completion.COMPLETED);

		assertThat(states(this.service.peek("q", 10))).containsExactlyInAnyOrder(held.id() + " IN_FLIGHT 1",
				ready.id() + " READY 0");

		this.clock.advance(LEASE);
		assertThat(states(this.service.peek("q", 10))).as("lapsed")
			.containsExactlyInAnyOrder(held.id() + " READY 1", ready.id() + " READY 0");
		assertThat(this.service.peek("q", 1)).hasSize(1);
		assertThat(this.service.peek("other", 10)).isEmpty();
	}

	private static List<String> states(List<Peeked> seen) {
		return seen.stream().map(one -> one.message().id() + " " + one.state() + " " + one.deliveries()).toList();
	}

	@Test
	void lastId_isTheLatestPushsId() {
		assertThat(this.service.lastId()).isZero();
		Message first = this.service.push("a", "x");
		List<Message> batch = this.service.pushAll("b", TestBodies.utf8("y", "z"));
		assertThat(this.service.lastId()).isEqualTo(batch.get(1).id()).isGreaterThan(first.id());
	}

	@Test
	void completeById_delivered_completes() {
		Message message = pushAndPoll("q", "by id");

		assertThat(this.service.complete("q", message.id())).isEqualTo(Completion.COMPLETED);
		assertThat(this.service.complete("q", message.id())).as("second time").isEqualTo(Completion.NOT_FOUND);
		this.clock.advance(LEASE);
		assertThat(this.service.poll("q")).isEmpty();
		assertThat(this.service.heldCount()).isZero();
	}

	@Test
	void completeById_unknownOrOtherQueue_notFound() {
		Message message = pushAndPoll("q", "x");

		assertThat(this.service.complete("q", message.id() + 1)).isEqualTo(Completion.NOT_FOUND);
		assertThat(this.service.complete("other", message.id())).isEqualTo(Completion.NOT_FOUND);
		assertThat(this.service.complete("q", message.id())).as("untouched by the misses")
			.isEqualTo(Completion.COMPLETED);
	}

	@Test
	void completeById_neverPolled_notDeliveredAndStillReady() {
		Message message = this.service.push("q", "x");

		assertThat(this.service.complete("q", message.id())).isEqualTo(Completion.NOT_DELIVERED);

		assertThat(this.service.poll("q").orElseThrow().id()).isEqualTo(message.id());
	}

	@Test
	void completeById_afterLeaseLapsed_stillCompletes() {
		Message message = pushAndPoll("q", "late consumer");
		this.clock.advance(LEASE);

		assertThat(this.service.complete("q", message.id())).isEqualTo(Completion.COMPLETED);
		assertThat(this.service.poll("q")).isEmpty();
	}

	@Test
	void withoutIdLookup_completeByIdRefused() {
		QueueServiceCore plain = newService(new QueueOptions(LEASE, Eviction.LAZY, this.clock, false));
		Message message = plain.push("q", "x");
		plain.poll("q");

		assertThatIllegalStateException().isThrownBy(() -> plain.complete("q", message.id()));
		assertThat(plain.complete("q", message)).isTrue();
	}

	@Test
	void heldCount_countsPushedAndNotCompleted() {
		this.service.push("q", "1");
		Message second = this.service.push("q", "2");
		assertThat(this.service.heldCount()).isEqualTo(2);

		this.service.poll("q");
		this.service.poll("q");
		this.service.complete("q", second.id());

		assertThat(this.service.heldCount()).isEqualTo(1);
	}

	@Test
	void capacity_totalBytes_refusesWithoutChangeAndRecovers() {
		assumeTrue(heapCaps(), HEAP_CAPS_ONLY);
		long charge = Capacity.charge("x".getBytes(StandardCharsets.UTF_8));
		this.service = withLimits(new Capacity.Limits(10, 10, 2 * charge));
		this.service.push("q", "x");
		this.service.push("other", "x");

		assertThatExceptionOfType(CapacityExceededException.class).isThrownBy(() -> this.service.push("q", "x"))
			.satisfies(ex -> assertThat(ex.limit()).isEqualTo(Capacity.Limit.TOTAL_BYTES))
			.satisfies(ex -> assertThat(ex.max()).isEqualTo(2 * charge));
		assertThat(this.service.heldCount()).isEqualTo(2);
		assertThat(this.service.capacity().orElseThrow().heldBytes()).isEqualTo(2 * charge);

		this.service.complete("q", this.service.poll("q").orElseThrow());
		this.service.push("q", "x");
		assertThat(this.service.heldCount()).isEqualTo(2);
	}

	@Test
	void capacity_messagesPerQueue_refusesOnlyThatQueue() {
		this.service = withLimits(new Capacity.Limits(10, 2, Long.MAX_VALUE));
		this.service.push("q", "1");
		this.service.push("q", "2");

		assertThatExceptionOfType(CapacityExceededException.class).isThrownBy(() -> this.service.push("q", "3"))
			.satisfies(ex -> assertThat(ex.limit()).isEqualTo(Capacity.Limit.MESSAGES_PER_QUEUE));
		this.service.push("other", "1");

		assertThat(this.service.poll("q").orElseThrow().text()).isEqualTo("1");
		assertThat(this.service.poll("q").orElseThrow().text()).isEqualTo("2");
		assertThat(this.service.poll("q")).as("the refused push left nothing").isEmpty();
	}

	@Test
	void capacity_queues_refusesNewQueueUntilOneEmpties() {
		assumeTrue(heapCaps(), HEAP_CAPS_ONLY);
		this.service = withLimits(new Capacity.Limits(1, 10, Long.MAX_VALUE));
		Message first = this.service.push("q", "1");
		this.service.push("q", "2");

		assertThatExceptionOfType(CapacityExceededException.class).isThrownBy(() -> this.service.push("new", "x"))
			.satisfies(ex -> assertThat(ex.limit()).isEqualTo(Capacity.Limit.QUEUES));

		this.service.poll("q");
		this.service.complete("q", first.id());
		assertThatExceptionOfType(CapacityExceededException.class).as("q still holds one")
			.isThrownBy(() -> this.service.push("new", "x"));
		this.service.complete("q", this.service.poll("q").orElseThrow());
		this.service.push("new", "x");
		assertThat(this.service.capacity().orElseThrow().heldQueues()).isEqualTo(1);
	}

	@Test
	void abandonedConsumers_afterRedeliveryAndCompletion_everythingEmpty() {
		this.service = withLimits(new Capacity.Limits(100, 1000, Long.MAX_VALUE));
		String[] queues = { "a", "b", "c" };
		for (int i = 0; i < 300; i++) {
			this.service.push(queues[i % 3], "m" + i);
		}
		for (String queue : queues) {
			while (this.service.poll(queue).isPresent()) {
				// abandoned: polled and never completed
			}
		}
		assertThat(this.service.heldCount()).as("all held while in flight").isEqualTo(300);

		this.clock.advance(LEASE);
		int redelivered = 0;
		for (String queue : queues) {
			for (Message message; (message = this.service.poll(queue).orElse(null)) != null; redelivered++) {
				assertThat(message.deliveries()).isEqualTo(2);
				assertThat(this.service.complete(queue, message.id())).isEqualTo(Completion.COMPLETED);
			}
		}

		assertThat(redelivered).isEqualTo(300);
		assertThat(this.service.heldCount()).as("id index").isZero();
		assertThat(this.service.queueCount()).as("queues").isZero();
		assertThat(this.service.queues()).isEmpty();
		assumeTrue(heapCaps(), HEAP_CAPS_ONLY);
		Capacity capacity = this.service.capacity().orElseThrow();
		assertThat(capacity.heldBytes()).isZero();
		assertThat(capacity.heldQueues()).isZero();
	}

	@Test
	void unlimited_hasNoCapacity() {
		assertThat(this.service.capacity()).isEmpty();
	}

	@Test
	void lease_numbersEachDelivery() {
		Message pushed = this.service.push("q", "x");

		Lease first = this.service.lease("q", 1).get(0);
		assertThat(first.message().id()).isEqualTo(pushed.id());
		assertThat(first.delivery()).isEqualTo(1);
		assertThat(this.service.lease("q", 1)).as("held").isEmpty();

		this.clock.advance(LEASE);
		assertThat(this.service.lease("q", 1)).singleElement().extracting(Lease::delivery).isEqualTo(2);
	}

	@Test
	void completeAll_decidesEachInOrder_andTheQueueGoesWhenEmptied() {
		this.service.pushAll("q", TestBodies.utf8("a", "b", "c", "d"));
		List<Lease> first = this.service.lease("q", 3);
		this.clock.advance(LEASE);
		Lease again = this.service.lease("q", 1).get(0);
		Lease stale = first.stream().filter((lease) -> lease.message().id() == again.message().id()).findFirst().get();
		List<Lease> lapsed = first.stream().filter((lease) -> lease != stale).toList();
		long ready = this.service.peek("q", 4)
			.stream()
			.filter((peeked) -> peeked.deliveries() == 0)
			.findFirst()
			.orElseThrow()
			.message()
			.id();

		List<Completion> completions = this.service.completeAll("q",
				new long[] { stale.message().id(), lapsed.get(0).message().id(), ready, 999_999,
						lapsed.get(1).message().id(), again.message().id() },
				new int[] { stale.delivery(), lapsed.get(0).delivery(), QueueServiceCore.ANY_DELIVERY,
						QueueServiceCore.ANY_DELIVERY, lapsed.get(1).delivery(), again.delivery() });

		assertThat(completions).containsExactly(Completion.STALE_LEASE, Completion.COMPLETED, Completion.NOT_DELIVERED,
				Completion.NOT_FOUND, Completion.COMPLETED, Completion.COMPLETED);
		assertThat(this.service.queue("q")).contains(new QueueStats("q", 1, 0));
		Lease last = this.service.lease("q", 1).get(0);
		assertThat(this.service.completeAll("q", new long[] { last.message().id() }, new int[] { last.delivery() }))
			.containsExactly(Completion.COMPLETED);
		assertThat(this.service.queueCount()).isZero();
	}

	@Test
	void changeLeaseAll_changesEachNamedDelivery_othersAnsweredAsByIdWould() {
		Message changed = this.service.push("q", "changed");
		Message stale = this.service.push("q", "stale");
		List<Lease> leased = this.service.lease("q", 2);
		Message waiting = this.service.push("q", "waiting");
		int delivery = leased.get(0).delivery();

		List<ByIdOutcome> outcomes = this.service.changeLeaseAll("q",
				new long[] { changed.id(), stale.id(), waiting.id(), 999_999 },
				new int[] { delivery, delivery + 1, QueueServiceCore.ANY_DELIVERY, QueueServiceCore.ANY_DELIVERY }, 0);

		assertThat(outcomes).containsExactly(ByIdOutcome.DONE, ByIdOutcome.STALE_LEASE, ByIdOutcome.NOT_DELIVERED,
				ByIdOutcome.NOT_FOUND);
		assertThat(this.service.lease("q", 10)).as("the changed lease ended at once; the stale one holds")
			.extracting((lease) -> lease.message().id(), Lease::delivery)
			.containsExactlyInAnyOrder(tuple(changed.id(), 2), tuple(waiting.id(), 1));
		assertThat(this.service.changeLeaseAll("q", new long[] { stale.id() },
				new int[] { QueueServiceCore.ANY_DELIVERY }, 0))
			.containsExactly(ByIdOutcome.DONE);
		assertThat(this.service.lease("q", 10)).extracting((lease) -> lease.message().id(), Lease::delivery)
			.containsExactly(tuple(stale.id(), 2));
		assertThat(this.service.changeLeaseAll("q", new long[0], new int[0], 0)).isEmpty();
	}

	@Test
	void discardAll_discardsEachWhateverItsState_andTheQueueGoesWhenEmptied() {
		Message ready = this.service.push("q", "ready");
		Message inFlight = this.service.push("q", "in flight");
		this.service.lease("q", 1);
		Message delayed = this.service.pushAll("q", TestBodies.utf8("delayed"), 60_000).get(0);
		this.service.push("q", "kept");

		List<ByIdOutcome> outcomes = this.service.discardAll("q",
				new long[] { delayed.id(), 999_999, inFlight.id(), ready.id(), ready.id() });

		assertThat(outcomes).containsExactly(ByIdOutcome.DONE, ByIdOutcome.NOT_FOUND, ByIdOutcome.DONE,
				ByIdOutcome.DONE, ByIdOutcome.NOT_FOUND);
		assertThat(this.service.peek("q", 10)).singleElement()
			.extracting((peeked) -> new String(peeked.message().body(), StandardCharsets.UTF_8))
			.isEqualTo("kept");
		Lease kept = this.service.lease("q", 1).get(0);
		this.service.complete("q", kept.message().id(), kept.delivery());
		assertThat(this.service.discardAll("q", new long[0])).isEmpty();
		assertThat(this.service.queueCount()).isZero();
	}

	@Test
	void batchesOfThousands_everyMessagePushedLeasedAndCompletedOnce() {
		List<byte[]> bodies = new ArrayList<>();
		for (int i = 0; i < 1_100; i++) {
			bodies.add(("m" + i).getBytes(StandardCharsets.UTF_8));
		}
		List<Message> pushed = this.service.pushAll("q", bodies);
		List<Message> delayed = this.service.pushAll("q", bodies.subList(0, 600), 1_000);

		List<Lease> leased = this.service.lease("q", 2_000);
		this.clock.advance(Duration.ofSeconds(1));
		List<Lease> due = this.service.lease("q", 2_000);

		assertThat(leased).extracting((lease) -> lease.message().id())
			.containsExactlyElementsOf(pushed.stream().map(Message::id).toList());
		assertThat(leased).extracting((lease) -> new String(lease.message().body(), StandardCharsets.UTF_8))
			.containsExactlyElementsOf(
					bodies.stream().map((body) -> new String(body, StandardCharsets.UTF_8)).toList());
		assertThat(due).extracting((lease) -> lease.message().id())
			.containsExactlyInAnyOrderElementsOf(delayed.stream().map(Message::id).toList());
		List<Lease> all = new ArrayList<>(leased);
		all.addAll(due);
		List<Completion> completions = this.service.completeAll("q",
				all.stream().mapToLong((lease) -> lease.message().id()).toArray(),
				all.stream().mapToInt(Lease::delivery).toArray());
		assertThat(completions).hasSize(1_700).containsOnly(Completion.COMPLETED);
		assertThat(this.service.queueCount()).isZero();
	}

	@Test
	void completeWithLease_lapsedButNotRedelivered_completes() {
		this.service.push("q", "slow");
		Lease lease = this.service.lease("q", 1).get(0);
		this.clock.advance(LEASE.multipliedBy(2));

		assertThat(complete(lease)).isEqualTo(Completion.COMPLETED);
		assertThat(this.service.poll("q")).isEmpty();
	}

	@Test
	void completeWithLease_redelivered_staleRefusedCurrentAccepted() {
		this.service.push("q", "contested");
		Lease stale = this.service.lease("q", 1).get(0);
		this.clock.advance(LEASE);
		Lease current = this.service.lease("q", 1).get(0);

		assertThat(complete(stale)).isEqualTo(Completion.STALE_LEASE);
		assertThat(this.service.queue("q")).as("untouched by the stale lease").contains(new QueueStats("q", 0, 1));
		assertThat(complete(current)).isEqualTo(Completion.COMPLETED);
		assertThat(complete(current)).as("second time").isEqualTo(Completion.NOT_FOUND);
		assertThat(complete(stale)).isEqualTo(Completion.NOT_FOUND);
		assertThat(this.service.queueCount()).isZero();
	}

	@Test
	void completeWithLease_neverDelivered_notDelivered() {
		Message message = this.service.push("q", "x");

		assertThat(this.service.complete("q", message.id(), 1)).isEqualTo(Completion.NOT_DELIVERED);
	}

	/**
	 * A consumer whose lease lapsed completes while another polls the message again: one
	 * of them wins, never both (for every exactly-once strategy): either the completion
	 * counts and the poll finds nothing, or the poll gets the second delivery and the
	 * completion is refused as stale.
	 */
	@Test
	void completeWithLease_racingARedelivery_oneWins() throws Exception {
		assumeTrue(this.strategy.delivery(Eviction.LAZY) == Delivery.EXACTLY_ONCE, "at-least-once may let both win");
		ExecutorService threads = Executors.newFixedThreadPool(2);
		try {
			int completedFirst = 0;
			int redeliveredFirst = 0;
			for (int round = 0; round < 2_000; round++) {
				this.service.push("q", "contested");
				Lease lapsed = this.service.lease("q", 1).get(0);
				this.clock.advance(LEASE);
				CyclicBarrier start = new CyclicBarrier(2);
				Future<Completion> completion = threads.submit(() -> {
					start.await();
					return complete(lapsed);
				});
				Future<List<Lease>> redelivery = threads.submit(() -> {
					start.await();
					return this.service.lease("q", 1);
				});
				Completion completed = completion.get(10, TimeUnit.SECONDS);
				List<Lease> redelivered = redelivery.get(10, TimeUnit.SECONDS);
				if (completed == Completion.COMPLETED) {
					assertThat(redelivered).as("round %d: completed, then nothing to redeliver", round).isEmpty();
					completedFirst++;
				}
				else {
					assertThat(completed).as("round %d", round).isEqualTo(Completion.STALE_LEASE);
					assertThat(redelivered).as("round %d", round)
						.singleElement()
						.extracting(Lease::delivery)
						.isEqualTo(2);
					assertThat(complete(redelivered.get(0))).isEqualTo(Completion.COMPLETED);
					redeliveredFirst++;
				}
				assertThat(this.service.heldCount()).isZero();
			}
			assertThat(completedFirst + redeliveredFirst).isEqualTo(2_000);
		}
		finally {
			threads.shutdownNow();
		}
	}

	@Test
	void leaseMany_inQueueOrderUpToMax() {
		for (int i = 0; i < 5; i++) {
			this.service.push("q", "m" + i);
		}
		pushAndPollNothing();

		assertThat(this.service.lease("q", 3)).extracting(lease -> lease.message().text())
			.containsExactly("m0", "m1", "m2");
		assertThat(this.service.lease("q", 3)).extracting(lease -> lease.message().text()).containsExactly("m3", "m4");
		assertThat(this.service.lease("q", 3)).isEmpty();
		assertThat(this.service.queue("q")).contains(new QueueStats("q", 0, 5));
	}

	private void pushAndPollNothing() {
		assertThat(this.service.lease("none", 100)).isEmpty();
	}

	@Test
	void pushAll_inOrderOrNoneOverACap() {
		this.service = withLimits(new Capacity.Limits(10, 3, Long.MAX_VALUE));
		List<Message> pushed = this.service.pushAll("q", TestBodies.utf8("a", "b"));
		assertThat(pushed).extracting(Message::text).containsExactly("a", "b");
		assertThat(pushed.get(1).id()).isGreaterThan(pushed.get(0).id());

		assertThatExceptionOfType(CapacityExceededException.class)
			.isThrownBy(() -> this.service.pushAll("q", TestBodies.utf8("c", "d")))
			.satisfies(ex -> assertThat(ex.limit()).isEqualTo(Capacity.Limit.MESSAGES_PER_QUEUE));
		assertThatExceptionOfType(CapacityExceededException.class)
			.isThrownBy(() -> this.service.pushAll("new", TestBodies.utf8("1", "2", "3", "4")));

		assertThat(this.service.queues()).containsExactly(new QueueStats("q", 2, 0));
		assumeTrue(heapCaps(), HEAP_CAPS_ONLY);
		assertThat(this.service.capacity().orElseThrow().heldBytes())
			.isEqualTo(Capacity.charge("a".getBytes(StandardCharsets.UTF_8))
					+ Capacity.charge("b".getBytes(StandardCharsets.UTF_8)));
		assertThat(this.service.capacity().orElseThrow().heldQueues()).isEqualTo(1);
	}

	/**
	 * What the caps count is what the heap holds: after push, poll and complete over many
	 * new queue names, and over one queue never polled again, nothing is left in the map,
	 * the queues, their indexes or the caps; in both eviction modes.
	 */
	@ParameterizedTest
	@EnumSource(Eviction.class)
	void pushPollComplete_manyQueueNames_nothingLeft(Eviction eviction) {
		this.service = newService(new QueueOptions(LEASE, eviction, this.clock, true, LIMITS));
		for (int i = 0; i < 1_000; i++) {
			String queue = "q" + i;
			this.service.push(queue, "body " + i);
			assertThat(this.service.complete(queue, this.service.poll(queue).orElseThrow())).isTrue();
		}
		assertEmpty();
	}

	@ParameterizedTest
	@EnumSource(Eviction.class)
	void completedBehindAnInFlightMessage_chargedUntilEvicted(Eviction eviction) {
		this.service = newService(new QueueOptions(LEASE, eviction, this.clock, true, LIMITS));
		Message head = this.service.push("q", "slow");
		this.service.push("q", "fast");
		this.service.poll("q");
		this.service.complete("q", this.service.poll("q").orElseThrow());

		long expected = (eviction == Eviction.LAZY) ? 2 * Capacity.charge("fast".getBytes(StandardCharsets.UTF_8))
				: Capacity.charge("slow".getBytes(StandardCharsets.UTF_8));
		if (heapCaps()) {
			assertThat(this.service.capacity().orElseThrow().heldBytes()).as("what the queue really holds")
				.isEqualTo(expected);
		}
		assertThat(this.service.queue("q")).contains(new QueueStats("q", 0, 1));

		assertThat(this.service.complete("q", head.id())).isEqualTo(Completion.COMPLETED);
		assertEmpty();
	}

	@ParameterizedTest
	@EnumSource(Eviction.class)
	void abandonedMessages_boundedByTheCapsAndFreedByRedelivery(Eviction eviction) {
		assumeTrue(heapCaps(), HEAP_CAPS_ONLY);
		long charge = Capacity.charge("abandoned".getBytes(StandardCharsets.UTF_8));
		this.service = newService(
				new QueueOptions(LEASE, eviction, this.clock, true, new Capacity.Limits(100, 1000, 10 * charge)));
		for (int i = 0; i < 10; i++) {
			this.service.push("q" + i, "abandoned");
			this.service.poll("q" + i);
		}
		assertThatExceptionOfType(CapacityExceededException.class)
			.isThrownBy(() -> this.service.push("one-more", "abandoned"));

		this.clock.advance(LEASE);
		for (int i = 0; i < 10; i++) {
			assertThat(this.service.complete("q" + i, this.service.poll("q" + i).orElseThrow())).isTrue();
		}
		assertEmpty();
	}

	private void assertEmpty() {
		assertThat(this.service.queueCount()).as("queues in the map").isZero();
		assertThat(this.service.queues()).isEmpty();
		assertThat(this.service.heldCount()).as("held").isZero();
		if (!heapCaps()) {
			assertThat(this.service.capacity()).as("Redis's maxmemory is the cap").isEmpty();
			return;
		}
		Capacity capacity = this.service.capacity().orElseThrow();
		assertThat(capacity.heldBytes()).as("bytes charged").isZero();
		assertThat(capacity.heldQueues()).as("queues charged").isZero();
	}

	/**
	 * Whether the strategy keeps the caps on heap (bytes, queues) that {@link Capacity}
	 * counts: every in-process one. Redis's cap is its {@code maxmemory}
	 * ({@code RedisStrategyTests}); a queue's message cap it keeps too.
	 */
	private boolean heapCaps() {
		return this.strategy.framework() != Strategy.Framework.EXTERNAL;
	}

	private static final String HEAP_CAPS_ONLY = "caps on this process's heap";

	private static final Capacity.Limits LIMITS = new Capacity.Limits(10_000, 10_000, Long.MAX_VALUE);

	Completion complete(Lease lease) {
		return this.service.complete("q", lease.message().id(), lease.delivery());
	}

	QueueServiceCore withLimits(Capacity.Limits limits) {
		return newService(new QueueOptions(LEASE, Eviction.LAZY, this.clock, true, limits));
	}

	Message pushAndPoll(String queue, String body) {
		Message pushed = this.service.push(queue, body);
		Message polled = this.service.poll(queue).orElseThrow();
		assertThat(polled.id()).isEqualTo(pushed.id());
		return polled;
	}

}
