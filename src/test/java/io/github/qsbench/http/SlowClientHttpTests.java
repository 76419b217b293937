package io.github.qsbench.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

import org.springframework.test.context.TestPropertySource;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Slow clients (slowloris): connections that trickle request-header bytes must not keep
 * everyone else out. Limits are shrunk so that a few hundred sockets fill the connector:
 * Jetty's idle timeout restarts on every byte, so without the request-header deadline the
 * tricklers below would hold every connection for as long as they like.
 */
@TestPropertySource(properties = { "server.jetty.max-connections=" + SlowClientHttpTests.MAX_CONNECTIONS,
		"qs.http.accept-queue-size=100", "server.jetty.connection-idle-timeout=2s",
		"qs.http.request-header-timeout=1s" })
class SlowClientHttpTests extends HttpTestBase {

	static final int MAX_CONNECTIONS = 200;

	/** More than the connector takes, fewer than it takes plus its accept queue. */
	private static final int TRICKLERS = MAX_CONNECTIONS + 50;

	/** A byte this often is well inside the idle timeout. */
	private static final long TRICKLE_INTERVAL_MS = 250;

	private static final byte[] SLOW_REQUEST = ("GET /queues HTTP/1.1\r\nHost: localhost\r\nX-Slow: "
			+ "a".repeat(4000))
		.getBytes(StandardCharsets.ISO_8859_1);

	@Test
	void trickledHeaders_othersStillAnswered_tricklersCut() throws Exception {
		List<SocketChannel> tricklers = new ArrayList<>();
		AtomicBoolean stop = new AtomicBoolean();
		CompletableFuture<Integer> trickling = null;
		try {
			for (int i = 0; i < TRICKLERS; i++) {
				SocketChannel channel = SocketChannel.open(new InetSocketAddress("127.0.0.1", this.port));
				channel.configureBlocking(false);
				channel.write(ByteBuffer.wrap(SLOW_REQUEST, 0, 1));
				tricklers.add(channel);
			}
			trickling = CompletableFuture.supplyAsync(() -> trickle(tricklers, stop));
			Thread.sleep(500);

			HttpResponse<String> response = new HttpClientSupport(this.port).get("/actuator/health");

			assertThat(response.statusCode()).as("a normal client beside %d tricklers", TRICKLERS).isEqualTo(200);
			// every trickler is cut although it never paused long enough for the
			// idle timeout, so trickle() ends
			assertThat(trickling.get(15, TimeUnit.SECONDS)).as("trickled bytes while cut off").isPositive();
		}
		finally {
			stop.set(true);
			for (SocketChannel channel : tricklers) {
				channel.close();
			}
		}
	}

	@Test
	void headersInPiecesWithinDeadline_answered() throws Exception {
		try (Socket socket = new Socket("127.0.0.1", this.port)) {
			socket.setSoTimeout(10_000);
			OutputStream out = socket.getOutputStream();
			for (String piece : new String[] { "GET /queues HTTP/1.1\r\n", "Host: localhost\r\n",
					"Connection: close\r\n\r\n" }) {
				out.write(piece.getBytes(StandardCharsets.ISO_8859_1));
				out.flush();
				Thread.sleep(200);
			}
			assertThat(readResponse(socket.getInputStream())).startsWith("HTTP/1.1 200 ");
		}
	}

	@Test
	void idleKeptAliveConnection_notCutByHeaderDeadline() throws Exception {
		try (Socket socket = new Socket("127.0.0.1", this.port)) {
			socket.setSoTimeout(10_000);
			OutputStream out = socket.getOutputStream();
			byte[] request = "GET /queues HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);
			out.write(request);
			out.flush();
			assertThat(readResponse(socket.getInputStream())).startsWith("HTTP/1.1 200 ");

			Thread.sleep(1_500); // past the header deadline, inside the idle
									// timeout

			out.write(request);
			out.flush();
			assertThat(readResponse(socket.getInputStream())).startsWith("HTTP/1.1 200 ");
		}
	}

	@Test
	void asyncRequestOutlastingTheTimeouts_answered() {
		HttpResponse<String> response = new HttpClientSupport(this.port).get("/test-only/late");

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).isEqualTo("late");
	}

	/**
	 * Sends the next header byte on every open connection each interval until the server
	 * has closed them all; returns how many bytes went out.
	 */
	private static int trickle(List<SocketChannel> channels, AtomicBoolean stop) {
		int[] sent = new int[channels.size()];
		boolean[] open = new boolean[channels.size()];
		Arrays.fill(open, true);
		int bytes = 0;
		int stillOpen = channels.size();
		ByteBuffer sink = ByteBuffer.allocate(1024);
		while (stillOpen > 0 && !stop.get()) {
			for (int i = 0; i < channels.size(); i++) {
				if (!open[i]) {
					continue;
				}
				SocketChannel channel = channels.get(i);
				try {
					sink.clear();
					if (channel.read(sink) < 0) {
						throw new IOException("closed by the server");
					}
					sent[i] = Math.min(sent[i] + 1, SLOW_REQUEST.length - 1);
					bytes += channel.write(ByteBuffer.wrap(SLOW_REQUEST, sent[i], 1));
				}
				catch (IOException ex) {
					open[i] = false;
					stillOpen--;
				}
			}
			try {
				Thread.sleep(TRICKLE_INTERVAL_MS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return bytes;
			}
		}
		return bytes;
	}

	/**
	 * An asynchronous answer (as a long poll gives) that comes after both the header
	 * deadline and the idle timeout.
	 */
	@TestConfiguration(proxyBeanMethods = false)
	static class LateEndpoint {

		@Bean
		Late late() {
			return new Late();
		}

	}

	@RestController
	static class Late {

		@GetMapping("/test-only/late")
		CompletableFuture<String> late() {
			return CompletableFuture.supplyAsync(() -> "late", CompletableFuture.delayedExecutor(3, TimeUnit.SECONDS));
		}

	}

	/**
	 * Reads one response with a Content-Length or chunked body; enough for these tests.
	 */
	private static String readResponse(InputStream in) throws IOException {
		StringBuilder response = new StringBuilder();
		while (!response.toString().contains("\r\n\r\n")) {
			int b = in.read();
			if (b < 0) {
				return response.toString();
			}
			response.append((char) b);
		}
		String head = response.toString().toLowerCase();
		if (head.contains("transfer-encoding: chunked")) {
			while (!response.toString().endsWith("\r\n0\r\n\r\n")) {
				int b = in.read();
				if (b < 0) {
					break;
				}
				response.append((char) b);
			}
		}
		else {
			int at = head.indexOf("content-length:");
			if (at >= 0) {
				int length = Integer.parseInt(head.substring(at + 15, head.indexOf("\r\n", at)).trim());
				response.append(new String(in.readNBytes(length), StandardCharsets.ISO_8859_1));
			}
		}
		return response.toString();
	}

}
