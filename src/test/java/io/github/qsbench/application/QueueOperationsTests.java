package io.github.qsbench.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Pattern;

import io.github.qsbench.application.fifo.InMemoryFifoGroups;
import io.github.qsbench.application.messages.LongPoll;
import io.github.qsbench.application.messages.MessageOperations.BatchEntry;
import io.github.qsbench.application.messages.MessageOperations;
import io.github.qsbench.application.queues.InMemoryExplicitQueues;
import io.github.qsbench.application.queues.QueueOperations;
import io.github.qsbench.application.queues.QueueSettings;
import io.github.qsbench.core.Capacity;
import io.github.qsbench.core.CapacityExceededException;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.Eviction;
import io.github.qsbench.core.MutableClock;
import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.QueueStats;
import io.github.qsbench.core.TestBodies;
import io.github.qsbench.core.strategy.Strategy;
import io.github.qsbench.metrics.CoreTimedQueueService;
import io.github.qsbench.metrics.QueueMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the application layer does around the core, without HTTP: its checks, its meters,
 * lease tokens, and long polls as futures.
 */
class QueueOperationsTests {

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final QueueServiceCore strategy = Strategy.CONCURRENT_ATOMIC.create(new QueueOptions(Duration.ofSeconds(30),
			Eviction.LAZY, new MutableClock(), true, new Capacity.Limits(10, 2, 1_000_000)));

	private final TestOperations made = TestOperations.of(new CoreTimedQueueService(this.strategy, this.registry),
			new InMemoryExplicitQueues(this.strategy), new InMemoryFifoGroups(),
			new QueueMetrics(this.registry, this.strategy), Duration.ofSeconds(30), InstantSource.system(),
			Limits.MAX_MESSAGE_BYTES);

	private final MessageOperations messages = this.made.messages();

	private final QueueOperations operations = this.made.queues();

	@AfterEach
	void stopTimer() {
		this.made.close();
	}

	@Test
	void queueName_agreesWithItsRegex() {
		Pattern regex = Pattern.compile(QueueNames.QUEUE_NAME_REGEX);
		List<String> names = new ArrayList<>(List.of("", "a", "Z", "0", "_", "-", "a".repeat(80), "a".repeat(81), "a.b",
				"a/b", "a%2Fb", "é", "a b", "a\u0000", "A-z_09", "`", "{", "@", "[", ":", "/"));
		SplittableRandom random = new SplittableRandom(42);
		String alphabet = "azAZ09_-.%/@[`{:\u00e9 ";
		for (int i = 0; i < 20_000; i++) {
			StringBuilder name = new StringBuilder();
			int length = random.nextInt(84);
			for (int j = 0; j < length; j++) {
				name.append(random.nextInt(8) == 0 ? alphabet.charAt(random.nextInt(alphabet.length()))
						: (char) ('a' + random.nextInt(26)));
			}
			names.add(name.toString());
		}
		for (String name : names) {
			assertThat(QueueNames.isQueueName(name)).as(name).isEqualTo(regex.matcher(name).matches());
		}
	}

	@Test
	void badInput_refusedBeforeTheCore() {
		assertThatExceptionOfType(InvalidRequestException.class).isThrownBy(() -> this.messages.push("a.b", body()))
			.satisfies(ex -> assertThat(ex.title()).isEqualTo("Invalid queue name"));
		assertThatExceptionOfType(InvalidRequestException.class).isThrownBy(() -> this.messages.lease("q", 0));
		assertThatExceptionOfType(InvalidRequestException.class).isThrownBy(() -> this.messages.lease("q", 101));
		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> this.messages.awaitLease("q", 1, Duration.ofSeconds(21), null));
		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> this.messages.sendAll("q", List.of(), null))
			.satisfies(ex -> assertThat(ex.title()).isEqualTo("Invalid batch"));
		assertThat(this.strategy.queueCount()).isZero();
		assertThat(counter("qs.polls.empty")).as("a refused poll is no poll").isZero();
	}

	@Test
	void pushLeaseComplete_countedAndTimed() {
		Sent message = this.messages.push("q", body());
		List<Received> leases = this.messages.lease("q", 1);
		assertThat(this.messages.lease("q", 1)).isEmpty();

		assertThat(this.messages.complete("q", message.id(), LeaseTokens.token(leases.get(0).lease())))
			.isEqualTo(Completion.COMPLETED);

		assertThat(counter("qs.messages.pushed")).isOne();
		assertThat(counter("qs.messages.delivered")).isOne();
		assertThat(counter("qs.polls.empty")).isOne();
		assertThat(counter("qs.messages.completed")).isOne();
		assertThat(this.registry.find("qs.core").tag("operation", "push").functionCounter()).isNotNull();
	}

	@Test
	void capReached_refusalCounted() {
		this.messages.push("q", body());
		this.messages.push("q", body());

		assertThatExceptionOfType(CapacityExceededException.class).isThrownBy(() -> this.messages.push("q", body()));
		assertThat(this.registry.find("qs.pushes.refused").tag("limit", "max-messages-per-queue").counter().count())
			.isOne();
		assertThat(counter("qs.messages.pushed")).isEqualTo(2);
	}

	@Test
	void complete_leaseOfAnEarlierDeliveryOrAnotherMessage_staleLease() {
		List<Sent> pushed = this.messages.sendAll("q",
				TestBodies.utf8("a", "b").stream().map(OutgoingMessage::of).toList(), null);
		List<Received> leases = this.messages.lease("q", 2);

		assertThat(this.messages.complete("q", pushed.get(0).id(), LeaseTokens.token(leases.get(1).lease())))
			.isEqualTo(Completion.STALE_LEASE);
		assertThat(this.messages.complete("q", pushed.get(0).id(), pushed.get(0).id() + ".2"))
			.isEqualTo(Completion.STALE_LEASE);
		assertThat(this.messages.complete("q", pushed.get(0).id(), null)).isEqualTo(Completion.COMPLETED);
	}

	@Test
	void completeAll_oneMalformedLease_completesNothing() {
		List<Sent> pushed = this.messages.sendAll("q",
				TestBodies.utf8("a", "b").stream().map(OutgoingMessage::of).toList(), null);
		this.messages.lease("q", 2);

		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> this.messages.completeAll("q",
					List.of(new BatchEntry(pushed.get(0).id(), null), new BatchEntry(pushed.get(1).id(), "1.x"))))
			.satisfies(ex -> assertThat(ex.title()).isEqualTo("Invalid lease"));

		assertThat(this.messages.completeAll("q",
				List.of(new BatchEntry(pushed.get(0).id(), null), new BatchEntry(pushed.get(1).id(), null))))
			.containsExactly(Completion.COMPLETED, Completion.COMPLETED);
		assertThat(counter("qs.messages.completed")).isEqualTo(2);
	}

	@Test
	void longPoll_answeredByAPush() {
		LongPoll poll = this.messages.awaitLease("q", 2, Duration.ofSeconds(20), null);
		assertThat(poll).isNotDone();
		assertThat(this.made.longPolls().waiting()).containsEntry("q", 1);

		this.messages.push("q", body());

		assertThat(poll.getNow(null)).hasSize(1);
		assertThat(this.made.longPolls().waiting()).isEmpty();
		assertThat(counter("qs.messages.delivered")).isOne();
		assertThat(counter("qs.polls.empty")).isZero();
	}

	@Test
	void longPoll_messageReadyOrNoWait_answeredAtOnce() {
		assertThat(this.messages.awaitLease("q", 1, Duration.ZERO, null).getNow(null)).isEmpty();
		this.messages.push("q", body());

		assertThat(this.messages.awaitLease("q", 1, Duration.ofSeconds(20), null).getNow(null)).hasSize(1);
		assertThat(this.made.longPolls().waiting()).isEmpty();
	}

	@Test
	void longPoll_ended_answeredWithNothing_andLeasesNothingAfter() {
		LongPoll poll = this.messages.awaitLease("q", 1, Duration.ofSeconds(20), null);

		poll.end();
		this.messages.push("q", body());

		assertThat(poll.getNow(null)).isEmpty();
		assertThat(this.messages.hasReady("q")).as("the push's message is still there").isTrue();
		assertThat(counter("qs.polls.empty")).isOne();
	}

	@Test
	void queues_explicitEvenEmpty_andThoseHoldingMessages_byName() {
		this.operations.configure("b-explicit", new QueueSettings.Change(null, null, null, null));
		this.messages.push("a-pushed", body());
		this.messages.push("c-both", body());
		this.operations.configure("c-both", new QueueSettings.Change(null, null, null, null));

		assertThat(this.operations.queues()).containsExactly(new QueueStats("a-pushed", 1, 0),
				new QueueStats("b-explicit", 0, 0), new QueueStats("c-both", 1, 0));
	}

	private double counter(String name) {
		return this.registry.find(name).counters().stream().mapToDouble(c -> c.count()).sum();
	}

	private static byte[] body() {
		return TestBodies.utf8("m").get(0);
	}

}
