package io.github.qsbench.http;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

import io.github.qsbench.application.messages.LongPolls;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.web.server.context.WebServerGracefulShutdownLifecycle;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * The requests in the servlet's async mode (waiting long polls: REST, suspended by the
 * fast path or the controller, and SQS; see {@link AsyncAnswers}), counted from their
 * suspension until the container completes them, so that shutdown waits for the answers
 * {@link LongPolls#stop} gave them to reach their sockets.
 *
 * <p>
 * Without this wait a waiting poll could lose its answer on shutdown. On Tomcat, where it
 * was found, the answer dispatches the request again, and Tomcat stops counting it as
 * async when it takes up the dispatch, and as in progress when the filter returns; the
 * web server's graceful shutdown, which looks only at those counts, could find nothing
 * active in between and close the connection, and the client got no answer (the JDK's
 * client then retries its GET and fails to connect). Spring Boot's graceful shutdown of
 * Jetty waits for the requests its {@code StatisticsHandler} counts as active, which
 * include asynchronous ones until they complete; this count stays the guard that does not
 * depend on how the container counts. The container completes the request (the listeners'
 * onComplete) at the end of the dispatch, before it writes the head of a response nobody
 * committed: so whatever writes an answer on the dispatch has it on the socket before it
 * returns ({@link AsyncAnswer} flushes every answer it writes, a body-less 204 too).
 * Stops after {@link LongPolls} (which answers every waiter) and before the web server's
 * graceful shutdown.
 */
@Component
public class SuspendedRequests implements SmartLifecycle {

	private static final Logger logger = LoggerFactory.getLogger(SuspendedRequests.class);

	/** The longest shutdown waits; an answer takes a dispatch and a small write. */
	private static final Duration MOST = Duration.ofSeconds(5);

	private static final long CHECK_MILLIS = 5;

	private final AtomicInteger suspended = new AtomicInteger();

	private volatile boolean running;

	/** A request was put in async mode, or suspended by a Jetty core handler. */
	public void suspended() {
		this.suspended.incrementAndGet();
	}

	/** A request suspended was completed (answered or not). */
	public void completed() {
		this.suspended.decrementAndGet();
	}

	/**
	 * Suspends a request that a Jetty core handler answers later, from whichever thread
	 * finds its answer: counted until its answer is written, ended by its deadline and by
	 * a failed connection (each calls {@code end}, which answers it with nothing unless
	 * it was answered already); the connection's idle timeout does not end it, since its
	 * deadline bounds it.
	 * @param write writes an answer, completing the callback it is given
	 * @return what answers the request: the first answer is written, later ones dropped
	 */
	public <T> Consumer<T> suspend(Request request, Callback callback, Duration timeout, Runnable end,
			BiConsumer<T, Callback> write) {
		suspended();
		Scheduler.Task deadline = request.getComponents()
			.getScheduler()
			.schedule(end, timeout.toMillis(), TimeUnit.MILLISECONDS);
		request.addFailureListener(failure -> end.run());
		request.addIdleTimeoutListener(idle -> false);
		AtomicBoolean answered = new AtomicBoolean();
		return answer -> {
			if (answered.compareAndSet(false, true)) {
				deadline.cancel();
				write.accept(answer, Callback.from(callback, this::completed));
			}
		};
	}

	/** Requests in async mode now. */
	int count() {
		return this.suspended.get();
	}

	@Override
	public void start() {
		this.running = true;
	}

	/**
	 * Waits until every request in async mode was completed, or {@link #MOST} passed.
	 */
	@Override
	public void stop() {
		this.running = false;
		long deadline = System.nanoTime() + MOST.toNanos();
		try {
			while (count() > 0) {
				if (System.nanoTime() - deadline >= 0) {
					logger.warn("{} requests still in async mode after {}: shutdown goes on", count(), MOST);
					return;
				}
				TimeUnit.MILLISECONDS.sleep(CHECK_MILLIS);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	/** After {@link LongPolls}', before the web server's graceful shutdown. */
	@Override
	public int getPhase() {
		return WebServerGracefulShutdownLifecycle.SMART_LIFECYCLE_PHASE + 1;
	}

}
