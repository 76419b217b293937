package io.github.qsbench.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.util.concurrent.TimeUnit;

import com.jayway.jsonpath.JsonPath;

import io.github.qsbench.http.HttpTestBase;

import org.junit.jupiter.api.Test;

import org.springframework.test.context.TestPropertySource;

/**
 * With bearer tokens configured, every request but health, the live page's shell and the
 * SQS face's asks for one; a read-only token reads and browses but neither changes nor
 * leases. Refusals are problem+json and name no token.
 */
@TestPropertySource(properties = { "qs.security.rest.tokens[0].token=" + BearerTokenHttpTests.WRITER,
		"qs.security.rest.tokens[0].scope=read-write",
		"qs.security.rest.tokens[1].token=" + BearerTokenHttpTests.READER, "qs.security.rest.tokens[1].scope=read-only",
		"management.endpoints.web.exposure.include=health,prometheus" })
class BearerTokenHttpTests extends HttpTestBase {

	static final String WRITER = "writer-token-0123456789abcdef";

	static final String READER = "reader-token-0123456789abcdef";

	@Test
	void noToken_401ProblemWithChallenge_andNothingChanges() {
		HttpResponse<String> push = this.http.post("/queues/guarded/messages", "m");

		assertThat(push.statusCode()).isEqualTo(401);
		assertThat(push.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(push.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"queue-service\"");
		assertThat(push.body()).contains("\"status\":401");
		assertThat(as(WRITER, "/queues/guarded", "GET").statusCode()).isEqualTo(404);
	}

	@Test
	void unknownToken_401InvalidToken_notEchoed() {
		HttpResponse<String> list = as("not-a-token-of-this-service", "/queues", "GET");

		assertThat(list.statusCode()).isEqualTo(401);
		assertThat(list.headers().firstValue("WWW-Authenticate"))
			.hasValueSatisfying(challenge -> assertThat(challenge).contains("error=\"invalid_token\""));
		assertThat(list.body()).doesNotContain("not-a-token-of-this-service").doesNotContain(WRITER);
	}

	@Test
	void readWriteToken_pushesPollsCompletes() {
		assertThat(as(WRITER, "/queues/rw/messages", "POST", "one").statusCode()).isEqualTo(201);
		HttpResponse<String> polled = as(WRITER, "/queues/rw/messages", "GET");
		assertThat(polled.statusCode()).isEqualTo(200);
		long id = JsonPath.parse(polled.body()).read("$.id", Long.class);
		assertThat(as(WRITER, "/queues/rw/messages/" + id, "DELETE").statusCode()).isEqualTo(204);
	}

	@Test
	void readOnlyToken_readsAndBrowses_butNeitherChangesNorLeases() {
		assertThat(as(WRITER, "/queues/ro/messages", "POST", "held").statusCode()).isEqualTo(201);

		assertThat(as(READER, "/queues", "GET").statusCode()).isEqualTo(200);
		assertThat(as(READER, "/queues/ro", "GET").statusCode()).isEqualTo(200);
		assertThat(as(READER, "/queues/ro/messages?peek=10", "GET").statusCode()).isEqualTo(200);
		HttpResponse<String> poll = as(READER, "/queues/ro/messages", "GET");
		assertThat(poll.statusCode()).isEqualTo(403);
		assertThat(poll.headers().firstValue("WWW-Authenticate"))
			.hasValueSatisfying(challenge -> assertThat(challenge).contains("error=\"insufficient_scope\""));
		assertThat(as(READER, "/queues/ro/messages", "POST", "m").statusCode()).isEqualTo(403);
		assertThat(as(READER, "/queues/ro/messages", "DELETE").statusCode()).isEqualTo(403);
		assertThat(as(READER, "/queues/ro", "DELETE").statusCode()).isEqualTo(403);

		HttpResponse<String> stillThere = as(WRITER, "/queues/ro/messages", "GET");
		assertThat(stillThere.statusCode()).isEqualTo(200);
		assertThat(stillThere.body()).contains("held");
	}

	@Test
	void healthAndThePageShell_open_metricsAndEvents_asked() {
		assertThat(this.http.get("/actuator/health").statusCode()).isEqualTo(200);
		assertThat(this.http.get("/live/live.js").statusCode()).isEqualTo(200);
		assertThat(this.http.get("/live/queues.js").statusCode()).as("the queue browser's script").isEqualTo(200);
		assertThat(this.http.send("/", "GET", BodyPublishers.noBody(), null, "Accept", "text/html").statusCode())
			.isEqualTo(200);

		assertThat(this.http.get("/actuator/prometheus").statusCode()).isEqualTo(401);
		assertThat(as(READER, "/actuator/prometheus", "GET").statusCode()).isEqualTo(200);
		assertThat(this.http.get("/v3/api-docs").statusCode()).isEqualTo(401);
		assertThat(this.http.get("/live/events").statusCode()).isEqualTo(401);
	}

	@Test
	void eventStream_takesItsTokenInTheQuery() throws Exception {
		HttpRequest request = HttpRequest
			.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/live/events?access_token=" + READER))
			.build();
		// the stream stays open: its answer is complete with its headers
		HttpResponse<InputStream> events = HttpClient.newHttpClient()
			.sendAsync(request, BodyHandlers.ofInputStream())
			.get(10, TimeUnit.SECONDS);
		events.body().close();

		assertThat(events.statusCode()).isEqualTo(200);
	}

	@Test
	void sqsFace_notAskedForABearerToken() {
		HttpResponse<String> list = this.http.send("/", "POST", BodyPublishers.ofString("{}"),
				"application/x-amz-json-1.0", "X-Amz-Target", "AmazonSQS.ListQueues");

		assertThat(list.statusCode()).isEqualTo(200);
	}

	private HttpResponse<String> as(String token, String path, String method) {
		return this.http.send(path, method, BodyPublishers.noBody(), null, "Authorization", "Bearer " + token);
	}

	private HttpResponse<String> as(String token, String path, String method, String body) {
		return this.http.send(path, method, BodyPublishers.ofString(body), "text/plain", "Authorization",
				"Bearer " + token);
	}

}
