package io.github.qsbench.rest;

import io.github.qsbench.http.HttpTestBase;
import static io.github.qsbench.rest.QueueApiHttpTests.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import com.jayway.jsonpath.JsonPath;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.test.context.TestPropertySource;

/**
 * What a hostile or careless client can send, each answered with its documented status
 * and a problem+json body without exception text, never a 5xx. Requests an ordinary
 * client refuses to build (malformed percent-encoding, oversized lines) go through a raw
 * socket.
 */
@TestPropertySource(properties = "qs.max-message-size=1KB")
class HostileInputHttpTests extends HttpTestBase {

	@Test
	void literalSlashInName_noSuchPath() {
		assertProblem(this.http.get("/queues/a/b/messages"), 404, "Not Found");
	}

	@ParameterizedTest
	@ValueSource(strings = { "%E6%97%A5%E6%9C%AC", "%C3%A9", "a.b", "..", "a%2Fb", "a%5Cb", "a%06b", "a%7Fb", "a%25b" })
	void awkwardNames_badRequest(String name) {
		assertProblem(this.http.post("/queues/" + name + "/messages", "x"), 400, "Invalid queue name");
	}

	@Test
	void nulInName_refusedByJetty() {
		assertProblem(this.http.post("/queues/a%00b/messages", "x"), 400, "Bad Request");
	}

	/**
	 * Found by Schemathesis on Jetty: a control character in a path was the container's
	 * 400, which the API does not describe for these routes.
	 */
	@ParameterizedTest
	@ValueSource(strings = { "/queues/F%C2%8A%C2%AD/redrive/tasks/~%C2%A2%1E%C2%A6r%7F",
			"/queues/o%60%C2%8F%06%C2%BB/redrive/tasks/0", "/queues/%5B%C3%86%25%F2%B9%BB%95/redrive/tasks/Q%24",
			"/queues/3a6IYRc/redrive/tasks/%C3%94y%C2%9B%25%F0%AB%A0%A3" })
	void controlCharactersInARedrivePath_notFound(String path) {
		assertThat(this.http.get(path).statusCode()).isEqualTo(404);
		assertThat(this.http.delete(path).statusCode()).isEqualTo(404);
	}

	@Test
	void concurrentCompletesOfOneId_exactlyOneSucceeds() {
		HttpClient client = HttpClient.newHttpClient();
		for (int i = 0; i < 50; i++) {
			long id = JsonPath.parse(this.http.post("/queues/race/messages", "m" + i).body()).read("$.id", Long.class);
			assertThat(this.http.get("/queues/race/messages").statusCode()).isEqualTo(200);
			HttpRequest delete = HttpRequest
				.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/queues/race/messages/" + id))
				.DELETE()
				.build();
			List<CompletableFuture<HttpResponse<String>>> racing = new ArrayList<>();
			for (int c = 0; c < 2; c++) {
				racing.add(client.sendAsync(delete, BodyHandlers.ofString()));
			}
			List<Integer> statuses = racing.stream()
				.map(CompletableFuture::join)
				.map(HttpResponse::statusCode)
				.sorted()
				.toList();
			assertThat(statuses).as("message " + id).containsExactly(204, 404);
		}
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|',
			value = { "application/x-www-form-urlencoded|a=1&b=2", "application/octet-stream|raw bytes",
					"text/html|<b>hi</b>", "multipart/form-data; boundary=xyz|--xyz--", "image/png|not really" })
	void unusualContentTypes_storedVerbatim(String contentType, String body) {
		// application/json is the push's JSON form, {"body","attributes"}
		// (QueueApiHttpTests)
		HttpResponse<String> pushed = this.http.send("/queues/typed/messages", "POST", BodyPublishers.ofString(body),
				contentType);
		assertThat(pushed.statusCode()).isEqualTo(201);

		assertThat(JsonPath.parse(this.http.get("/queues/typed/messages").body()).read("$.body", String.class))
			.isEqualTo(body);
	}

	@Test
	void noContentType_readAsUtf8() {
		HttpResponse<String> pushed = this.http.send("/queues/untyped/messages", "POST",
				BodyPublishers.ofString("naïve"), null);
		assertThat(pushed.statusCode()).isEqualTo(201);

		assertThat(JsonPath.parse(this.http.get("/queues/untyped/messages").body()).read("$.body", String.class))
			.isEqualTo("naïve");
	}

	@Test
	void declaredCharset_honoured() {
		HttpResponse<String> pushed = this.http.send("/queues/latin/messages", "POST",
				BodyPublishers.ofByteArray(new byte[] { 'c', 'a', 'f', (byte) 0xE9 }),
				"text/plain; charset=ISO-8859-1");
		assertThat(pushed.statusCode()).isEqualTo(201);

		assertThat(JsonPath.parse(this.http.get("/queues/latin/messages").body()).read("$.body", String.class))
			.isEqualTo("café");
	}

	@ParameterizedTest
	@ValueSource(strings = { "text/plain; charset=no-such-charset", ";;;", "text/plain; charset=\"" })
	void badContentType_unsupportedMediaType(String contentType) {
		assertProblem(this.http.send("/queues/q/messages", "POST", BodyPublishers.ofString("x"), contentType), 415,
				"Unsupported Media Type");
	}

	@Test
	void head_peeksWithoutLeasing() {
		assertThat(this.http.send("/queues/peek/messages", "HEAD", BodyPublishers.noBody(), null).statusCode())
			.isEqualTo(204);
		this.http.post("/queues/peek/messages", "x");

		assertThat(this.http.send("/queues/peek/messages", "HEAD", BodyPublishers.noBody(), null).statusCode())
			.isEqualTo(200);
		assertThat(this.http.send("/queues/peek/messages", "HEAD", BodyPublishers.noBody(), null).statusCode())
			.isEqualTo(200);

		HttpResponse<String> polled = this.http.get("/queues/peek/messages");
		assertThat(JsonPath.parse(polled.body()).read("$.deliveries", Integer.class)).as("HEAD leased nothing")
			.isEqualTo(1);
	}

	@Test
	void options_listsAllowedMethods() {
		HttpResponse<String> response = this.http.send("/queues/q/messages", "OPTIONS", BodyPublishers.noBody(), null);

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Allow"))
			.hasValueSatisfying(allow -> assertThat(allow).contains("GET", "POST", "HEAD"));
	}

	@ParameterizedTest
	@ValueSource(strings = { "PUT", "PATCH", "TRACE" })
	void unsupportedMethods_methodNotAllowed(String method) throws IOException {
		String response = raw(method
				+ " /queues/q/messages HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");

		assertRawProblem(response, 405);
	}

	@Test
	void malformedPercentEncoding_badRequest() throws IOException {
		assertRawProblem(raw("GET /queues/%zz/messages HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"), 400);
	}

	@Test
	void veryLongUrl_badRequest() throws IOException {
		String name = "a".repeat(20_000);

		assertRawProblem(
				raw("GET /queues/" + name + "/messages HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"), 400);
	}

	@Test
	void veryLongHeader_badRequest() throws IOException {
		String header = "X-Big: " + "a".repeat(20_000);

		assertRawProblem(raw("GET /queues HTTP/1.1\r\nHost: localhost\r\n" + header + "\r\nConnection: close\r\n\r\n"),
				400);
	}

	@Test
	void afterAllOfThat_serviceStillHealthy() {
		assertThat(this.http.get("/actuator/health").statusCode()).isEqualTo(200);
		this.http.roundTrip("still-fine", "x");
	}

	private String raw(String request) throws IOException {
		try (Socket socket = new Socket("127.0.0.1", this.port)) {
			socket.setSoTimeout(10_000);
			OutputStream out = socket.getOutputStream();
			out.write(request.getBytes(StandardCharsets.ISO_8859_1));
			out.flush();
			InputStream in = socket.getInputStream();
			ByteArrayOutputStream response = new ByteArrayOutputStream();
			in.transferTo(response);
			return response.toString(StandardCharsets.UTF_8);
		}
	}

	private static void assertRawProblem(String response, int status) {
		assertThat(response).startsWith("HTTP/1.1 " + status + " ");
		assertThat(response).containsIgnoringCase("Content-Type: application/problem+json");
		assertThat(response).contains("\"status\":" + status);
		assertThat(response).doesNotContain("Exception", "<html", "at org.");
	}

}
