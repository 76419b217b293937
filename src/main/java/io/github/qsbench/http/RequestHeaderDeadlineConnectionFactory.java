package io.github.qsbench.http;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.thread.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Jetty's HTTP/1.1 connections with a deadline for the request line and headers, which
 * Jetty does not offer: its idle timeout is the longest silence between two reads, so a
 * client that sends a header byte every few seconds keeps a connection as long as it
 * likes, and a few thousand such clients hold every connection the connector will take
 * ({@code server.jetty.max-connections}) while everyone else waits.
 * <p>
 * A connection notes the time when the first bytes of a request arrive (the parser begins
 * a message with bytes to read) and clears it when the parser has the request's headers
 * (or a bad message, or the end of the stream). One sweep over the open connections, on
 * the connector's scheduler, a tenth of the deadline apart (50 ms to 1 s), closes those
 * whose headers are overdue, silently, as an idle timeout would. A request costs two
 * writes of a field and no timer of its own: a timer armed and cancelled per request cost
 * a fifth of a request's CPU on the hot routes (docs/request-path-profile.md). The sweep
 * takes a noted time away with a compare-and-set, so a request whose headers completed
 * before it is never cut. Idle kept-alive connections, requests being served, their
 * bodies and asynchronous requests (long polls) have no time noted.
 */
public class RequestHeaderDeadlineConnectionFactory extends HttpConnectionFactory {

	private static final Logger logger = LoggerFactory.getLogger(RequestHeaderDeadlineConnectionFactory.class);

	private static final long MIN_SWEEP_MILLIS = 50;

	private static final long MAX_SWEEP_MILLIS = 1000;

	private final long requestHeaderTimeout;

	/** The open connections, for the sweep. */
	private final Set<DeadlineConnection> connections = ConcurrentHashMap.newKeySet();

	/**
	 * Whether the sweep is scheduled: from the first connection until the factory stops.
	 */
	private volatile boolean sweeping;

	/**
	 * @param configuration the connector's HTTP configuration
	 * @param requestHeaderTimeout the longest time, in milliseconds, from the first byte
	 * of a request to the end of its headers; zero or less switches the deadline off
	 */
	public RequestHeaderDeadlineConnectionFactory(HttpConfiguration configuration, long requestHeaderTimeout) {
		super(configuration);
		this.requestHeaderTimeout = requestHeaderTimeout;
	}

	/**
	 * The longest time, in milliseconds, from the first byte of a request to the end of
	 * its headers; zero or less switches the deadline off.
	 */
	public long getRequestHeaderTimeout() {
		return this.requestHeaderTimeout;
	}

	@Override
	public Connection newConnection(Connector connector, EndPoint endPoint) {
		if (this.requestHeaderTimeout <= 0) {
			return super.newConnection(connector, endPoint);
		}
		if (!this.sweeping) {
			startSweeping(connector.getScheduler());
		}
		HttpConnection connection = new DeadlineConnection(getHttpConfiguration(), connector, endPoint);
		connection.setTransferEncodingChunkMaxLength(getTransferEncodingChunkMaxLength());
		return configure(connection, connector, endPoint);
	}

	@Override
	protected void doStop() throws Exception {
		this.sweeping = false;
		super.doStop();
	}

	private synchronized void startSweeping(Scheduler scheduler) {
		if (!this.sweeping) {
			this.sweeping = true;
			scheduleSweep(scheduler);
		}
	}

	private void scheduleSweep(Scheduler scheduler) {
		long every = Math.min(MAX_SWEEP_MILLIS, Math.max(MIN_SWEEP_MILLIS, this.requestHeaderTimeout / 10));
		scheduler.schedule(() -> {
			if (this.sweeping) {
				sweep(System.nanoTime());
				scheduleSweep(scheduler);
			}
		}, every, TimeUnit.MILLISECONDS);
	}

	/** Closes the connections whose request headers are overdue at {@code now}. */
	void sweep(long now) {
		long timeoutNanos = TimeUnit.MILLISECONDS.toNanos(this.requestHeaderTimeout);
		for (DeadlineConnection connection : this.connections) {
			connection.closeIfOverdue(now, timeoutNanos);
		}
	}

	/**
	 * An HTTP/1.1 connection whose request headers must arrive within the deadline.
	 */
	final class DeadlineConnection extends HttpConnection {

		private static final VarHandle HEADERS_SINCE;

		static {
			try {
				HEADERS_SINCE = MethodHandles.lookup()
					.findVarHandle(DeadlineConnection.class, "headersSince", long.class);
			}
			catch (ReflectiveOperationException ex) {
				throw new ExceptionInInitializerError(ex);
			}
		}

		/**
		 * When the request being parsed began ({@link System#nanoTime()}); 0 when none
		 * is.
		 */
		private volatile long headersSince;

		DeadlineConnection(HttpConfiguration configuration, Connector connector, EndPoint endPoint) {
			super(configuration, connector, endPoint);
		}

		@Override
		public void onOpen() {
			RequestHeaderDeadlineConnectionFactory.this.connections.add(this);
			super.onOpen();
		}

		@Override
		public void onClose(Throwable cause) {
			RequestHeaderDeadlineConnectionFactory.this.connections.remove(this);
			super.onClose(cause);
		}

		@Override
		protected RequestHandler newRequestHandler() {
			return new DeadlineRequestHandler();
		}

		void closeIfOverdue(long now, long timeoutNanos) {
			long since = this.headersSince;
			if (since != 0 && now - since > timeoutNanos && HEADERS_SINCE.compareAndSet(this, since, 0L)) {
				if (logger.isDebugEnabled()) {
					logger.debug("Closing {}: request headers took longer than {} ms", getEndPoint(),
							RequestHeaderDeadlineConnectionFactory.this.requestHeaderTimeout);
				}
				getEndPoint().close();
			}
		}

		/**
		 * The parser's callbacks: {@code messageBegin} at the start of every parse of a
		 * new message, {@code headerComplete} at the end of its headers.
		 */
		final class DeadlineRequestHandler extends RequestHandler {

			@Override
			public void messageBegin() {
				super.messageBegin();
				// the parser begins a message on every parse until the message's first
				// byte; an empty buffer (or one of only the line breaks the parser
				// skips between messages) is no request yet
				if (isRequestBufferEmpty()) {
					DeadlineConnection.this.headersSince = 0;
				}
				else if (DeadlineConnection.this.headersSince == 0) {
					long now = System.nanoTime();
					DeadlineConnection.this.headersSince = (now != 0) ? now : 1;
				}
			}

			@Override
			public boolean headerComplete() {
				DeadlineConnection.this.headersSince = 0;
				return super.headerComplete();
			}

			@Override
			public void badMessage(HttpException failure) {
				DeadlineConnection.this.headersSince = 0;
				super.badMessage(failure);
			}

			@Override
			public void earlyEOF() {
				DeadlineConnection.this.headersSince = 0;
				super.earlyEOF();
			}

		}

	}

}
