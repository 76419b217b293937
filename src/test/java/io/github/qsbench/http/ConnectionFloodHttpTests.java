package io.github.qsbench.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import com.sun.management.UnixOperatingSystemMXBean;
import org.junit.jupiter.api.Test;

import org.springframework.test.context.TestPropertySource;

/**
 * A flood of slow connections costs memory, not service: with the shipped connection
 * settings, three times as many connections as the old cap of 1,000 trickle their request
 * headers, and ordinary requests, each on a new connection, are answered throughout, from
 * the flood's first second until its end, while the connector still holds every trickler.
 * The header deadline is stretched past the test, so that no trickler is cut and the
 * connections stay held however slowly a loaded machine opens them.
 */
@TestPropertySource(properties = "qs.http.request-header-timeout=60s")
class ConnectionFloodHttpTests extends HttpTestBase {

	/** Three times the old cap on connections (Tomcat's max-connections of 1,000). */
	private static final int TRICKLERS = 3_000;

	/** The longest the flood may take to connect. */
	private static final long OPEN_MILLIS = 15_000;

	/** How long the flood lasts once open. */
	private static final long FLOOD_MILLIS = 3_000;

	/** A header byte on every trickler this often, and an ordinary request as often. */
	private static final long INTERVAL_MILLIS = 250;

	/**
	 * How long an ordinary request may take, connection included: a SYN the kernel drops
	 * while the flood's burst fills the accept queue is sent again after 1 s and 3 s.
	 */
	private static final int PROBE_TIMEOUT_MILLIS = 5_000;

	private static final byte[] SLOW_REQUEST = ("GET /queues HTTP/1.1\r\nHost: localhost\r\nX-Slow: "
			+ "a".repeat(4000))
		.getBytes(StandardCharsets.ISO_8859_1);

	private static final byte[] PROBE = "GET /actuator/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
		.getBytes(StandardCharsets.ISO_8859_1);

	@Test
	void slowHeaderFloodBeyondTheOldCap_ordinaryRequestsAnsweredThroughout() throws Exception {
		// each trickler is two descriptors in this JVM: the client's socket and the
		// server's
		var os = (UnixOperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
		assumeThat(os.getMaxFileDescriptorCount() - os.getOpenFileDescriptorCount())
			.as("file descriptors free (ulimit -n)")
			.isGreaterThan(2L * TRICKLERS + 500);
		List<SocketChannel> tricklers = new ArrayList<>(TRICKLERS);
		List<String> answers = new ArrayList<>();
		InetSocketAddress server = new InetSocketAddress("127.0.0.1", this.port);
		try {
			long started = System.nanoTime();
			for (int i = 0; i < TRICKLERS; i++) {
				SocketChannel channel = SocketChannel.open();
				channel.configureBlocking(false);
				channel.connect(server);
				tricklers.add(channel);
				if (i % 500 == 499) {
					// ordinary requests while the flood is still opening
					answers.add(probe());
				}
			}
			// every trickler connected and sent its first byte (a burst beyond the accept
			// queue is connected by the kernel's SYN retries), ordinary requests
			// meanwhile
			long openDeadline = System.nanoTime() + OPEN_MILLIS * 1_000_000;
			int connected = 0;
			while (connected < TRICKLERS && System.nanoTime() < openDeadline) {
				connected = 0;
				for (SocketChannel channel : tricklers) {
					if (channel.isConnected()) {
						connected++;
					}
					else if (channel.finishConnect()) {
						connected++;
						channel.write(ByteBuffer.wrap(SLOW_REQUEST, 0, 1));
					}
				}
				answers.add(probe());
				Thread.sleep(INTERVAL_MILLIS);
			}
			assertThat(connected).as("tricklers connected").isEqualTo(TRICKLERS);
			long floodEnd = System.nanoTime() + FLOOD_MILLIS * 1_000_000;
			int cut = 0;
			for (int sent = 1; System.nanoTime() < floodEnd; sent++) {
				for (SocketChannel channel : tricklers) {
					try {
						channel.write(ByteBuffer.wrap(SLOW_REQUEST, Math.min(sent, SLOW_REQUEST.length - 1), 1));
					}
					catch (IOException ex) {
						cut++;
					}
				}
				answers.add(probe());
				Thread.sleep(INTERVAL_MILLIS);
			}
			long elapsedMillis = (System.nanoTime() - started) / 1_000_000;

			assertThat(answers).as("ordinary requests beside %d tricklers, over %d ms", TRICKLERS, elapsedMillis)
				.hasSizeGreaterThan(TRICKLERS / 500)
				.allSatisfy((answer) -> assertThat(answer).startsWith("HTTP/1.1 200 "));
			assertThat(cut).as("tricklers cut").isZero();
			for (SocketChannel channel : tricklers) {
				assertThat(channel.read(ByteBuffer.allocate(64))).as("a trickler the server still holds").isZero();
			}
		}
		finally {
			for (SocketChannel channel : tricklers) {
				channel.close();
			}
		}
	}

	/** One ordinary request on a new connection; its status line, or what went wrong. */
	private String probe() {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", this.port), PROBE_TIMEOUT_MILLIS);
			socket.setSoTimeout(PROBE_TIMEOUT_MILLIS);
			OutputStream out = socket.getOutputStream();
			out.write(PROBE);
			out.flush();
			InputStream in = socket.getInputStream();
			StringBuilder status = new StringBuilder();
			for (int b = in.read(); b >= 0 && b != '\r'; b = in.read()) {
				status.append((char) b);
			}
			return status.toString();
		}
		catch (IOException ex) {
			return ex.toString();
		}
	}

}
