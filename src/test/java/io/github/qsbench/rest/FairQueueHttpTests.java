package io.github.qsbench.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.github.qsbench.application.fair.FairGroups;
import io.github.qsbench.http.HttpTestBase;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;

import org.junit.jupiter.api.Test;

/**
 * Fair queues over the REST API: a push names its tenant ({@code ?group=} on a plain
 * body, {@code group} in the JSON form and in batch entries), a browse shows it, and a
 * noisy tenant's backlog waits behind quiet tenants' messages by the rule
 * {@code FairQueueTests} checks on every strategy, with the same bound: here one consumer
 * receiving batches of {@value #BATCH}, so every quiet message is among the first
 * {@link FairGroups#NOISY_MIN} + {@value #TENANTS} x {@value #QUIET_EACH} + 1 x
 * {@value #BATCH} delivered.
 */
class FairQueueHttpTests extends HttpTestBase {

	static final int BACKLOG = 1_000;

	static final int TENANTS = 9;

	static final int QUIET_EACH = 10;

	static final int BATCH = 10;

	static final int CONSUMERS = 1;

	/** As {@code FairQueueTests.BOUND}, for one consumer. */
	static final int BOUND = FairGroups.NOISY_MIN + TENANTS * QUIET_EACH + CONSUMERS * BATCH;

	@Test
	void noisyBacklogFirst_quietTenantsDeliveredWithinTheRule() {
		Set<Long> quiet = sendWorkload("rest-fair", true);

		Map<Long, Integer> placeOf = consumeAll("rest-fair", BACKLOG + TENANTS * QUIET_EACH);

		int last = quiet.stream().mapToInt(placeOf::get).max().orElseThrow();
		assertThat(last).as("the last quiet message's place in delivery order").isLessThanOrEqualTo(BOUND);
	}

	@Test
	void withoutGroups_quietTenantsWaitBehindTheBacklog() {
		Set<Long> quiet = sendWorkload("rest-unfair", false);

		Map<Long, Integer> placeOf = consumeAll("rest-unfair", BACKLOG + TENANTS * QUIET_EACH);

		int first = quiet.stream().mapToInt(placeOf::get).min().orElseThrow();
		assertThat(first).as("the first quiet message's place in delivery order").isGreaterThan(BACKLOG);
	}

	@Test
	void queueView_showsTheFairQueueCounts_onlyForAQueueWithGroups() {
		StringBuilder backlog = new StringBuilder("{\"messages\":[");
		for (int i = 0; i < 40; i++) {
			backlog.append((i > 0) ? "," : "").append("{\"body\":\"b").append(i).append("\",\"group\":\"noisy\"}");
		}
		post("/queues/rest-fair-view/messages/batch", "application/json", backlog.append("]}").toString());
		post("/queues/rest-fair-view/messages?group=quiet-1", "text/plain", "q1");
		post("/queues/rest-fair-view/messages?group=quiet-2", "text/plain", "q2");
		post("/queues/rest-plain-view/messages", "text/plain", "p");

		DocumentContext view = JsonPath.parse(this.http.get("/queues/rest-fair-view").body());
		assertThat(view.read("$.ready", Integer.class)).as("held messages count as ready").isEqualTo(42);
		Map<String, Object> fair = view.read("$.fair");
		assertThat(fair).as("30 of the backlog released, 10 held: noisy; the quiet two ready")
			.containsExactlyInAnyOrderEntriesOf(Map.of("noisyGroups", 1, "quietVisible", 2, "quietNotVisible", 0,
					"quietDelayed", 0, "quietOldestAgeSeconds", fair.get("quietOldestAgeSeconds")));
		assertThat(((Number) fair.get("quietOldestAgeSeconds")).longValue()).isNotNegative();
		Map<String, Object> plain = JsonPath.parse(this.http.get("/queues/rest-plain-view").body()).read("$");
		assertThat(plain).as("left out for a queue without groups").doesNotContainKey("fair");
	}

	@Test
	void group_onEveryFormOfPush_shownByPollAndBrowse() {
		post("/queues/rest-groups/messages?group=plain", "text/plain", "a");
		post("/queues/rest-groups/messages", "application/json", "{\"body\":\"b\",\"group\":\"json\"}");
		post("/queues/rest-groups/messages?group=param", "application/json", "{\"body\":\"c\"}");
		post("/queues/rest-groups/messages?group=same", "application/json", "{\"body\":\"d\",\"group\":\"same\"}");
		post("/queues/rest-groups/messages/batch", "application/json",
				"{\"messages\":[\"e\",{\"body\":\"f\",\"group\":\"batch\"}]}");
		post("/queues/rest-groups/messages?group=" + "!~".repeat(64), "text/plain", "g");

		DocumentContext browsed = JsonPath.parse(this.http.get("/queues/rest-groups/messages?peek=10").body());
		assertThat(browsed.read("$.messages[*].body", List.class)).containsExactly("a", "b", "c", "d", "e", "f", "g");
		Map<String, Object> noGroup = browsed.read("$.messages[4]");
		assertThat(noGroup).as("left out when none").doesNotContainKey("group");
		assertThat(browsed.read("$.messages[?(@.group)].group", List.class)).containsExactly("plain", "json", "param",
				"same", "batch", "!~".repeat(64));
		DocumentContext polled = JsonPath.parse(this.http.get("/queues/rest-groups/messages?max=10").body());
		assertThat(polled.read("$.messages[0].group", String.class)).isEqualTo("plain");
	}

	@Test
	void group_validatedAsSqsMessageGroupId() {
		for (String bad : List.of("", "a%20b", "%C3%A9", "x".repeat(129))) {
			HttpResponse<String> refused = this.http.post("/queues/rest-bad-group/messages?group=" + bad, "x");
			assertThat(refused.statusCode()).as("group=" + bad).isEqualTo(400);
			assertThat(JsonPath.parse(refused.body()).read("$.detail", String.class)).contains("'group'");
		}
		HttpResponse<String> twice = this.http.send("/queues/rest-bad-group/messages?group=a", "POST",
				BodyPublishers.ofString("{\"body\":\"x\",\"group\":\"b\"}"), "application/json");
		assertThat(twice.statusCode()).isEqualTo(400);
		assertThat(JsonPath.parse(twice.body()).read("$.title", String.class)).isEqualTo("Two groups");
		HttpResponse<String> badEntry = this.http.send("/queues/rest-bad-group/messages/batch", "POST",
				BodyPublishers.ofString("{\"messages\":[{\"body\":\"x\",\"group\":\"a b\"}]}"), "application/json");
		assertThat(badEntry.statusCode()).isEqualTo(400);
		assertThat(this.http.get("/queues/rest-bad-group").statusCode()).as("nothing was pushed").isEqualTo(404);
	}

	@Test
	void group_onAFifoQueue_isItsFifoGroup() {
		this.http.send("/queues/rest-fair-orders.fifo", "PUT",
				BodyPublishers.ofString("{\"fifo\":true,\"contentBasedDeduplication\":true}"), "application/json");
		post("/queues/rest-fair-orders.fifo/messages?group=a", "text/plain", "a1");
		post("/queues/rest-fair-orders.fifo/messages?group=a", "text/plain", "a2");
		post("/queues/rest-fair-orders.fifo/messages?group=b", "text/plain", "b1");

		DocumentContext polled = JsonPath.parse(this.http.get("/queues/rest-fair-orders.fifo/messages?max=10").body());
		assertThat(polled.read("$.messages[*].body", List.class)).as("one message per group at a time")
			.containsExactly("a1", "b1");
		assertThat(polled.read("$.messages[*].group", List.class)).containsExactly("a", "b");
	}

	/**
	 * The backlog of tenant {@code noisy} in JSON batches of 100, then nine quiet
	 * tenants' messages as plain pushes naming their group.
	 * @return the quiet messages' ids
	 */
	private Set<Long> sendWorkload(String queue, boolean grouped) {
		for (int from = 0; from < BACKLOG; from += 100) {
			StringBuilder batch = new StringBuilder("{\"messages\":[");
			for (int i = from; i < from + 100; i++) {
				batch.append((i > from) ? "," : "")
					.append(grouped ? "{\"body\":\"noisy-" + i + "\",\"group\":\"noisy\"}" : "\"noisy-" + i + "\"");
			}
			post("/queues/" + queue + "/messages/batch", "application/json", batch.append("]}").toString());
		}
		Set<Long> quiet = new HashSet<>();
		for (int tenant = 1; tenant <= TENANTS; tenant++) {
			for (int i = 0; i < QUIET_EACH; i++) {
				String query = grouped ? "?group=tenant-" + tenant : "";
				quiet.add(JsonPath.parse(post("/queues/" + queue + "/messages" + query, "text/plain", "quiet-" + i))
					.read("$.id", Long.class));
			}
		}
		return quiet;
	}

	/**
	 * Receives batches of {@value #BATCH} and completes them until {@code total} were
	 * delivered.
	 * @return each message's place in delivery order
	 */
	private Map<Long, Integer> consumeAll(String queue, int total) {
		Map<Long, Integer> placeOf = new HashMap<>();
		for (int receives = 0; placeOf.size() < total; receives++) {
			assertThat(receives).as("receives").isLessThan(2 * total / BATCH);
			HttpResponse<String> polled = this.http.get("/queues/" + queue + "/messages?max=" + BATCH);
			assertThat(polled.statusCode()).as("a message is always ready or released").isEqualTo(200);
			DocumentContext json = JsonPath.parse(polled.body());
			List<Number> ids = json.read("$.messages[*].id", List.class);
			List<String> leases = json.read("$.messages[*].lease", List.class);
			List<String> done = new ArrayList<>();
			for (int i = 0; i < ids.size(); i++) {
				assertThat(placeOf.putIfAbsent(ids.get(i).longValue(), placeOf.size() + 1)).as("delivered twice")
					.isNull();
				done.add("{\"id\":" + ids.get(i) + ",\"lease\":\"" + leases.get(i) + "\"}");
			}
			post("/queues/" + queue + "/messages/completions", "application/json",
					"{\"messages\":[" + String.join(",", done) + "]}", 200);
		}
		return placeOf;
	}

	private String post(String path, String contentType, String body) {
		return post(path, contentType, body, 201);
	}

	private String post(String path, String contentType, String body, int status) {
		HttpResponse<String> response = this.http.send(path, "POST", BodyPublishers.ofString(body), contentType);
		assertThat(response.statusCode()).as(path + " " + response.body()).isEqualTo(status);
		return response.body();
	}

}
