package io.github.qsbench.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.github.qsbench.QueueServiceApplication;

import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/** On shutdown (what SIGTERM triggers) a request in progress still completes. */
class GracefulShutdownTests {

	@Test
	void shutdown_requestInProgressCompletes() throws Exception {
		ConfigurableApplicationContext context = new SpringApplicationBuilder(QueueServiceApplication.class)
			.run("--server.port=0");
		int port = Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
		try (Socket socket = new Socket("127.0.0.1", port)) {
			socket.setSoTimeout(20_000);
			OutputStream out = socket.getOutputStream();
			String firstHalf = "first half, ";
			String secondHalf = "second half";
			send(out,
					"POST /queues/slow/messages HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\n"
							+ "Content-Length: " + (firstHalf.length() + secondHalf.length())
							+ "\r\nConnection: close\r\n\r\n" + firstHalf);
			Thread.sleep(500);

			CompletableFuture<Void> closing = CompletableFuture.runAsync(context::close);
			Thread.sleep(500);
			assertThat(closing.isDone()).as("shutdown waits for the request in progress").isFalse();

			send(out, secondHalf);
			InputStream in = socket.getInputStream();
			String response = new String(in.readAllBytes(), StandardCharsets.UTF_8);
			assertThat(response).startsWith("HTTP/1.1 201 ");
			closing.get(30, TimeUnit.SECONDS);
		}
		assertThat(context.isActive()).isFalse();
	}

	private static void send(OutputStream out, String text) throws java.io.IOException {
		out.write(text.getBytes(StandardCharsets.UTF_8));
		out.flush();
	}

}
