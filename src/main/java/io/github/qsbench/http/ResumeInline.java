package io.github.qsbench.http;

/**
 * Lets a request thread read its connection's next request itself. Jetty 12 resumes a
 * connection whose request completed off the thread that read it by executing the
 * connection on its pool (a second hand-off, after the one to the request thread, and a
 * pool thread woken); a request thread about to end, allowed to block, runs that task
 * itself instead, and serves the next request if it came already. So does a thread that
 * must not block but answers a request it did not read (a Redis client's event loop, with
 * the store's answer): {@link #answering}.
 */
public final class ResumeInline {

	private static final ThreadLocal<Boolean> COMPLETING = new ThreadLocal<>();

	private static final ThreadLocal<Boolean> REQUEST_THREAD = new ThreadLocal<>();

	/** Set while a thread that must not block answers a request ({@link #answering}). */
	private static final ThreadLocal<Boolean> ANSWERING = new ThreadLocal<>();

	/** The resume deferred until the request thread's current request has returned. */
	private static final ThreadLocal<Runnable> RESUME = new ThreadLocal<>();

	private ResumeInline() {
	}

	/**
	 * Runs a request on this thread, marked as one that may block, then the resume its
	 * completion deferred, and the resume of the request that resume served, and so on:
	 * one after another, not nested.
	 */
	public static void onRequestThread(Runnable request) {
		REQUEST_THREAD.set(Boolean.TRUE);
		try {
			request.run();
			for (Runnable resume = RESUME.get(); resume != null; resume = RESUME.get()) {
				RESUME.remove();
				resume.run();
			}
		}
		finally {
			REQUEST_THREAD.remove();
			RESUME.remove();
		}
	}

	/** Whether this thread is a request thread (it may block). */
	public static boolean onRequestThread() {
		return REQUEST_THREAD.get() == Boolean.TRUE;
	}

	/**
	 * Runs {@code completion} (a request's callback) so that the first task it executes
	 * (the connection's resume) runs on this thread once its request has returned.
	 */
	public static void completing(Runnable completion) {
		COMPLETING.set(Boolean.TRUE);
		try {
			completion.run();
		}
		finally {
			COMPLETING.remove();
		}
	}

	/**
	 * Runs {@code answer}, which writes a request's answer and completes it, on a thread
	 * that must not block, then the connection's resume it deferred, here rather than on
	 * a pool thread woken for it. The resume reads the connection's next request if it
	 * came, and the handler hands whatever could block to a request thread, since this is
	 * not one ({@link #onRequestThread()} stays false). A resume's own answer written
	 * inline is resumed on the pool, so that nothing here nests.
	 */
	public static void answering(Runnable answer) {
		ANSWERING.set(Boolean.TRUE);
		COMPLETING.set(Boolean.TRUE);
		Runnable resume;
		try {
			answer.run();
			resume = RESUME.get();
		}
		finally {
			ANSWERING.remove();
			COMPLETING.remove();
			RESUME.remove();
		}
		if (resume != null) {
			resume.run();
		}
	}

	/**
	 * Keeps the job for this thread, to run once its request has returned, if this is a
	 * request thread completing its request, or a thread {@link #answering}; says whether
	 * it did.
	 */
	public static boolean deferredHere(Runnable job) {
		boolean resumesHere = REQUEST_THREAD.get() == Boolean.TRUE || ANSWERING.get() == Boolean.TRUE;
		if (COMPLETING.get() != Boolean.TRUE || !resumesHere || RESUME.get() != null) {
			return false;
		}
		COMPLETING.remove();
		RESUME.set(job);
		return true;
	}

}
