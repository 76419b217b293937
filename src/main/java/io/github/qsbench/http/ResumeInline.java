package io.github.qsbench.http;

/**
 * Lets a request thread read its connection's next request itself. Jetty 12 resumes a
 * connection whose request completed off the thread that read it by executing the
 * connection on its pool (a second hand-off, after the one to the request thread, and a
 * pool thread woken); a request thread about to end, allowed to block, runs that task
 * itself instead, and serves the next request if it came already.
 */
public final class ResumeInline {

	private static final ThreadLocal<Boolean> COMPLETING = new ThreadLocal<>();

	private static final ThreadLocal<Boolean> REQUEST_THREAD = new ThreadLocal<>();

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
	 * Keeps the job for this thread, to run once its request has returned, if this is a
	 * request thread completing its request; says whether it did.
	 */
	public static boolean deferredHere(Runnable job) {
		if (COMPLETING.get() != Boolean.TRUE || REQUEST_THREAD.get() != Boolean.TRUE || RESUME.get() != null) {
			return false;
		}
		COMPLETING.remove();
		RESUME.set(job);
		return true;
	}

}
