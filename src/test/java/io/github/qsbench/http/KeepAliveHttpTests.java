package io.github.qsbench.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/**
 * One kept-alive connection serves more requests than Tomcat's default of 100 (Jetty has
 * no such cap): a client polling in a loop is not made to reconnect.
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

}
