package io.github.qsbench.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;

/**
 * One kept-alive connection serves more requests than Tomcat's default of 100 (Jetty has
 * no such cap): a client polling in a loop is not made to reconnect. A client that sends
 * requests without waiting (HTTP/1.1 pipelining) gets every answer, in order, whether the
 * selector answers them (the hot routes) or a request thread does (Spring MVC), which
 * then reads the requests after it itself, one after another ({@link ResumeInline}).
 */
class KeepAliveHttpTests extends HttpTestBase {

	@Test
	void oneConnection_servesMoreThanAHundredRequests() throws IOException {
		try (Socket socket = new Socket("127.0.0.1", this.port)) {
			socket.setSoTimeout(10_000);
			OutputStream out = socket.getOutputStream();
			BufferedReader in = new BufferedReader(
					new InputStreamReader(socket.getInputStream(), StandardCharsets.ISO_8859_1));
			for (int i = 1; i <= 150; i++) {
				out.write("GET /queues/keep-alive/messages HTTP/1.1\r\nHost: localhost\r\n\r\n"
					.getBytes(StandardCharsets.US_ASCII));
				out.flush();
				assertThat(in.readLine()).as("status line of request %d", i).startsWith("HTTP/1.1 204");
				for (String header = in.readLine(); !header.isEmpty(); header = in.readLine()) {
					assertThat(header).as("request %d", i).doesNotContainIgnoringCase("Connection: close");
				}
			}
		}
	}

	@Test
	void pipelinedRequests_everyAnswerInOrder_hotRoutesAndMvcAlternating() throws Exception {
		int pairs = 2_000;
		try (Socket socket = new Socket("127.0.0.1", this.port)) {
			socket.setSoTimeout(20_000);
			OutputStream out = socket.getOutputStream();
			Thread writer = new Thread(() -> {
				try {
					StringBuilder requests = new StringBuilder();
					for (int i = 0; i < pairs; i++) {
						requests.append("POST /queues/pipelined/messages HTTP/1.1\r\nHost: localhost\r\n"
								+ "Content-Type: text/plain\r\nContent-Length: 1\r\n\r\nx");
						requests.append("GET /actuator/health HTTP/1.1\r\nHost: localhost\r\n\r\n");
					}
					out.write(requests.toString().getBytes(StandardCharsets.US_ASCII));
					out.flush();
				}
				catch (IOException ex) {
					throw new UncheckedIOException(ex);
				}
			});
			writer.start();
			InputStream in = new BufferedInputStream(socket.getInputStream());
			for (int i = 0; i < pairs; i++) {
				assertThat(status(in)).as("push %d", i).isEqualTo(201);
				assertThat(status(in)).as("health %d", i).isEqualTo(200);
			}
			writer.join(10_000);
		}
		assertThat(JsonPath.parse(this.http.get("/queues/pipelined").body()).read("$.ready", Integer.class))
			.isEqualTo(pairs);
	}

	/** Reads one answer: its status, and its body past (by length or in chunks). */
	private static int status(InputStream in) throws IOException {
		String status = line(in);
		long length = 0;
		boolean chunked = false;
		for (String header = line(in); !header.isEmpty(); header = line(in)) {
			String name = header.substring(0, header.indexOf(':')).trim().toLowerCase(Locale.ROOT);
			String value = header.substring(header.indexOf(':') + 1).trim();
			if (name.equals("content-length")) {
				length = Long.parseLong(value);
			}
			else if (name.equals("transfer-encoding") && value.equalsIgnoreCase("chunked")) {
				chunked = true;
			}
		}
		if (chunked) {
			for (long chunk = Long.parseLong(line(in), 16); chunk > 0; chunk = Long.parseLong(line(in), 16)) {
				in.skipNBytes(chunk);
				line(in);
			}
			line(in);
		}
		else {
			in.skipNBytes(length);
		}
		return Integer.parseInt(status.substring(9, 12));
	}

	private static String line(InputStream in) throws IOException {
		StringBuilder line = new StringBuilder();
		for (int c = in.read(); c != '\n'; c = in.read()) {
			if (c < 0) {
				throw new IOException("the connection ended in an answer");
			}
			if (c != '\r') {
				line.append((char) c);
			}
		}
		return line.toString();
	}

}
