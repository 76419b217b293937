package io.github.qsbench.application.queues;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class PeriodicPassTests {

	private final ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1);

	@AfterEach
	void shutdown() {
		this.scheduler.shutdownNow();
	}

	@Test
	void pass_thatFails_isLoggedAndTheNextOneRuns() throws InterruptedException {
		AtomicInteger passes = new AtomicInteger();
		CountDownLatch third = new CountDownLatch(3);
		PeriodicPass pass = new PeriodicPass(this.scheduler, Duration.ofMillis(1), () -> {
			third.countDown();
			if (passes.incrementAndGet() == 1) {
				throw new IllegalStateException("the first pass fails");
			}
		}, LoggerFactory.getLogger(PeriodicPassTests.class), "A test pass");
		pass.start();
		assertThat(third.await(10, TimeUnit.SECONDS)).as("three passes, the first failed").isTrue();
		assertThat(pass.isRunning()).isTrue();
	}

	@Test
	void rest_aPeriodAfterAQuickPass_restPerPassTimesASlowOne() {
		assertThat(PeriodicPass.restMillis(1_000, PeriodicPass.A_TENTH, 0)).isEqualTo(1_000);
		assertThat(PeriodicPass.restMillis(1_000, PeriodicPass.A_TENTH, 111)).isEqualTo(1_000);
		assertThat(PeriodicPass.restMillis(1_000, PeriodicPass.A_TENTH, 112)).isEqualTo(1_008);
		assertThat(PeriodicPass.restMillis(100, 0, 5_000)).as("no rest per pass: the period").isEqualTo(100);
	}

	@Test
	void stop_cancelsThePassesToCome_andSaysWhetherTheyWereStarted() {
		PeriodicPass pass = new PeriodicPass(this.scheduler, Duration.ofHours(1), () -> {
		}, LoggerFactory.getLogger(PeriodicPassTests.class), "A test pass");
		assertThat(pass.stop()).as("never started").isFalse();
		pass.start();
		assertThat(this.scheduler.getQueue()).hasSize(1);
		assertThat(pass.stop()).isTrue();
		assertThat(pass.isRunning()).isFalse();
		assertThat(this.scheduler.getQueue()).as("the cancelled pass left the queue or is cancelled")
			.allSatisfy(task -> assertThat(((Future<?>) task).isCancelled()).isTrue());
		assertThat(pass.stop()).as("stopped already").isFalse();
	}

}
