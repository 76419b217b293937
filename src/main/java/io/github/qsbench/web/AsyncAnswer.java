package io.github.qsbench.web;

import java.time.Duration;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * A request waiting in the servlet's async mode for an answer another thread finds (a
 * long poll's: a push's thread, the wait's timer), for the filters that answer requests
 * themselves ({@link QueueFastPath}, the SQS face). The answering thread only hands the
 * answer over and asks the container to dispatch the request again; the dispatch, on a
 * request thread, comes back to the filter, which takes the answer ({@link #take}) and
 * writes it. So a waiting request holds no thread, the answering thread never blocks on
 * another client's socket, and the answer passes no other filter nor the
 * {@code DispatcherServlet}. The container's timeout, a backstop, and a failed connection
 * end the wait. Each suspended request is counted in {@link SuspendedRequests} until the
 * container completes it, for shutdown.
 *
 * @param <T> the answer, as the filter writes it
 */
public final class AsyncAnswer<T> {

	/** The request attribute that carries the answer to the async dispatch. */
	private static final String ATTRIBUTE = AsyncAnswer.class.getName();

	private final AsyncContext async;

	private final long start;

	/** Set before the dispatch, read on it. */
	private volatile T answer;

	private AsyncAnswer(AsyncContext async, long start) {
		this.async = async;
		this.start = start;
	}

	/**
	 * Puts the request in async mode until {@link #answer} is called.
	 * @param start when the request arrived ({@link System#nanoTime()}), for its timer
	 * @param timeout the container's timeout: the wait plus a grace
	 * @param end ends the wait, answering it with nothing unless it was answered already:
	 * called on the container's timeout and on a failed connection
	 * @param suspended counts the request until the container completes it
	 */
	public static <T> AsyncAnswer<T> suspend(HttpServletRequest request, HttpServletResponse response, long start,
			Duration timeout, Runnable end, SuspendedRequests suspended) {
		AsyncContext async = request.startAsync(request, response);
		async.setTimeout(timeout.toMillis());
		suspended.suspended();
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
				suspended.completed();
			}

			@Override
			public void onStartAsync(AsyncEvent event) {
			}

		});
		AsyncAnswer<T> waiting = new AsyncAnswer<>(async, start);
		request.setAttribute(ATTRIBUTE, waiting);
		return waiting;
	}

	/**
	 * On an async dispatch: the answer waiting for this request, taken off it, or
	 * {@code null} if none waits (a dispatch someone else started).
	 */
	public static AsyncAnswer<?> take(HttpServletRequest request) {
		if (request.getAttribute(ATTRIBUTE) instanceof AsyncAnswer<?> waiting) {
			request.removeAttribute(ATTRIBUTE);
			return waiting;
		}
		return null;
	}

	/**
	 * Hands the answer over, from any thread, and has the container dispatch the request.
	 */
	public void answer(T answer) {
		this.answer = answer;
		try {
			this.async.dispatch();
		}
		catch (IllegalStateException ended) {
			// the request ended meanwhile (its connection failed): nobody to answer, and
			// what was leased for it is delivered again when the lease lapses
		}
	}

	/** The answer, on the dispatch. */
	public T answer() {
		return this.answer;
	}

	/** When the request arrived, for its timer. */
	public long start() {
		return this.start;
	}

}
