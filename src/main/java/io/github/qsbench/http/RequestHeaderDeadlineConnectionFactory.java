package io.github.qsbench.http;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

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
 * A connection arms a timer on the connector's scheduler when the first bytes of a
 * request arrive (the parser begins a message with bytes to read) and disarms it when the
 * parser has the request's headers (or the connection closes). A timer that fires first
 * closes the connection silently, as an idle timeout would. Whichever of the two takes
 * the armed timer first decides, so a request whose headers are complete is never cut.
 * Idle kept-alive connections, requests being served, their bodies and asynchronous
 * requests (long polls) have no timer armed.
 */
public class RequestHeaderDeadlineConnectionFactory extends HttpConnectionFactory {

	private static final Logger logger = LoggerFactory.getLogger(RequestHeaderDeadlineConnectionFactory.class);

	private final long requestHeaderTimeout;

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
		HttpConnection connection = new DeadlineConnection(getHttpConfiguration(), connector, endPoint,
				this.requestHeaderTimeout);
		connection.setTransferEncodingChunkMaxLength(getTransferEncodingChunkMaxLength());
		return configure(connection, connector, endPoint);
	}

	/**
	 * An HTTP/1.1 connection whose request headers must arrive within the deadline.
	 */
	static final class DeadlineConnection extends HttpConnection {

		private final long timeoutMillis;

		DeadlineConnection(HttpConfiguration configuration, Connector connector, EndPoint endPoint,
				long timeoutMillis) {
			super(configuration, connector, endPoint);
			this.timeoutMillis = timeoutMillis;
		}

		@Override
		protected RequestHandler newRequestHandler() {
			// called by HttpConnection's constructor: the handler reads this
			// connection's fields only once bytes arrive
			return new DeadlineRequestHandler();
		}

		@Override
		public void onClose(Throwable cause) {
			if (getParser().getHandler() instanceof DeadlineRequestHandler handler) {
				handler.disarm();
			}
			super.onClose(cause);
		}

		/**
		 * The parser's callbacks: {@code messageBegin} at the start of every parse of a
		 * new message, {@code headerComplete} at the end of its headers.
		 */
		final class DeadlineRequestHandler extends RequestHandler {

			/** The timer armed for the request being parsed; null when none is. */
			private final AtomicReference<Expiry> armed = new AtomicReference<>();

			@Override
			public void messageBegin() {
				super.messageBegin();
				// the parser begins a message on every parse until the message's first
				// byte; an empty buffer (or one of only the line breaks the parser
				// skips between messages) is no request yet
				if (isRequestBufferEmpty()) {
					disarm();
				}
				else {
					arm();
				}
			}

			@Override
			public boolean headerComplete() {
				disarm();
				return super.headerComplete();
			}

			@Override
			public void badMessage(HttpException failure) {
				disarm();
				super.badMessage(failure);
			}

			@Override
			public void earlyEOF() {
				disarm();
				super.earlyEOF();
			}

			private void arm() {
				if (this.armed.get() == null) {
					Expiry expiry = new Expiry();
					this.armed.set(expiry);
					expiry.task = getConnector().getScheduler()
						.schedule(expiry, DeadlineConnection.this.timeoutMillis, TimeUnit.MILLISECONDS);
				}
			}

			void disarm() {
				Expiry expiry = this.armed.getAndSet(null);
				if (expiry != null) {
					expiry.cancel();
				}
			}

			/**
			 * A timer that closes the connection if it is still the armed one when it
			 * fires.
			 */
			final class Expiry implements Runnable {

				private volatile Scheduler.Task task;

				@Override
				public void run() {
					if (!DeadlineRequestHandler.this.armed.compareAndSet(this, null)) {
						return; // the headers arrived (or the connection closed) first
					}
					if (logger.isDebugEnabled()) {
						logger.debug("Closing {}: request headers took longer than {} ms", getEndPoint(),
								DeadlineConnection.this.timeoutMillis);
					}
					getEndPoint().close();
				}

				void cancel() {
					// a timer not scheduled yet fires later and finds itself disarmed
					Scheduler.Task scheduled = this.task;
					if (scheduled != null) {
						scheduled.cancel();
					}
				}

			}

		}

	}

}
