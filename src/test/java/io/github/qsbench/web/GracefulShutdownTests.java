package io.github.qsbench.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.github.qsbench.QueueServiceApplication;
import io.github.qsbench.application.QueueOperations;

import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * On shutdown (what SIGTERM triggers) a request in progress still completes, and long
 * polls are answered at once rather than holding shutdown up for their wait.
 */
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

	@Test
	void shutdown_answersWaitingLongPollsAtOnce() throws Exception {
		ConfigurableApplicationContext context = new SpringApplicationBuilder(QueueServiceApplication.class)
			.run("--server.port=0");
		int port = Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
		QueueOperations longPolls = context.getBean(QueueOperations.class);
		HttpRequest poll = HttpRequest
			.newBuilder(URI.create("http://127.0.0.1:" + port + "/queues/idle/messages?wait=20"))
			.build();
		CompletableFuture<HttpResponse<Void>> waiting = HttpClient.newHttpClient()
			.sendAsync(poll, BodyHandlers.discarding());
		await().atMost(Duration.ofSeconds(10)).until(() -> longPolls.waiting().containsKey("idle"));

		long closing = System.nanoTime();
		CompletableFuture<Void> closed = CompletableFuture.runAsync(context::close);

		assertThat(waiting.get(5, TimeUnit.SECONDS).statusCode()).isEqualTo(204);
		closed.get(10, TimeUnit.SECONDS);
		Duration shutdown = Duration.ofNanos(System.nanoTime() - closing);
		assertThat(shutdown).as("not held up by the 20 s wait").isLessThan(Duration.ofSeconds(10));
		assertThat(context.isActive()).isFalse();
	}

	private static void send(OutputStream out, String text) throws java.io.IOException {
		out.write(text.getBytes(StandardCharsets.UTF_8));
		out.flush();
	}

}
