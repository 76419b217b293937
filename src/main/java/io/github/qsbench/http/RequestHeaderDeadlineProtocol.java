package io.github.qsbench.http;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import org.apache.coyote.AbstractProcessor;
import org.apache.coyote.http11.Http11NioProtocol;
import org.apache.tomcat.util.net.NioChannel;
import org.apache.tomcat.util.net.SocketWrapperBase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tomcat's NIO HTTP/1.1 connector with a deadline for the request line and headers, which
 * Tomcat does not offer: its {@code connectionTimeout} is the longest silence between two
 * reads, so a client that sends a header byte every few seconds keeps a connection as
 * long as it likes, and a few thousand such clients hold every connection the connector
 * will take ({@code maxConnections}) while everyone else waits.
 * <p>
 * Every quarter of the deadline (at most every second) this closes each connection whose
 * current request began arriving longer than the deadline ago and is still being parsed,
 * the way Tomcat closes a connection that timed out: silently. It looks at a connection
 * only under the connection's lock, which Tomcat holds while a worker processes it, so it
 * never races a worker, and reads only the request's start time (set at its first byte)
 * and whether the processor Tomcat kept between two reads is asynchronous. Idle
 * kept-alive connections, requests being served, their bodies and asynchronous requests
 * (long polls) are left alone.
 */
public class RequestHeaderDeadlineProtocol extends Http11NioProtocol {

	private static final Logger logger = LoggerFactory.getLogger(RequestHeaderDeadlineProtocol.class);

	private volatile long requestHeaderTimeout = -1;

	private ScheduledFuture<?> monitor;

	/**
	 * The longest time, in milliseconds, from the first byte of a request to the end of
	 * its headers; zero or less switches the deadline off.
	 */
	public long getRequestHeaderTimeout() {
		return this.requestHeaderTimeout;
	}

	public void setRequestHeaderTimeout(long millis) {
		this.requestHeaderTimeout = millis;
	}

	@Override
	public void start() throws Exception {
		super.start();
		long timeout = this.requestHeaderTimeout;
		if (timeout > 0) {
			long period = Math.max(50, Math.min(1000, timeout / 4));
			this.monitor = getUtilityExecutor().scheduleWithFixedDelay(this::closeLateRequests, period, period,
					TimeUnit.MILLISECONDS);
		}
	}

	@Override
	public void stop() throws Exception {
		if (this.monitor != null) {
			this.monitor.cancel(false);
			this.monitor = null;
		}
		super.stop();
	}

	private void closeLateRequests() {
		try {
			long deadline = System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(this.requestHeaderTimeout);
			int closed = 0;
			for (SocketWrapperBase<NioChannel> connection : getEndpoint().getConnections()) {
				if (closeIfLate(connection, deadline)) {
					closed++;
				}
			}
			if (closed > 0) {
				logger.debug("Closed {} connections whose request headers took longer than {} ms", closed,
						this.requestHeaderTimeout);
			}
		}
		catch (RuntimeException ex) {
			// a failure must not cancel the schedule
			logger.warn("Request-header deadline check failed", ex);
		}
	}

	private static boolean closeIfLate(SocketWrapperBase<?> connection, long deadline) {
		ReentrantLock lock = connection.getLock();
		if (!lock.tryLock()) {
			return false; // a worker is processing it right now
		}
		try {
			// Between two reads, Tomcat keeps a processor on the connection only for a
			// request it is still parsing, an asynchronous one or an upgraded connection.
			if (connection.isClosed() || !(connection.getCurrentProcessor() instanceof AbstractProcessor processor)
					|| processor.isAsync() || processor.isUpgrade()) {
				return false;
			}
			// set at the request's first byte, -1 until then
			long started = processor.getRequest().getStartTimeNanos();
			if (started < 0 || started - deadline > 0) {
				return false;
			}
			connection.close();
			return true;
		}
		finally {
			lock.unlock();
		}
	}

}
