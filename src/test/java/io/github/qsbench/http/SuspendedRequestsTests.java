package io.github.qsbench.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * Shutdown's wait for the requests in async mode: none holds it up when every suspended
 * request was completed, and one still suspended holds it until the container completes
 * it.
 */
class SuspendedRequestsTests {

	private final SuspendedRequests suspended = new SuspendedRequests();

	@Test
	void stop_returnsAtOnceWhenEverySuspendedRequestCompleted() {
		this.suspended.start();
		this.suspended.suspended();
		this.suspended.completed();

		this.suspended.stop();

		assertThat(this.suspended.count()).isZero();
		assertThat(this.suspended.isRunning()).isFalse();
	}

	@Test
	void stop_waitsForTheRequestStillSuspended() throws Exception {
		this.suspended.start();
		this.suspended.suspended();
		Thread[] stopping = new Thread[1];
		CompletableFuture<Void> stopped = CompletableFuture.runAsync(() -> {
			stopping[0] = Thread.currentThread();
			this.suspended.stop();
		});
		await().atMost(Duration.ofSeconds(4))
			.until(() -> stopping[0] != null && stopping[0].getState() == Thread.State.TIMED_WAITING);
		assertThat(stopped).as("waits while a request is suspended").isNotDone();

		this.suspended.completed();

		stopped.get(4, TimeUnit.SECONDS);
		assertThat(this.suspended.count()).isZero();
	}

}
