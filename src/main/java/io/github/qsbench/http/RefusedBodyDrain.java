package io.github.qsbench.http;

import java.io.IOException;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Reads and drops what is left of a request body the service refused (an error status)
 * without reading it all, up to {@link #MAX_DRAINED_BYTES}, as Tomcat did on its own
 * ({@code maxSwallowSize}, 2 MiB), so that the connection stays usable for the client's
 * next request. Jetty reads only the bytes already arrived, and when a refused body is
 * still arriving it closes the connection after the answer: if the answer was committed
 * before (Spring flushes what it writes), it went out without {@code Connection: close},
 * the client keeps the connection in its pool and its next request on it finds the
 * connection closed (a POST, which the client does not retry, then fails). Bodies over
 * the bound are left to Jetty, which closes the connection. Requests answered in full and
 * asynchronous ones are left alone; a request whose body was read as characters cannot be
 * drained and is left to Jetty too.
 */
class RefusedBodyDrain implements Filter {

	/** Tomcat's default {@code maxSwallowSize}. */
	static final long MAX_DRAINED_BYTES = 2 * 1024 * 1024;

	@Override
	public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
			throws IOException, ServletException {
		chain.doFilter(request, response);
		if (((HttpServletResponse) response).getStatus() >= 400 && !request.isAsyncStarted()
				&& request.getContentLengthLong() != 0) {
			drain((HttpServletRequest) request);
		}
	}

	private static void drain(HttpServletRequest request) {
		try {
			ServletInputStream in = request.getInputStream();
			byte[] buffer = new byte[8192];
			long left = MAX_DRAINED_BYTES;
			while (left > 0 && !in.isFinished()) {
				int read = in.read(buffer, 0, (int) Math.min(buffer.length, left));
				if (read < 0) {
					return;
				}
				left -= read;
			}
		}
		catch (IOException | IllegalStateException ex) {
			// the body was read as characters, or the client is gone: Jetty closes
		}
	}

}
