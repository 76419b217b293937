package io.github.qsbench.compare;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;

/**
 * A lean closed-loop HTTP/1.1 load, as {@code scripts/bench/RequestPathLoad.java}'s: one
 * platform thread and one kept-alive socket per connection, requests written as prebuilt
 * bytes, answers parsed just enough (status, Content-Length or chunked, the delivery's
 * id). Each connection repeats push (100 bytes), poll, and complete what the poll
 * delivered (DELETE by id) on its queue ({@code compare-<n>}). Counted: completions
 * answered 204 inside the window.
 */
final class SocketLoad implements Load {

	private static final byte[] BODY = "x".repeat(100).getBytes(StandardCharsets.US_ASCII);

	private static final int TIMEOUT_MILLIS = 5000;

	@Override
	public Window run(Instances.Instance instance, Workload workload, Duration window, BooleanSupplier cancelled)
			throws IOException, InterruptedException {
		LongAdder completed = new LongAdder();
		LongAdder errors = new LongAdder();
		AtomicReference<IOException> failure = new AtomicReference<>();
		long start = System.nanoTime();
		long end = start + window.toNanos();
		List<Thread> threads = new ArrayList<>();
		for (int n = 0; n < workload.connections(); n++) {
			String queue = "compare-" + (n % workload.queues());
			threads.add(Daemons.start("compare-load-" + n, () -> {
				try (Connection connection = new Connection(instance.port())) {
					cycle(connection, queue, end, cancelled, completed, errors);
				}
				catch (IOException ex) {
					failure.compareAndSet(null, ex);
				}
			}));
		}
		try {
			for (Thread thread : threads) {
				thread.join();
			}
		}
		finally {
			threads.forEach(Thread::interrupt);
		}
		if (failure.get() != null) {
			throw new IOException(instance.profile() + ": " + failure.get().getMessage(), failure.get());
		}
		return new Window(completed.sum(), Math.min(System.nanoTime(), end) - start, errors.sum());
	}

	private static void cycle(Connection connection, String queue, long end, BooleanSupplier cancelled,
			LongAdder completed, LongAdder errors) throws IOException {
		byte[] push = concat(("POST /queues/" + queue + "/messages HTTP/1.1\r\nHost: 127.0.0.1\r\n"
				+ "Accept: application/json\r\nContent-Type: text/plain\r\nContent-Length: " + BODY.length + "\r\n\r\n")
			.getBytes(StandardCharsets.US_ASCII), BODY);
		byte[] poll = ("GET /queues/" + queue
				+ "/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n\r\n")
			.getBytes(StandardCharsets.US_ASCII);
		String complete = "DELETE /queues/" + queue + "/messages/";
		while (System.nanoTime() < end && !cancelled.getAsBoolean() && !Thread.currentThread().isInterrupted()) {
			if (connection.exchange(push) != 201) {
				errors.increment();
			}
			int status = connection.exchange(poll);
			if (status == 200) {
				long id = connection.jsonId();
				int done = connection.exchange(
						(complete + id + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
				if (done == 204) {
					if (System.nanoTime() < end) {
						completed.increment();
					}
				}
				else if (done != 404) {
					errors.increment();
				}
			}
			else if (status != 204) {
				errors.increment();
			}
		}
	}

	private static byte[] concat(byte[] a, byte[] b) {
		byte[] both = Arrays.copyOf(a, a.length + b.length);
		System.arraycopy(b, 0, both, a.length, b.length);
		return both;
	}

	/** One kept-alive connection, reopened when the server closes it. */
	private static final class Connection implements AutoCloseable {

		private final int port;

		private Socket socket;

		private OutputStream out;

		private InputStream in;

		private byte[] body = new byte[8192];

		private int bodyLength;

		private final StringBuilder line = new StringBuilder();

		Connection(int port) {
			this.port = port;
		}

		int exchange(byte[] request) throws IOException {
			if (this.socket == null) {
				open();
			}
			try {
				this.out.write(request);
				this.out.flush();
				return readResponse();
			}
			catch (IOException ex) {
				// the server closed a kept-alive connection between two requests: retry
				// once
				close();
				open();
				this.out.write(request);
				this.out.flush();
				return readResponse();
			}
		}

		private void open() throws IOException {
			this.socket = new Socket();
			this.socket.setTcpNoDelay(true);
			this.socket.setSoTimeout(TIMEOUT_MILLIS);
			this.socket.connect(new InetSocketAddress("127.0.0.1", this.port), TIMEOUT_MILLIS);
			this.out = new BufferedOutputStream(this.socket.getOutputStream(), 8192);
			this.in = new BufferedInputStream(this.socket.getInputStream(), 65536);
		}

		@Override
		public void close() {
			if (this.socket != null) {
				try {
					this.socket.close();
				}
				catch (IOException ignored) {
					// closing anyway
				}
				this.socket = null;
			}
		}

		private int readResponse() throws IOException {
			String statusLine = readLine();
			if (statusLine == null || statusLine.length() < 12) {
				throw new IOException("connection closed");
			}
			int status = Integer.parseInt(statusLine.substring(9, 12));
			long contentLength = -1;
			boolean chunked = false;
			boolean closing = false;
			for (String header = readLine(); header != null && !header.isEmpty(); header = readLine()) {
				int colon = header.indexOf(':');
				if (colon < 0) {
					continue;
				}
				String name = header.substring(0, colon).trim();
				String value = header.substring(colon + 1).trim();
				if (name.equalsIgnoreCase("Content-Length")) {
					contentLength = Long.parseLong(value);
				}
				else if (name.equalsIgnoreCase("Transfer-Encoding")) {
					chunked = value.equalsIgnoreCase("chunked");
				}
				else if (name.equalsIgnoreCase("Connection")) {
					closing = value.equalsIgnoreCase("close");
				}
			}
			this.bodyLength = 0;
			if (chunked) {
				for (int size = Integer.parseInt(readLine().trim(), 16); size > 0; size = Integer
					.parseInt(readLine().trim(), 16)) {
					readBody(size);
					readLine();
				}
				readLine();
			}
			else if (contentLength > 0) {
				readBody((int) contentLength);
			}
			if (closing) {
				close();
			}
			return status;
		}

		private void readBody(int size) throws IOException {
			if (this.bodyLength + size > this.body.length) {
				this.body = Arrays.copyOf(this.body, this.bodyLength + size);
			}
			int read = this.in.readNBytes(this.body, this.bodyLength, size);
			if (read < size) {
				throw new IOException("connection closed in a body");
			}
			this.bodyLength += size;
		}

		private String readLine() throws IOException {
			this.line.setLength(0);
			for (int c = this.in.read(); c != -1; c = this.in.read()) {
				if (c == '\n') {
					int length = this.line.length();
					if (length > 0 && this.line.charAt(length - 1) == '\r') {
						this.line.setLength(length - 1);
					}
					return this.line.toString();
				}
				this.line.append((char) c);
			}
			return (this.line.length() == 0) ? null : this.line.toString();
		}

		/** The number after {@code "id":} in the last body. */
		long jsonId() throws IOException {
			String text = new String(this.body, 0, this.bodyLength, StandardCharsets.UTF_8);
			int at = text.indexOf("\"id\":");
			if (at < 0) {
				throw new IOException("a delivery without an id: " + text);
			}
			at += 5;
			while (at < text.length() && text.charAt(at) == ' ') {
				at++;
			}
			int end = at;
			while (end < text.length() && Character.isDigit(text.charAt(end))) {
				end++;
			}
			return Long.parseLong(text.substring(at, end));
		}

	}

}
