package io.github.qsbench.core;

import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The harness's own contract: a task that fails is the failure, not a timeout of the
 * tasks that wait for what it would have done.
 */
class ConcurrentTestHarnessTests {

	@Test
	void failedTask_isTheCause_andStopsTheOthers() {
		Runnable fails = () -> {
			throw new IllegalStateException("took a message and failed");
		};
		Runnable waitsForever = () -> {
			while (!Thread.currentThread().isInterrupted()) {
				Thread.onSpinWait();
			}
		};

		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> ConcurrentTestHarness.runAll(Duration.ofMinutes(10), List.of(fails, waitsForever)))
			.withMessage("a task failed")
			.withCauseInstanceOf(IllegalStateException.class);
	}

	@Test
	void tasksNotDoneInTime_failWithWhatTheyWorkOn() {
		Runnable waitsForever = () -> {
			while (!Thread.currentThread().isInterrupted()) {
				Thread.onSpinWait();
			}
		};

		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> ConcurrentTestHarness.runAll(Duration.ofMillis(50), List.of(waitsForever),
					() -> "message 7 never delivered"))
			.withMessageStartingWith("1 threads still running after PT0.05S\nmessage 7 never delivered\n");
	}

}
