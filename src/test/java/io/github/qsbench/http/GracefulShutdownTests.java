package io.github.qsbench.http;

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
import io.github.qsbench.application.messages.LongPolls;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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
			// the body pauses for 1.5 s in all, longer than Jetty's default idle timeout
			// during shutdown (1 s), which the service keeps at its usual one
			Thread.sleep(1000);
			assertThat(closing.isDone()).as("shutdown waits for the request in progress").isFalse();

			send(out, secondHalf);
			InputStream in = socket.getInputStream();
			String response = new String(in.readAllBytes(), StandardCharsets.UTF_8);
			assertThat(response).startsWith("HTTP/1.1 201 ");
			closing.get(30, TimeUnit.SECONDS);
		}
		assertThat(context.isActive()).isFalse();
	}

	/**
	 * Each path a long poll can wait on: the fast path, Spring MVC (an Accept the fast
	 * path leaves to it) and SQS's ReceiveMessage. The answer must reach the client
	 * before the connection closes, not only be given: it is written on an async dispatch
	 * that the web server's graceful shutdown does not see (see
	 * {@link SuspendedRequests}).
	 */
	@ParameterizedTest
	@ValueSource(strings = { "fast path", "spring mvc", "sqs" })
	void shutdown_answersWaitingLongPollsAtOnce(String path) throws Exception {
		ConfigurableApplicationContext context = new SpringApplicationBuilder(QueueServiceApplication.class)
			.run("--server.port=0");
		int port = Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
		LongPolls longPolls = context.getBean(LongPolls.class);
		SuspendedRequests suspended = context.getBean(SuspendedRequests.class);
		HttpClient client = HttpClient.newHttpClient();
		String base = "http://127.0.0.1:" + port;
		HttpRequest poll = switch (path) {
			case "fast path" -> HttpRequest.newBuilder(URI.create(base + "/queues/idle/messages?wait=20")).build();
			case "spring mvc" -> HttpRequest.newBuilder(URI.create(base + "/queues/idle/messages?wait=20"))
				.header("Accept", "application/*")
				.build();
			default -> {
				String url = JsonPath
					.parse(client.send(sqs(base, "CreateQueue", "{\"QueueName\":\"idle\"}"), BodyHandlers.ofString())
						.body())
					.read("$.QueueUrl");
				yield sqs(base, "ReceiveMessage", "{\"QueueUrl\":\"" + url + "\",\"WaitTimeSeconds\":20}");
			}
		};
		CompletableFuture<HttpResponse<String>> waiting = client.sendAsync(poll, BodyHandlers.ofString());
		// the poll registers as a waiter, then its request goes into async mode
		await().atMost(Duration.ofSeconds(10))
			.until(() -> longPolls.waiting().containsKey("idle") && suspended.count() == 1);

		long closing = System.nanoTime();
		CompletableFuture<Void> closed = CompletableFuture.runAsync(context::close);

		HttpResponse<String> answer = waiting.get(5, TimeUnit.SECONDS);
		assertThat(answer.statusCode()).isEqualTo(path.equals("sqs") ? 200 : 204);
		closed.get(10, TimeUnit.SECONDS);
		Duration shutdown = Duration.ofNanos(System.nanoTime() - closing);
		assertThat(shutdown).as("not held up by the 20 s wait").isLessThan(Duration.ofSeconds(10));
		assertThat(suspended.count()).as("every suspended request completed").isZero();
		assertThat(context.isActive()).isFalse();
	}

	private static HttpRequest sqs(String base, String action, String body) {
		return HttpRequest.newBuilder(URI.create(base + "/"))
			.header("X-Amz-Target", "AmazonSQS." + action)
			.header("Content-Type", "application/x-amz-json-1.0")
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build();
	}

	private static void send(OutputStream out, String text) throws java.io.IOException {
		out.write(text.getBytes(StandardCharsets.UTF_8));
		out.flush();
	}

}
