package io.github.qsbench.core.lanes;

import io.github.qsbench.core.Capacity;
import io.github.qsbench.core.CapacityExceededException;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.Eviction;
import io.github.qsbench.core.MutableClock;
import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.shared.CompletableMessage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.time.Duration;
import java.util.stream.Stream;

import io.github.qsbench.core.strategy.Strategy;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the contract suite cannot see of the outline of the frameworks that keep in-flight
 * messages apart ({@link AbstractLanesQS}): emptied queues are retired, reopened by the
 * next push, and only a bounded number of them stays in memory, including those that
 * refused pushes made. Run for every strategy on it.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("laneStrategies")
class RetiredQueuesTests {

	static Stream<Strategy> laneStrategies() {
		return Stream.of(Strategy.values()).filter(s -> AbstractLanesQS.class.isAssignableFrom(s.framework().type()));
	}

	@Parameter
	Strategy strategy;

	private QueueServiceCore service;

	private int lanesInMemory() {
		return ((AbstractLanesQS<?, ?>) this.service).lanesInMemory();
	}

	@BeforeEach
	void newService() {
		this.service = this.strategy.create(new QueueOptions(Duration.ofSeconds(30), Eviction.LAZY, new MutableClock(),
				true, new Capacity.Limits(100, 1_000_000, 1 << 30)));
	}

	@AfterEach
	void closeService() {
		this.service.close();
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

	/**
	 * In the thesis's setting with eager eviction a completion first marks the message,
	 * then takes it out of its lane; a poll in between may drop it as a completed head,
	 * which closes the lane, and the ring may remove the lane for good. The completion's
	 * second step then finds no lane, or another of the same name, and has nothing left
	 * to do.
	 */
	@Test
	void completionWhoseLaneWasRemovedMeanwhile_leavesNothingToDo() {
		AbstractLanesQS<?, ?> thesis = (AbstractLanesQS<?, ?>) this.strategy
			.create(new QueueOptions(Duration.ofSeconds(30), Eviction.EAGER, new MutableClock(), false));
		try (thesis) {
			thesis.push("q", "first");
			CompletableMessage first = (CompletableMessage) thesis.poll("q").orElseThrow();
			assertThat(first.complete(QueueServiceCore.ANY_DELIVERY)).as("the completion's mark")
				.isEqualTo(Completion.COMPLETED);
			assertThat(thesis.poll("q")).as("a poll drops the completed head").isEmpty();
			assertThat(thesis.queueCount()).as("which closed the lane").isZero();
			QueueLane closed = thesis.lanes.get("q");
			assertThat(closed.removeIfClosed()).isTrue();
			thesis.lanes.remove("q", closed);

			evictCompleted(thesis, "q", first);
			thesis.push("q", "second");
			evictCompleted(thesis, "q", first);

			assertThat(thesis.poll("q").orElseThrow().text()).isEqualTo("second");
		}
	}

	@SuppressWarnings("unchecked")
	private static <M extends CompletableMessage> void evictCompleted(AbstractLanesQS<?, M> service, String queue,
			CompletableMessage message) {
		service.evictCompleted(queue, (M) message);
	}

}
