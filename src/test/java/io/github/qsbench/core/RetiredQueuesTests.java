package io.github.qsbench.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.time.Duration;
import java.util.function.Function;
import java.util.function.ToIntFunction;

import io.github.qsbench.core.strategy.LaneLockedQS;
import io.github.qsbench.core.strategy.SplitConcurrentQS;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What the contract suite cannot see of the two frameworks that keep in-flight messages
 * apart ({@link AbstractSplitQS}, {@link AbstractLaneLockedQS}): emptied queues are
 * retired, reopened by the next push, and only a bounded number of them stays in memory,
 * including those that refused pushes made.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(RetiredQueuesTests.Framework.class)
class RetiredQueuesTests {

	/** Each framework with one of its strategies and its count of queues in memory. */
	enum Framework {

		SPLIT(SplitConcurrentQS::new, service -> ((AbstractSplitQS) service).lanesInMemory()),

		LANE_LOCKED(LaneLockedQS::new, service -> ((AbstractLaneLockedQS) service).lanesInMemory());

		private final Function<QueueOptions, QueueServiceCore> factory;

		private final ToIntFunction<QueueServiceCore> lanesInMemory;

		Framework(Function<QueueOptions, QueueServiceCore> factory, ToIntFunction<QueueServiceCore> lanesInMemory) {
			this.factory = factory;
			this.lanesInMemory = lanesInMemory;
		}

	}

	@Parameter
	Framework framework;

	private QueueServiceCore service;

	private int lanesInMemory() {
		return this.framework.lanesInMemory.applyAsInt(this.service);
	}

	@BeforeEach
	void newService() {
		this.service = this.framework.factory.apply(new QueueOptions(Duration.ofSeconds(30), Eviction.LAZY,
				new MutableClock(), true, new Capacity.Limits(100, 1_000_000, 1 << 30)));
	}

	@Test
	void emptiedQueue_reopenedByTheNextPush_asTheSameQueue() {
		this.service.push("q", "first");
		this.service.complete("q", this.service.poll("q").orElseThrow());
		assertThat(this.service.queueCount()).isZero();
		assertThat(lanesInMemory()).as("retired, not yet removed").isOne();

		this.service.push("q", "second");

		assertThat(this.service.queueCount()).isOne();
		assertThat(lanesInMemory()).as("reopened, not made anew").isOne();
		assertThat(this.service.capacity().orElseThrow().heldQueues()).isOne();
		assertThat(this.service.poll("q").orElseThrow().text()).isEqualTo("second");
	}

	@Test
	void manyQueueNames_atMostTheRetiredStayInMemory() {
		for (int i = 0; i < 10_000; i++) {
			String queue = "q" + i;
			this.service.push(queue, "x");
			assertThat(this.service.complete(queue, this.service.poll(queue).orElseThrow())).isTrue();
		}

		assertThat(this.service.queueCount()).isZero();
		assertThat(this.service.capacity().orElseThrow().heldQueues()).isZero();
		assertThat(lanesInMemory()).isLessThanOrEqualTo(64);
	}

	@Test
	void pushesRefusedForTooManyQueues_leaveNoQueueBehind() {
		for (int i = 0; i < 100; i++) {
			this.service.push("held" + i, "x");
		}

		for (int i = 0; i < 1_000; i++) {
			String queue = "refused" + i;
			assertThatExceptionOfType(CapacityExceededException.class).isThrownBy(() -> this.service.push(queue, "x"));
		}

		assertThat(this.service.queueCount()).isEqualTo(100);
		assertThat(this.service.capacity().orElseThrow().heldQueues()).isEqualTo(100);
		assertThat(lanesInMemory()).isLessThanOrEqualTo(100 + 64);
	}

}
