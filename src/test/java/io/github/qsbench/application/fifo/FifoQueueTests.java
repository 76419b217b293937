package io.github.qsbench.application.fifo;

import static io.github.qsbench.core.TestBodies.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.tuple;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import io.github.qsbench.application.InvalidRequestException;
import io.github.qsbench.application.Limits;
import io.github.qsbench.application.MessageAttributes;
import io.github.qsbench.application.OperationsPerStrategy;
import io.github.qsbench.application.OutgoingMessage;
import io.github.qsbench.application.Received;
import io.github.qsbench.application.Sent;
import io.github.qsbench.application.TestOperations;
import io.github.qsbench.application.messages.MessageOperations;
import io.github.qsbench.application.queues.DeadLetterPolicy;
import io.github.qsbench.application.queues.FifoSettings;
import io.github.qsbench.application.queues.QueueSettings;
import io.github.qsbench.application.stores.Stores;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.Delivery;
import io.github.qsbench.core.Eviction;
import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.TestCores;
import io.github.qsbench.metrics.QueueMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.github.qsbench.core.strategy.Strategy;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * FIFO queues, written once above the core ({@link FifoQueues}), held to their contract
 * for every strategy with the injected clock: a group's messages delivered in send order,
 * none while another of its group is in flight, other groups served meanwhile;
 * deduplication within five minutes; a dead letter keeps its group and frees it; and,
 * under contention, no two messages of one group in flight at once.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(Strategy.class)
class FifoQueueTests extends OperationsPerStrategy {

	private static final String QUEUE = "orders.fifo";

	@BeforeEach
	void createQueue() {
		this.operations.configure(QUEUE, fifo(new FifoSettings(true, null, null)));
	}

	@Test
	void oneGroupInFlightAtATime_inSendOrder_otherGroupsServed() {
		List<Sent> sent = this.messages.sendAll(QUEUE,
				List.of(message("a1", "a"), message("a2", "a"), message("b1", "b"), message("a3", "a")), null);
		assertThat(sent).extracting(Sent::sequenceNumber).isSorted().doesNotHaveDuplicates();

		List<Received> first = this.messages.lease(QUEUE, 10);
		assertThat(first).extracting(delivery -> delivery.message().text()).containsExactly("a1", "b1");
		assertThat(this.messages.lease(QUEUE, 10)).as("each group's head is in flight").isEmpty();

		assertThat(this.messages.complete(QUEUE, first.get(0).id(), null)).isEqualTo(Completion.COMPLETED);
		List<Received> second = this.messages.lease(QUEUE, 10);
		assertThat(second).extracting(delivery -> delivery.message().text()).containsExactly("a2");
		assertThat(second.get(0).message().system().group()).isEqualTo("a");
		assertThat(second.get(0).message().system().sequenceNumber()).isEqualTo(sent.get(1).sequenceNumber());

		this.clock.advance(LEASE);
		assertThat(this.messages.lease(QUEUE, 10)).as("lapsed heads come back first, a3 stays behind a2")
			.extracting(delivery -> delivery.message().text())
			.containsExactlyInAnyOrder("a2", "b1");
	}

	@Test
	void deduplication_withinFiveMinutes_answersTheOriginal() {
		Sent original = this.messages.send(QUEUE, new OutgoingMessage(utf8("x"), MessageAttributes.NONE, "g", "d1"),
				null);
		Sent again = this.messages.send(QUEUE, new OutgoingMessage(utf8("y"), MessageAttributes.NONE, "g", "d1"), null);
		Sent byContent = this.messages.send(QUEUE, message("same", "g"), null);
		Sent sameContent = this.messages.send(QUEUE, message("same", "other-group"), null);

		assertThat(again).isEqualTo(original);
		assertThat(sameContent).as("the queue's scope: one id per queue").isEqualTo(byContent);
		this.clock.advance(Duration.ofMinutes(5));
		Sent later = this.messages.send(QUEUE, new OutgoingMessage(utf8("x"), MessageAttributes.NONE, "g", "d1"), null);
		assertThat(later.id()).isNotEqualTo(original.id());
		assertThat(later.sequenceNumber()).isGreaterThan(byContent.sequenceNumber());
		assertThat(drain()).containsExactly("x", "same", "x");
	}

	@Test
	void deduplicationScopeMessageGroup_sameIdInTwoGroups_twoMessages() {
		this.operations.configure("scoped.fifo", fifo(new FifoSettings(null, "messageGroup", "perMessageGroupId")));

		Sent a = this.messages.send("scoped.fifo", new OutgoingMessage(utf8("a"), MessageAttributes.NONE, "g1", "same"),
				null);
		Sent b = this.messages.send("scoped.fifo", new OutgoingMessage(utf8("b"), MessageAttributes.NONE, "g2", "same"),
				null);

		assertThat(a.id()).isNotEqualTo(b.id());
		assertThat(this.operations.settings("scoped.fifo").fifo())
			.isEqualTo(new FifoSettings(false, "messageGroup", "perMessageGroupId"));
	}

	@Test
	void deadLetter_keepsItsGroup_andFreesTheGroupBehindIt() {
		this.operations.configure("dead.fifo", fifo(new FifoSettings(true, null, null)));
		this.operations.configure(QUEUE, new QueueSettings.Change(null, null, null,
				new DeadLetterPolicy("dead.fifo", 1), null, null, new FifoSettings(null, null, null)));
		this.messages.sendAll(QUEUE, List.of(message("poison", "a"), message("next", "a")), null);
		assertThat(this.messages.lease(QUEUE, 10)).hasSize(1);
		this.clock.advance(LEASE);

		List<Received> after = this.messages.lease(QUEUE, 10);

		assertThat(after).extracting(delivery -> delivery.message().text()).containsExactly("next");
		List<Received> dead = this.messages.lease("dead.fifo", 10);
		assertThat(dead).extracting(delivery -> delivery.message().text()).containsExactly("poison");
		assertThat(dead.get(0).message().system().group()).isEqualTo("a");
	}

	@Test
	void receiveRetriedWithItsAttemptId_getsTheSameMessages_forFiveMinutes() throws Exception {
		this.messages.sendAll(QUEUE, List.of(message("a1", "a"), message("b1", "b")), null);

		List<Received> first = this.messages.awaitLease(QUEUE, 10, Duration.ZERO, null, "attempt-1").get();
		List<Received> retried = this.messages.awaitLease(QUEUE, 10, Duration.ZERO, null, "attempt-1").get();

		assertThat(first).extracting(Received::id).hasSize(2);
		assertThat(retried).extracting(Received::id, Received::delivery, one -> one.message().text())
			.as("the same deliveries (on Redis read back from the shared state)")
			.isEqualTo(first.stream().map(one -> tuple(one.id(), one.delivery(), one.message().text())).toList());
		assertThat(this.messages.awaitLease(QUEUE, 10, Duration.ZERO, null, "attempt-2").get()).isEmpty();
		this.clock.advance(Duration.ofMinutes(5));
		assertThat(this.messages.awaitLease(QUEUE, 10, Duration.ZERO, null, "attempt-1").get())
			.as("forgotten; the leases lapsed, so the same messages come as new deliveries")
			.extracting(Received::delivery)
			.containsOnly(2);
	}

	@Test
	void purge_thenTheGroupTakesNewMessages() {
		this.messages.sendAll(QUEUE, List.of(message("a1", "a"), message("a2", "a")), null);
		this.messages.lease(QUEUE, 1);

		assertThat(this.operations.purge(QUEUE)).isEqualTo(2);
		this.messages.send(QUEUE, message("fresh", "a"), null);

		assertThat(drain()).containsExactly("fresh");
	}

	@Test
	void refusals_nothingSent() {
		assertInvalid(() -> this.messages.send(QUEUE, OutgoingMessage.of(utf8("no group")), null), "group");
		this.operations.configure("by-id.fifo", fifo(new FifoSettings(null, null, null)));
		assertInvalid(() -> this.messages.send("by-id.fifo", message("no id", "g"), null), "deduplication id");
		assertInvalid(() -> this.messages.send(QUEUE, message("delayed", "g"), 5), "delay");
		assertInvalid(() -> this.messages.send("never-created.fifo", message("x", "g"), null), "does not exist");
		assertInvalid(() -> this.messages.send("standard",
				new OutgoingMessage(utf8("x"), MessageAttributes.NONE, "g", "dedup"), null), "FIFO");
		assertInvalid(() -> this.operations.configure("plain.fifo", new QueueSettings.Change(null, null, null, null)),
				"FIFO queue");
		assertInvalid(() -> this.operations.configure("standard", fifo(new FifoSettings(null, null, null))), ".fifo");
		assertInvalid(
				() -> this.operations.configure(QUEUE, fifo(new FifoSettings(null, "queue", "perMessageGroupId"))),
				"messageGroup");
		this.operations.configure("standard-dlq", new QueueSettings.Change(null, null, null, null));
		assertInvalid(
				() -> this.operations.configure(QUEUE, new QueueSettings.Change(null, null, null,
						new DeadLetterPolicy("standard-dlq", 3), null, null, new FifoSettings(null, null, null))),
				"FIFO");
		assertThat(drain()).isEmpty();
	}

	@Test
	void groupOnAStandardQueue_acceptedAndNeverBlocks() {
		this.messages.sendAll("standard", List.of(message("1", "g"), message("2", "g")), null);

		assertThat(this.messages.lease("standard", 10)).extracting(delivery -> delivery.message().system().group())
			.containsExactly("g", "g");
	}

	/**
	 * Producers send each group's messages in order while consumers lease and complete:
	 * no group ever has two of its messages in flight, and each group's messages are
	 * delivered in the order they were sent, each completed once. An at-least-once
	 * strategy may hand one message to two polls at once (its stated guarantee): there
	 * the rule is checked for distinct messages not yet completed (the second copy of a
	 * message may still be held when its first is completed and the group's next one is
	 * leased), and a repeated delivery is allowed only right after itself. On Redis half
	 * the producers and consumers go through a second instance on the same Redis: the
	 * rule holds across instances.
	 */
	@Test
	void underContention_oneInFlightPerGroup_inOrder() throws Exception {
		int groups = 8;
		int perGroup = 60;
		boolean exactlyOnce = this.strategy.delivery(Eviction.LAZY) == Delivery.EXACTLY_ONCE;
		Map<String, Set<Long>> inFlight = new ConcurrentHashMap<>();
		Map<String, List<Integer>> completed = new ConcurrentHashMap<>();
		Set<Long> completing = ConcurrentHashMap.newKeySet();
		Set<String> violations = ConcurrentHashMap.newKeySet();
		ExecutorService pool = Executors.newFixedThreadPool(6);
		TestOperations second = (this.strategy == Strategy.REDIS) ? secondInstance() : null;
		MessageOperations other = (second != null) ? second.messages() : this.messages;
		try {
			List<Future<?>> producers = new ArrayList<>();
			for (int p = 0; p < 2; p++) {
				int first = p * groups / 2;
				producers.add(pool.submit(() -> {
					for (int i = 0; i < perGroup; i++) {
						for (int g = first; g < first + groups / 2; g++) {
							(first == 0 ? this.messages : other).send(QUEUE, message("g" + g + ":" + i, "g" + g), null);
						}
					}
				}));
			}
			AtomicInteger done = new AtomicInteger();
			List<Future<?>> consumers = new ArrayList<>();
			for (int c = 0; c < 4; c++) {
				MessageOperations through = (c % 2 == 0) ? this.messages : other;
				consumers.add(pool.submit(() -> {
					long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
					while (done.get() < groups * perGroup && System.nanoTime() < deadline) {
						for (Received delivery : through.lease(QUEUE, 3)) {
							String group = delivery.message().system().group();
							Set<Long> holding = inFlight.computeIfAbsent(group, name -> ConcurrentHashMap.newKeySet());
							holding.add(delivery.id());
							List<Long> held = holding.stream()
								.filter(id -> exactlyOnce || !completing.contains(id))
								.toList();
							if (held.size() > 1 || (exactlyOnce && delivery.delivery() > 1)) {
								violations.add(group + ": " + held + ", delivery " + delivery.delivery());
							}
							completed.computeIfAbsent(group, name -> Collections.synchronizedList(new ArrayList<>()))
								.add(Integer.parseInt(delivery.message().text().split(":")[1]));
							holding.remove(delivery.id());
							completing.add(delivery.id());
							if (through.complete(QUEUE, delivery.id(), null) == Completion.COMPLETED) {
								done.incrementAndGet();
							}
						}
					}
				}));
			}
			for (Future<?> producer : producers) {
				producer.get(60, TimeUnit.SECONDS);
			}
			for (Future<?> consumer : consumers) {
				consumer.get(90, TimeUnit.SECONDS);
			}
			assertThat(violations).isEmpty();
			assertThat(done.get()).as("each completed once").isEqualTo(groups * perGroup);
			for (int g = 0; g < groups; g++) {
				List<Integer> delivered = completed.get("g" + g);
				assertThat(exactlyOnce ? delivered : delivered.stream().distinct().toList())
					.as("group g" + g + " in send order")
					.containsExactlyElementsOf(IntStream.range(0, perGroup).boxed().toList());
			}
		}
		finally {
			pool.shutdownNow();
			if (second != null) {
				second.close();
			}
		}
	}

	/**
	 * Another instance on this core's Redis: its own core, operations and clock's view.
	 */
	private TestOperations secondInstance() {
		Stores second = TestCores.redisStores(new QueueOptions(LEASE, Eviction.LAZY, this.clock, true), this.namespace);
		return TestOperations.of(second.core(), second.explicitQueues(), second.fifoGroups(),
				new QueueMetrics(new SimpleMeterRegistry(), second.core()), LEASE, this.clock,
				Limits.MAX_MESSAGE_BYTES);
	}

	private List<String> drain() {
		List<String> texts = new ArrayList<>();
		List<Received> leased;
		while (!(leased = this.messages.lease(QUEUE, 10)).isEmpty()) {
			for (Received delivery : leased) {
				texts.add(delivery.message().text());
				this.messages.complete(QUEUE, delivery.id(), null);
			}
		}
		return texts;
	}

	private static OutgoingMessage message(String body, String group) {
		return new OutgoingMessage(utf8(body), MessageAttributes.NONE, group, null);
	}

	private static QueueSettings.Change fifo(FifoSettings settings) {
		return new QueueSettings.Change(null, null, null, null, null, null, settings);
	}

	private static void assertInvalid(Runnable attempt, String reason) {
		assertThatExceptionOfType(InvalidRequestException.class).isThrownBy(attempt::run)
			.satisfies(ex -> assertThat(ex.title() + " " + ex.detail()).containsIgnoringCase(reason));
	}

}
