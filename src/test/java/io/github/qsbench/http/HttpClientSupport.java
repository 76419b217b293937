package io.github.qsbench.http;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublisher;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import com.jayway.jsonpath.JsonPath;

/**
 * Plain HTTP against a server on a real port, so tests see exactly what a client sees.
 */
public final class HttpClientSupport {

	private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final String baseUrl;

	public HttpClientSupport(int port) {
		this.baseUrl = "http://127.0.0.1:" + port;
	}

	public HttpResponse<String> get(String path) {
		return send(path, "GET", BodyPublishers.noBody(), null);
	}

	public HttpResponse<String> post(String path, String body) {
		return send(path, "POST", BodyPublishers.ofString(body), "text/plain; charset=utf-8");
	}

	public HttpResponse<String> delete(String path) {
		return send(path, "DELETE", BodyPublishers.noBody(), null);
	}

	/** A completion that names the lease of one delivery. */
	public HttpResponse<String> deleteIfMatch(String path, String ifMatch) {
		return send(path, "DELETE", BodyPublishers.noBody(), null, "If-Match", ifMatch);
	}

	public HttpResponse<String> send(String path, String method, BodyPublisher body, String contentType,
			String... headers) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(this.baseUrl + path))
			.timeout(Duration.ofSeconds(10))
			.method(method, body);
		if (contentType != null) {
			request.header("Content-Type", contentType);
		}
		if (headers.length > 0) {
			request.headers(headers);
		}
		try {
			return CLIENT.send(request.build(), BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/** A GET answered later, such as a long poll; up to 30 s. */
	public CompletableFuture<HttpResponse<String>> sendAsync(String path, String... headers) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(this.baseUrl + path))
			.timeout(Duration.ofSeconds(30));
		if (headers.length > 0) {
			request.headers(headers);
		}
		return CLIENT.sendAsync(request.build(), BodyHandlers.ofString());
	}

	/** Push, poll, complete, and check each answer; returns the message id. */
	public long roundTrip(String queue, String body) {
		HttpResponse<String> pushed = post("/queues/" + queue + "/messages", body);
		check(pushed, 201);
		long id = JsonPath.parse(pushed.body()).read("$.id", Long.class);
		HttpResponse<String> polled = get("/queues/" + queue + "/messages");
		check(polled, 200);
		if (JsonPath.parse(polled.body()).read("$.id", Long.class) != id) {
			throw new AssertionError("polled another message: " + polled.body());
		}
		check(delete("/queues/" + queue + "/messages/" + id), 204);
		return id;
	}

	private static void check(HttpResponse<String> response, int status) {
		if (response.statusCode() != status) {
			throw new AssertionError("expected " + status + " from " + response.request().method() + " "
					+ response.uri() + " but got " + response.statusCode() + ": " + response.body());
		}
	}

}
