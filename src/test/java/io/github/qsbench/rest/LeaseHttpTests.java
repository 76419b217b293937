package io.github.qsbench.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.time.Duration;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;

import io.github.qsbench.http.ClockedHttpTestBase;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.test.context.TestPropertySource;

/**
 * Leases over HTTP: each poll names its delivery (ETag and {@code lease}), and a DELETE
 * with {@code If-Match} completes only the current delivery. Leases lapse because the
 * test moves the service's clock.
 */
@TestPropertySource(properties = "qs.lease-timeout=30s")
class LeaseHttpTests extends ClockedHttpTestBase {

	@Test
	void poll_leaseInBodyAndETag() {
		long id = push("lease-etag");

		HttpResponse<String> polled = this.http.get("/queues/lease-etag/messages");

		DocumentContext json = JsonPath.parse(polled.body());
		String lease = json.read("$.lease", String.class);
		assertThat(lease).isNotBlank();
		assertThat(polled.headers().firstValue("ETag")).hasValue("\"" + lease + "\"");
		assertThat(polled.headers().firstValue("Cache-Control")).as("no cache may store and revalidate a poll")
			.hasValue("no-store");
		assertThat(this.http.deleteIfMatch("/queues/lease-etag/messages/" + id, "\"" + lease + "\"").statusCode())
			.isEqualTo(204);
	}

	@Test
	void redelivered_staleLeasePreconditionFailed_currentCompletes() {
		long id = push("lease-stale");
		String stale = this.http.get("/queues/lease-stale/messages").headers().firstValue("ETag").orElseThrow();
		this.clock.advance(Duration.ofSeconds(30));
		HttpResponse<String> again = this.http.get("/queues/lease-stale/messages");
		assertThat(JsonPath.parse(again.body()).read("$.deliveries", Integer.class)).isEqualTo(2);
		String current = again.headers().firstValue("ETag").orElseThrow();
		assertThat(current).isNotEqualTo(stale);

		QueueApiHttpTests.assertProblem(this.http.deleteIfMatch("/queues/lease-stale/messages/" + id, stale), 412,
				"Lease no longer current");
		assertThat(this.http.deleteIfMatch("/queues/lease-stale/messages/" + id, current).statusCode()).isEqualTo(204);
	}

	@Test
	void lapsedButNotRedelivered_stillCompletes() {
		long id = push("lease-lapsed");
		String etag = this.http.get("/queues/lease-lapsed/messages").headers().firstValue("ETag").orElseThrow();
		this.clock.advance(Duration.ofMinutes(5));

		assertThat(this.http.deleteIfMatch("/queues/lease-lapsed/messages/" + id, etag).statusCode()).isEqualTo(204);
		assertThat(this.http.get("/queues/lease-lapsed/messages").statusCode()).isEqualTo(204);
	}

	@Test
	void withoutIfMatch_completesWhicheverDelivery() {
		long id = push("lease-none");
		this.http.get("/queues/lease-none/messages");
		this.clock.advance(Duration.ofSeconds(30));
		this.http.get("/queues/lease-none/messages");

		assertThat(this.http.delete("/queues/lease-none/messages/" + id).statusCode()).isEqualTo(204);
	}

	@ParameterizedTest
	@ValueSource(strings = { "1", "W/\"1.1\"", "\"abc\"", "\"1\"", "\"1.0\"", "\"0.1\"", "\"1.1\", \"1.2\"",
			"\"1.99999999999\"", "\"99999999999999999999.1\"" })
	void malformedIfMatch_badRequestAndNothingCompleted(String ifMatch) {
		long id = push("lease-bad");
		this.http.get("/queues/lease-bad/messages");

		QueueApiHttpTests.assertProblem(this.http.deleteIfMatch("/queues/lease-bad/messages/" + id, ifMatch), 400,
				"Invalid lease");
		assertThat(this.http.delete("/queues/lease-bad/messages/" + id).statusCode()).isEqualTo(204);
	}

	@Test
	void leaseOfAnotherMessage_preconditionFailed() {
		long first = push("lease-other");
		long second = push("lease-other");
		String firstLease = this.http.get("/queues/lease-other/messages").headers().firstValue("ETag").orElseThrow();
		String secondLease = this.http.get("/queues/lease-other/messages").headers().firstValue("ETag").orElseThrow();
		assertThat(firstLease).as("no two messages share a lease").isNotEqualTo(secondLease);

		QueueApiHttpTests.assertProblem(this.http.deleteIfMatch("/queues/lease-other/messages/" + first, secondLease),
				412, "Lease no longer current");
		assertThat(this.http.deleteIfMatch("/queues/lease-other/messages/" + second, secondLease).statusCode())
			.isEqualTo(204);
	}

	/**
	 * Both adapters: the fast path's plain queries, and MVC's (an Accept header the fast
	 * path leaves to it).
	 */
	@ParameterizedTest
	@ValueSource(strings = { "?lease=5", "?lease=5&wait=1", "?max=1&lease=5", "mvc?lease=5", "mvc?lease=5&wait=1" })
	void pollWithLease_lapsesAtItsOwnEnd(String query) {
		String queue = "lease-own-" + Math.abs(query.hashCode());
		push(queue);
		boolean mvc = query.startsWith("mvc");
		String path = "/queues/" + queue + "/messages" + query.substring(mvc ? 3 : 0);
		HttpResponse<String> polled = mvc
				? this.http.send(path, "GET", BodyPublishers.noBody(), null, "Accept", "application/json, */*;q=0.5")
				: this.http.get(path);
		assertThat(polled.statusCode()).isEqualTo(200);

		this.clock.advance(Duration.ofSeconds(4));
		assertThat(this.http.get("/queues/" + queue + "/messages").statusCode()).as("still leased").isEqualTo(204);
		this.clock.advance(Duration.ofSeconds(1));
		HttpResponse<String> again = this.http.get("/queues/" + queue + "/messages");
		assertThat(JsonPath.parse(again.body()).read("$.deliveries", Integer.class)).isEqualTo(2);
	}

	@ParameterizedTest
	@ValueSource(strings = { "?lease=43201", "?lease=-1", "?lease=x", "?lease=1&wait=1&lease=2" })
	void pollWithLeaseOutOfRange_badRequest(String query) {
		push("lease-bad-own");
		assertThat(this.http.get("/queues/lease-bad-own/messages" + query).statusCode()).isEqualTo(400);
		assertThat(this.http.get("/queues/lease-bad-own/messages").statusCode()).as("nothing was leased")
			.isEqualTo(200);
	}

	@Test
	void patchLease_extendsThenGivesBack_theTokenStaysValid() {
		long id = push("lease-patch");
		String etag = this.http.get("/queues/lease-patch/messages").headers().firstValue("ETag").orElseThrow();

		assertThat(patch("/queues/lease-patch/messages/" + id, etag, "{\"leaseSeconds\":120}").statusCode())
			.isEqualTo(204);
		this.clock.advance(Duration.ofSeconds(60));
		assertThat(this.http.get("/queues/lease-patch/messages").statusCode()).as("extended").isEqualTo(204);
		assertThat(patch("/queues/lease-patch/messages/" + id, etag, "{\"leaseSeconds\":0}").statusCode())
			.isEqualTo(204);
		HttpResponse<String> again = this.http.get("/queues/lease-patch/messages");
		assertThat(JsonPath.parse(again.body()).read("$.deliveries", Integer.class)).as("given back at once")
			.isEqualTo(2);

		QueueApiHttpTests.assertProblem(patch("/queues/lease-patch/messages/" + id, etag, "{\"leaseSeconds\":5}"), 412,
				"Lease no longer current");
		String current = again.headers().firstValue("ETag").orElseThrow();
		assertThat(this.http.deleteIfMatch("/queues/lease-patch/messages/" + id, current).statusCode()).isEqualTo(204);
		QueueApiHttpTests.assertProblem(patch("/queues/lease-patch/messages/" + id, current, "{\"leaseSeconds\":5}"),
				404, "No such message");
	}

	@Test
	void patchLease_refusals_nothingChanged() {
		long id = push("lease-patch-bad");
		QueueApiHttpTests.assertProblem(patch("/queues/lease-patch-bad/messages/" + id, "*", "{\"leaseSeconds\":5}"),
				409, "Message not delivered");
		String etag = this.http.get("/queues/lease-patch-bad/messages").headers().firstValue("ETag").orElseThrow();
		String path = "/queues/lease-patch-bad/messages/" + id;

		QueueApiHttpTests.assertProblem(
				this.http.send(path, "PATCH", BodyPublishers.ofString("{\"leaseSeconds\":5}"), "application/json"), 428,
				"Lease required");
		QueueApiHttpTests.assertProblem(patch(path, etag, "{\"leaseSeconds\":43201}"), 400, "Invalid parameter");
		QueueApiHttpTests.assertProblem(patch(path, etag, "{\"leaseSeconds\":5,\"other\":1}"), 400,
				"Invalid lease change");
		QueueApiHttpTests.assertProblem(patch(path, etag, "{\"leaseSeconds\":\"5\"}"), 400, "Invalid lease change");
		QueueApiHttpTests.assertProblem(patch(path, etag, "[]"), 400, "Invalid lease change");
		QueueApiHttpTests.assertProblem(patch(path, "\"nonsense\"", "{\"leaseSeconds\":5}"), 400, "Invalid lease");
		assertThat(this.http
			.send(path, "PATCH", BodyPublishers.ofString("{\"leaseSeconds\":5}"), "text/plain", "If-Match", etag)
			.statusCode()).isEqualTo(415);

		this.clock.advance(Duration.ofSeconds(30));
		assertThat(this.http.get("/queues/lease-patch-bad/messages").statusCode()).as("the lease as it was")
			.isEqualTo(200);
	}

	private HttpResponse<String> patch(String path, String ifMatch, String json) {
		return this.http.send(path, "PATCH", BodyPublishers.ofString(json), "application/json", "If-Match", ifMatch);
	}

	private long push(String queue) {
		return JsonPath.parse(this.http.post("/queues/" + queue + "/messages", "x").body()).read("$.id", Long.class);
	}

}
