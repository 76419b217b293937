package io.github.qsbench.http;

import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;

import org.eclipse.jetty.util.Callback;

/**
 * A route answered on the selector thread that read the request, as the REST hot routes
 * are (the rest room's hot-route handler, which asks each of these before it hands a
 * request to the servlet context): it must not block, reading the body and writing the
 * answer through Jetty's callbacks. Asked only while the store answers in this process.
 */
public interface SelectorRoute {

	/**
	 * Takes the request and answers it, now or later, or leaves it untouched.
	 * @param start when it arrived ({@link System#nanoTime()}), for its timer
	 * @return whether it took the request (then it completes the callback)
	 */
	boolean handle(Request request, Response response, Callback callback, long start);

}
