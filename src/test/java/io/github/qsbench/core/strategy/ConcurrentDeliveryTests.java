package io.github.qsbench.core.strategy;

import static io.github.qsbench.core.ConcurrentTestHarness.intProperty;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;

import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.TestCores;
import io.github.qsbench.core.Capacity;
import io.github.qsbench.core.CapacityExceededException;
import io.github.qsbench.core.ConcurrentTestHarness;
import io.github.qsbench.core.Delivery;
import io.github.qsbench.core.Eviction;
import io.github.qsbench.core.Message;
import io.github.qsbench.core.QueueOptions;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Writers and readers race over 8 queues until every pushed message was delivered; then
 * the service must be empty. Counts lost messages (must be none for every strategy) and
 * duplicate deliveries (must be none where {@link Strategy#delivery(Eviction)} says
 * exactly-once for that eviction; printed for all). Every strategy runs with both
 * evictions. The lease is far longer than the run, so a second delivery can only come
 * from a race. Sizes come from system properties {@code qs.test.messages},
 * {@code qs.test.writers}, {@code qs.test.readers}.
 */
class ConcurrentDeliveryTests {

	private static final int MESSAGES = intProperty("qs.test.messages", 100_000);

	private static final int WRITERS = intProperty("qs.test.writers", 4);

	private static final int READERS = intProperty("qs.test.readers", 4);

	private static final Duration TIMEOUT = Duration.ofSeconds(intProperty("qs.test.timeout-seconds", 120));

	private static final String[] QUEUES = { "q0", "q1", "q2", "q3", "q4", "q5", "q6", "q7" };

	/** Redis has no eviction of its own: its queues drop a message when it completes. */
	static Stream<Arguments> strategiesAndEvictions() {
		return Arrays.stream(Strategy.values())
			.flatMap(strategy -> Arrays.stream(Eviction.values())
				.filter(eviction -> strategy != Strategy.REDIS || eviction == Eviction.LAZY)
				.map(eviction -> Arguments.of(strategy, eviction)));
	}

	/**
	 * Messages a run pushes: a fifth for Redis, whose every operation is a round trip
	 * (about 3,000 cycles a second here), so that it takes seconds, not a minute.
	 */
	private static int messages(Strategy strategy) {
		return (strategy == Strategy.REDIS) ? MESSAGES / 5 : MESSAGES;
	}

	@ParameterizedTest(name = "{0}, {1}")
	@MethodSource("strategiesAndEvictions")
	void writersAndReaders_nothingLost_duplicatesCounted(Strategy strategy, Eviction eviction)
			throws InterruptedException {
		try (QueueServiceCore service = TestCores.create(strategy,
				new QueueOptions(Duration.ofDays(999), eviction, InstantSource.system(), true))) {
			writersAndReaders(strategy, eviction, service, true);
		}
	}

	/**
	 * The same in the thesis's setting, the one JMH measures: no id index, and a
	 * completion only marks its message.
	 */
	@ParameterizedTest
	@EnumSource(Strategy.class)
	void thesisSetting_writersAndReaders_nothingLost_duplicatesCounted(Strategy strategy) throws InterruptedException {
		try (QueueServiceCore service = TestCores.create(strategy,
				new QueueOptions(Duration.ofDays(999), Eviction.LAZY, InstantSource.system(), false))) {
			writersAndReaders(strategy, Eviction.LAZY, service, false);
		}
	}

	private void writersAndReaders(Strategy strategy, Eviction eviction, QueueServiceCore service, boolean byId)
			throws InterruptedException {
		int messages = messages(strategy);
		AtomicIntegerArray deliveries = new AtomicIntegerArray(messages);
		AtomicInteger delivered = new AtomicInteger();
		LongAdder duplicates = new LongAdder();
		LongAdder completed = new LongAdder();
		LongAdder pushed = new LongAdder();

		List<Runnable> tasks = new ArrayList<>();
		for (int w = 0; w < WRITERS; w++) {
			int writer = w;
			tasks.add(() -> {
				for (int m = writer; m < messages; m += WRITERS) {
					service.push(QUEUES[m % QUEUES.length], Integer.toString(m));
					pushed.increment();
				}
			});
		}
		for (int r = 0; r < READERS; r++) {
			int reader = r;
			tasks.add(() -> {
				for (int i = reader; delivered.get() < messages && !Thread.currentThread().isInterrupted(); i++) {
					String queue = QUEUES[i % QUEUES.length];
					Message message = service.poll(queue).orElse(null);
					if (message == null) {
						continue;
					}
					if (deliveries.incrementAndGet(Integer.parseInt(message.text())) == 1) {
						delivered.incrementAndGet();
					}
					else {
						duplicates.increment();
					}
					if (service.complete(queue, message)) {
						completed.increment();
					}
				}
			});
		}
		ConcurrentTestHarness.runAll(TIMEOUT, tasks, () -> undelivered(service, deliveries, pushed.sum()));

		int lost = 0;
		for (int m = 0; m < messages; m++) {
			lost += (deliveries.get(m) == 0) ? 1 : 0;
		}
		for (String queue : QUEUES) {
			assertThat(service.poll(queue)).as("drained").isEmpty();
		}
		System.out.printf(
				"%-38s %-5s %s, %d writers, %d readers, 8 queues: %d messages, %d lost, %d duplicate deliveries, %d completed%n",
				strategy.profile(), eviction, byId ? "service's setting" : "thesis's setting", WRITERS, READERS,
				messages, lost, duplicates.sum(), completed.sum());
		assertThat(lost).as("lost messages").isZero();
		assertThat(service.heldCount()).as("id index empty").isZero();
		assertThat(service.queueCount()).as("empty queues removed").isZero();
		if (strategy.delivery(eviction) == Delivery.EXACTLY_ONCE) {
			assertThat(duplicates.sum()).as("duplicate deliveries").isZero();
			assertThat(completed.sum()).as("each message completed exactly once").isEqualTo(messages);
		}
		else if (byId) {
			assertThat(completed.sum()).as("completion by id decided by the index").isEqualTo(messages);
		}
		else {
			assertThat(completed.sum()).as("a message delivered twice may be completed twice")
				.isBetween((long) messages, messages + duplicates.sum());
		}
	}

	/**
	 * What readers that never finish wait for: the messages not delivered, and whether
	 * the service finds anything ready in their queues.
	 */
	private static String undelivered(QueueServiceCore service, AtomicIntegerArray deliveries, long pushed) {
		StringBuilder text = new StringBuilder().append(pushed)
			.append(" of ")
			.append(deliveries.length())
			.append(" pushed; never delivered:");
		int missing = 0;
		for (int m = 0; m < deliveries.length(); m++) {
			if (deliveries.get(m) == 0 && missing++ < 10) {
				text.append(' ').append(m).append(" (").append(QUEUES[m % QUEUES.length]).append(')');
			}
		}
		text.append(", ").append(missing).append(" in all; ready:");
		for (String queue : QUEUES) {
			text.append(' ').append(queue).append('=').append(service.hasReady(queue));
		}
		return text.append("; queues open: ").append(service.queueCount()).toString();
	}

	@ParameterizedTest
	@EnumSource(Strategy.class)
	void racingPushes_capNeverOvershot(Strategy strategy) throws InterruptedException {
		int cap = 1_000;
		try (QueueServiceCore service = TestCores.create(strategy, new QueueOptions(Duration.ofDays(999), Eviction.LAZY,
				InstantSource.system(), true, new Capacity.Limits(4, cap, Long.MAX_VALUE)))) {
			racingPushes(service, cap);
		}
	}

	private void racingPushes(QueueServiceCore service, int cap) throws InterruptedException {
		LongAdder accepted = new LongAdder();
		LongAdder refused = new LongAdder();
		List<Runnable> tasks = new ArrayList<>();
		for (int w = 0; w < WRITERS; w++) {
			tasks.add(() -> {
				for (int i = 0; i < cap; i++) {
					try {
						service.push("one-queue", "x");
						accepted.increment();
					}
					catch (CapacityExceededException ex) {
						refused.increment();
					}
				}
			});
		}
		ConcurrentTestHarness.runAll(TIMEOUT, tasks);

		assertThat(accepted.sum()).isEqualTo(cap);
		assertThat(refused.sum()).isEqualTo((long) (WRITERS - 1) * cap);
		assertThat(service.heldCount()).isEqualTo(cap);
	}

}
