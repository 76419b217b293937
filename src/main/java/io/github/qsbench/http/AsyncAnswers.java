package io.github.qsbench.http;

import java.io.IOException;
import java.time.Duration;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * How one adapter suspends the requests it answers later ({@link AsyncAnswer}): each is
 * counted in {@link SuspendedRequests} until the container completes it, for shutdown;
 * its answer is written by this adapter's writer on the async dispatch, and timed by its
 * timers, or by Spring's observation filter for a request that passed it (Spring MVC's).
 * The container's timeout, a backstop, and a failed connection end the wait.
 *
 * @param <T> the answer, as the writer writes it
 */
public final class AsyncAnswers<T> {

	private final SuspendedRequests suspended;

	private final Writer<T> writer;

	private final ServerRequestTimers timers;

	/**
	 * @param writer writes an answer on the async dispatch
	 * @param timers times the answered requests, {@code null} when Spring's observation
	 * filter times them
	 */
	public AsyncAnswers(SuspendedRequests suspended, Writer<T> writer, ServerRequestTimers timers) {
		this.suspended = suspended;
		this.writer = writer;
		this.timers = timers;
	}

	/**
	 * Puts the request in async mode until {@link AsyncAnswer#answer} is called.
	 * @param start when the request arrived ({@link System#nanoTime()}), for its timer
	 * @param timeout the container's timeout: the wait plus a grace
	 * @param end ends the wait, answering it with nothing unless it was answered already:
	 * called on the container's timeout and on a failed connection
	 */
	public AsyncAnswer<T> suspend(HttpServletRequest request, HttpServletResponse response, long start,
			Duration timeout, Runnable end) {
		AsyncContext async = request.startAsync(request, response);
		async.setTimeout(timeout.toMillis());
		this.suspended.suspended();
		async.addListener(new AsyncListener() {

			@Override
			public void onTimeout(AsyncEvent event) {
				end.run();
			}

			@Override
			public void onError(AsyncEvent event) {
				end.run();
			}

			@Override
			public void onComplete(AsyncEvent event) {
				AsyncAnswers.this.suspended.completed();
			}

			@Override
			public void onStartAsync(AsyncEvent event) {
			}

		});
		return new AsyncAnswer<>(request, async, start, this);
	}

	Writer<T> writer() {
		return this.writer;
	}

	void answered(int status, long start) {
		if (this.timers != null) {
			this.timers.record(status, start);
		}
	}

	void failed(Throwable failure, long start) {
		if (this.timers != null) {
			this.timers.recordFailure(failure, start);
		}
	}

	/** Writes an answer's status, headers and body. */
	@FunctionalInterface
	public interface Writer<T> {

		void write(T answer, HttpServletResponse response) throws IOException;

	}

}
