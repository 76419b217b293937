package io.github.qsbench.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.github.qsbench.core.ByIdOperation;
import io.github.qsbench.core.ByIdOutcome;
import io.github.qsbench.core.Capacity;
import io.github.qsbench.core.CapacityExceededException;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.CompletionFence;
import io.github.qsbench.core.Eviction;
import io.github.qsbench.core.Lease;
import io.github.qsbench.core.Message;
import io.github.qsbench.core.MutableClock;
import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.strategy.Strategy;
import io.github.qsbench.metrics.CoreTimedQueueService.Operation;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * The core-time meter with a ticker that moves 1 µs per read: each call counts exactly
 * the time between its two reads, under its own operation, failed calls too.
 */
class CoreTimedQueueServiceTests {

	private static final long TICK_NANOS = 1_000;

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private long now;

	private final QueueServiceCore strategy = Strategy.CONCURRENT_ATOMIC.create(new QueueOptions(Duration.ofSeconds(30),
			Eviction.LAZY, new MutableClock(), true, new Capacity.Limits(10, 2, 1_000_000)));

	private final CoreTimedQueueService service = new CoreTimedQueueService(this.strategy, this.registry,
			() -> this.now += TICK_NANOS);

	@Test
	void eachCall_timedUnderItsOperation() {
		Message pushed = this.service.push("q", "a".getBytes());
		List<Lease> leased = this.service.lease("q", 1);
		ByIdOutcome change = this.service.byId("q", pushed.id(), ByIdOperation.CHANGE_LEASE, leased.get(0).delivery(),
				1_000);
		Completion completion = this.service.complete("q", pushed.id(), leased.get(0).delivery());
		this.service.queues();
		this.service.queue("q");
		this.service.hasReady("q");
		this.service.pushAll("q", List.of("b".getBytes()));
		this.service.byId("q", pushed.id() + 1, ByIdOperation.END_DELAY);
		this.service.byId("q", pushed.id() + 1, ByIdOperation.DISCARD);
		this.service.poll("q");
		this.service.peek("q", 1);
		List<Completion> batch = this.service.completeAll("q", new long[] { pushed.id() },
				new int[] { leased.get(0).delivery() });

		assertThat(batch).containsExactly(Completion.NOT_FOUND);
		assertThat(change).isEqualTo(ByIdOutcome.DONE);
		assertThat(completion).isEqualTo(Completion.COMPLETED);
		for (Operation operation : Operation.values()) {
			assertThat(this.service.seconds(operation)).as(operation.tag()).isEqualTo(TICK_NANOS / 1e9);
			assertTimedOnce(operation.tag());
		}
		for (ByIdOperation operation : ByIdOperation.values()) {
			assertThat(this.service.seconds(operation)).as(operation.name()).isEqualTo(TICK_NANOS / 1e9);
			assertTimedOnce(Operation.tag(operation));
		}
		assertThat(List.of(Operation.tag(ByIdOperation.CHANGE_LEASE), Operation.tag(ByIdOperation.DISCARD),
				Operation.tag(ByIdOperation.END_DELAY)))
			.as("the tags the operations by id had as methods")
			.containsExactly("change_lease", "discard", "end_delay");
	}

	@Test
	void fencedCompletion_passedOnWithItsFence_timedAsACompletion() {
		CompletionFence fence = new CompletionFence() {
		};
		QueueServiceCore fencing = (QueueServiceCore) Proxy.newProxyInstance(QueueServiceCore.class.getClassLoader(),
				new Class<?>[] { QueueServiceCore.class }, (proxy, method, args) -> {
					if (method.getName().equals("completeFenced") && args[3] == fence) {
						return Optional.empty();
					}
					throw new UnsupportedOperationException(method.getName());
				});
		CoreTimedQueueService timed = new CoreTimedQueueService(fencing, new SimpleMeterRegistry(),
				() -> this.now += TICK_NANOS);

		assertThat(timed.completeFenced("q", 1, 1, fence)).as("the core's answer: the fence did not hold").isEmpty();
		assertThat(timed.seconds(Operation.COMPLETE)).isEqualTo(TICK_NANOS / 1e9);
	}

	@Test
	void discardAll_passedOnWhole_timedAsDiscards() {
		QueueServiceCore batching = (QueueServiceCore) Proxy.newProxyInstance(QueueServiceCore.class.getClassLoader(),
				new Class<?>[] { QueueServiceCore.class }, (proxy, method, args) -> {
					if (method.getName().equals("discardAll") && ((long[]) args[1]).length == 2) {
						return List.of(ByIdOutcome.DONE, ByIdOutcome.NOT_FOUND);
					}
					throw new UnsupportedOperationException(method.getName());
				});
		CoreTimedQueueService timed = new CoreTimedQueueService(batching, new SimpleMeterRegistry(),
				() -> this.now += TICK_NANOS);

		assertThat(timed.discardAll("q", new long[] { 1, 2 })).as("one call of the core's, not one per id")
			.containsExactly(ByIdOutcome.DONE, ByIdOutcome.NOT_FOUND);
		assertThat(timed.seconds(ByIdOperation.DISCARD)).isEqualTo(TICK_NANOS / 1e9);
	}

	@Test
	void changeLeaseAll_passedOnWhole_timedAsLeaseChanges() {
		QueueServiceCore batching = (QueueServiceCore) Proxy.newProxyInstance(QueueServiceCore.class.getClassLoader(),
				new Class<?>[] { QueueServiceCore.class }, (proxy, method, args) -> {
					if (method.getName().equals("changeLeaseAll") && ((long[]) args[1]).length == 2
							&& (long) args[3] == 60_000) {
						return List.of(ByIdOutcome.DONE, ByIdOutcome.STALE_LEASE);
					}
					throw new UnsupportedOperationException(method.getName());
				});
		CoreTimedQueueService timed = new CoreTimedQueueService(batching, new SimpleMeterRegistry(),
				() -> this.now += TICK_NANOS);

		assertThat(timed.changeLeaseAll("q", new long[] { 1, 2 }, new int[] { 1, 1 }, 60_000))
			.as("one call of the core's, not one per id")
			.containsExactly(ByIdOutcome.DONE, ByIdOutcome.STALE_LEASE);
		assertThat(timed.seconds(ByIdOperation.CHANGE_LEASE)).isEqualTo(TICK_NANOS / 1e9);
	}

	private void assertTimedOnce(String tag) {
		assertThat(this.registry.get("qs.core").tag("operation", tag).functionCounter().count()).as(tag)
			.isEqualTo(TICK_NANOS / 1e9);
	}

	@Test
	void refusedPush_stillTimed_andNothingElse() {
		this.service.pushAll("q", List.of("a".getBytes(), "b".getBytes()));

		assertThatThrownBy(() -> this.service.push("q", "c".getBytes())).isInstanceOf(CapacityExceededException.class);

		assertThat(this.service.seconds(Operation.PUSH)).isEqualTo(TICK_NANOS / 1e9);
		assertThat(this.service.seconds(Operation.POLL)).isZero();
		this.service.heldCount();
		this.service.queueCount();
		this.service.capacity();
		this.service.lastId();
		assertThat(this.now).as("gauge reads are not timed").isEqualTo(4 * TICK_NANOS);
	}

}
