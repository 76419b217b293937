package io.github.qsbench.http;

import java.io.IOException;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * A request waiting in the servlet's async mode for an answer another thread finds (a
 * long poll's: a push's thread, the wait's timer); made by {@link AsyncAnswers}, the one
 * way every adapter suspends a request. The answering thread only hands the answer over
 * and asks the container to dispatch the request again; the dispatch, on a request
 * thread, comes back to the {@link AnsweringFilter} on the request's path, which writes
 * the answer ({@link #writeTaken}). So a waiting request holds no thread, the answering
 * thread never blocks on another client's socket, and the answer passes no other filter
 * nor the {@code DispatcherServlet}.
 *
 * @param <T> the answer, as its adapter's writer writes it
 */
public final class AsyncAnswer<T> {

	/** The request attribute that carries the answer to the async dispatch. */
	private static final String ATTRIBUTE = AsyncAnswer.class.getName();

	private final AsyncContext async;

	private final long start;

	private final AsyncAnswers<T> adapter;

	/** Set before the dispatch, read on it. */
	private volatile T answer;

	AsyncAnswer(HttpServletRequest request, AsyncContext async, long start, AsyncAnswers<T> adapter) {
		this.async = async;
		this.start = start;
		this.adapter = adapter;
		request.setAttribute(ATTRIBUTE, this);
	}

	/**
	 * On an async dispatch: writes the answer waiting for this request, taken off it, and
	 * flushes it, so that it is on the socket before the container counts the request
	 * complete (see {@link SuspendedRequests}; a 204's head would otherwise be written
	 * only after).
	 * @return whether an answer waited; {@code false} for a dispatch someone else started
	 */
	static boolean writeTaken(HttpServletRequest request, HttpServletResponse response) throws IOException {
		if (!(request.getAttribute(ATTRIBUTE) instanceof AsyncAnswer<?> waiting)) {
			return false;
		}
		request.removeAttribute(ATTRIBUTE);
		waiting.write(response);
		return true;
	}

	private void write(HttpServletResponse response) throws IOException {
		try {
			this.adapter.writer().write(this.answer, response);
			response.flushBuffer();
		}
		catch (IOException | RuntimeException ex) {
			this.adapter.failed(ex, this.start);
			throw ex;
		}
		this.adapter.answered(response.getStatus(), this.start);
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

}
