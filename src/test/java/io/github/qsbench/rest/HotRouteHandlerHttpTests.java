package io.github.qsbench.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.jayway.jsonpath.JsonPath;

import io.github.qsbench.http.HttpTestBase;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.test.context.TestPropertySource;

/**
 * {@link HotRouteHandler} answers push, poll (also with max, and long) and complete as
 * Spring MVC does. Each request is sent twice: plain, which the fast path takes, and with
 * an {@code Accept} it leaves to MVC ({@code application/json, *}{@code /*}, the same
 * answer after negotiation); status, headers and body must agree, ids aside. The fast
 * path's own mark is a {@code Content-Length} where MVC's converters send chunks.
 */
@TestPropertySource(properties = { "qs.max-message-size=1KB", "qs.limits.max-messages-per-queue=2" })
class HotRouteHandlerHttpTests extends HttpTestBase {

	static final String VIA_MVC = "application/json, */*";

	@Test
	void push_sameAnswerAsMvc() {
		HttpResponse<String> fast = push("fast-push", "hello", null);
		HttpResponse<String> mvc = push("fast-push", "hello", VIA_MVC);

		assertSame(fast, mvc, 201);
		assertThat(fast.headers().firstValue("Location"))
			.hasValue("/queues/fast-push/messages/" + JsonPath.read(fast.body(), "$.id"));
		assertThat(fast.headers().firstValue("Content-Length")).hasValue(Integer.toString(fast.body().length()));
	}

	@Test
	void poll_sameAnswerAsMvc() {
		push("fast-poll", "héllo \"wörld\"\n", null);
		push("fast-poll", "héllo \"wörld\"\n", null);

		HttpResponse<String> fast = poll("fast-poll", null);
		HttpResponse<String> mvc = poll("fast-poll", VIA_MVC);

		assertSame(fast, mvc, 200);
		assertThat(JsonPath.<String>read(fast.body(), "$.body")).isEqualTo("héllo \"wörld\"\n");
		assertThat(fast.headers().firstValue("ETag")).hasValue("\"" + JsonPath.read(fast.body(), "$.lease") + "\"");
		assertThat(fast.headers().firstValue("Content-Length")).isPresent();
		assertSame(poll("fast-poll", null), poll("fast-poll", VIA_MVC), 204);
	}

	@Test
	void complete_sameAnswersAsMvc() {
		long first = id(push("fast-complete", "a", null));
		long second = id(push("fast-complete", "b", null));
		poll("fast-complete", null);
		poll("fast-complete", null);

		assertSame(complete("fast-complete", first, null, null), complete("fast-complete", second, null, VIA_MVC), 204);
		// completed already: 404
		assertSame(complete("fast-complete", first, null, null), complete("fast-complete", second, null, VIA_MVC), 404);
	}

	@Test
	void completeNeverDelivered_andStaleLease_sameProblemsAsMvc() {
		long first = id(push("fast-refused", "a", null));
		long second = id(push("fast-refused", "b", null));

		assertSame(complete("fast-refused", first, null, null), complete("fast-refused", second, null, VIA_MVC), 409);
		poll("fast-refused", null);
		poll("fast-refused", null);
		// a lease of a delivery that is not the current one
		assertSame(complete("fast-refused", first, "\"" + first + ".7\"", null),
				complete("fast-refused", second, "\"" + second + ".7\"", VIA_MVC), 412);
	}

	@Test
	void pushOverACap_badBody_sameProblemsAsMvc() {
		push("fast-full", "a", null);
		push("fast-full", "b", null);

		String refused = "(?m)^qs_pushes_refused_total\\{.*limit=\"max-messages-per-queue\".*} ([0-9.E]+)$";
		double before = count(refused);
		HttpResponse<String> fast = push("fast-full", "c", null);
		assertThat(count(refused)).as("the fast path's refusal, counted").isEqualTo(before + 1);
		assertSame(fast, push("fast-full", "c", VIA_MVC), 429);
		assertThat(count(refused)).as("and MVC's").isEqualTo(before + 2);
		assertThat(fast.headers().firstValue("Retry-After")).hasValue("1");

		HttpResponse<String> invalid = this.http.send("/queues/fast-bytes/messages", "POST",
				BodyPublishers.ofByteArray(new byte[] { 'a', (byte) 0xC3 }), "text/plain");
		HttpResponse<String> invalidViaMvc = this.http.send("/queues/fast-bytes/messages", "POST",
				BodyPublishers.ofByteArray(new byte[] { 'a', (byte) 0xC3 }), "text/plain", "Accept", VIA_MVC);
		assertSame(invalid, invalidViaMvc, 400);
		assertSame(push("fast-big", "x".repeat(1025), null), push("fast-big", "x".repeat(1025), VIA_MVC), 413);
	}

	/**
	 * A push is the bytes of its body, whatever its content type, on the fast path and
	 * through MVC: there a query string (which the fast path leaves to MVC) once made the
	 * container read a form body (curl's default content type) as parameters, and the
	 * push found its body empty.
	 */
	@ParameterizedTest
	@CsvSource(delimiter = '|',
			value = { "application/x-www-form-urlencoded|hello", "application/x-www-form-urlencoded|delay=5&a=1",
					"application/octet-stream|raw bytes", "multipart/form-data; boundary=xyz|--xyz--",
					"text/html|<b>hi</b>", "application/json-seq|{\"body\":\"x\"}" })
	void pushOfAnyContentType_itsBytes_withAndWithoutAQuery(String contentType, String body) {
		HttpResponse<String> fast = push("fast-typed", "", body, contentType, null);
		assertThat(fast.statusCode()).as(fast.body()).isEqualTo(201);
		assertThat(taken("fast-typed")).isEqualTo(body);
		for (String query : List.of("", "?delay=0", "?delay=%30")) {
			for (String accept : new String[] { null, VIA_MVC }) {
				assertSame(fast, push("fast-typed", query, body, contentType, accept), 201);
				assertThat(taken("fast-typed")).as(query + " " + accept).isEqualTo(body);
			}
		}
	}

	/**
	 * A push with a plain group or delay is the fast path's (its mark, a
	 * {@code Content-Length}), as MVC answers it, and the message keeps its group; one
	 * whose query needs decoding is MVC's. A fair queue's pushes once all went through
	 * MVC.
	 */
	@Test
	void groupedAndDelayedPush_takenByTheFastPath_sameAnswersAsMvc() {
		HttpResponse<String> fast = push("fast-grouped", "?group=g-1._~", "a", "text/plain", null);
		HttpResponse<String> mvc = push("fast-grouped", "?group=g-1._~", "b", "text/plain", VIA_MVC);

		assertSame(fast, mvc, 201);
		assertThat(fast.headers().firstValue("Content-Length")).as("the fast path's").isPresent();
		assertThat(mvc.headers().firstValue("Content-Length")).as("MVC's").isEmpty();
		HttpResponse<String> polled = poll("fast-grouped", null);
		assertThat(JsonPath.<String>read(polled.body(), "$.group")).isEqualTo("g-1._~");
		assertSame(push("fast-grouped-json", "?delay=0&group=g", "{\"body\":\"c\"}", "application/json", null),
				push("fast-grouped-json", "?delay=0&group=g", "{\"body\":\"d\"}", "application/json", VIA_MVC), 201);
		assertSame(push("fast-grouped-late", "?delay=999999999", "e", "text/plain", null),
				push("fast-grouped-late", "?delay=999999999", "e", "text/plain", VIA_MVC), 400);
		assertThat(push("fast-decoded", "?group=g%21", "f", "text/plain", null).statusCode()).isEqualTo(201);
		assertThat(JsonPath.<String>read(poll("fast-decoded", null).body(), "$.group")).as("decoded by MVC")
			.isEqualTo("g!");
	}

	/**
	 * A push's JSON form and a batch read their JSON body with and without a delay; sent
	 * as a form, a batch is refused (415), and a JSON-looking form is a plain message.
	 */
	@Test
	void jsonPushAndBatch_sameWithAndWithoutDelay_formsAreNotJson() {
		String json = "{\"body\":\"hello\"}";
		for (String query : List.of("", "?delay=0")) {
			assertThat(push("fast-json", query, json, "application/json", null).statusCode()).isEqualTo(201);
			assertThat(taken("fast-json")).isEqualTo("hello");
			assertThat(push("fast-json", query, json, "application/x-www-form-urlencoded", null).statusCode())
				.isEqualTo(201);
			assertThat(taken("fast-json")).isEqualTo(json);
			HttpResponse<String> batch = this.http.send("/queues/fast-json/messages/batch" + query, "POST",
					BodyPublishers.ofString("{\"messages\":[\"a\"]}"), "application/json");
			assertThat(batch.statusCode()).as(batch.body()).isEqualTo(201);
			assertThat(taken("fast-json")).isEqualTo("a");
			QueueApiHttpTests.assertProblem(
					this.http.send("/queues/fast-json/messages/batch" + query, "POST",
							BodyPublishers.ofString("{\"messages\":[\"a\"]}"), "application/x-www-form-urlencoded"),
					415, "Unsupported Media Type");
		}
	}

	/**
	 * A push's JSON form, a batch of pushes and a batch of completions: taken by the fast
	 * path (its Content-Length) and answered as MVC answers them, refusals too; a body
	 * longer than a message may be goes to MVC, which answers both alike.
	 */
	@Test
	void jsonPush_batchPush_completionBatch_sameAnswersAsMvc() {
		HttpResponse<String> fast = json("fast-jpush", "", "{\"body\":\"hi\",\"group\":\"g\"}", null);
		assertSame(fast, json("fast-jpush", "", "{\"body\":\"hi\",\"group\":\"g\"}", VIA_MVC), 201);
		assertThat(fast.headers().firstValue("Content-Length")).hasValue(Integer.toString(fast.body().length()));
		assertThat(JsonPath.<String>read(poll("fast-jpush", null).body(), "$.group")).isEqualTo("g");
		// the queue holds 2: full
		assertSame(json("fast-jpush", "", "{\"body\":\"hi\"}", null),
				json("fast-jpush", "", "{\"body\":\"hi\"}", VIA_MVC), 429);
		assertSame(json("fast-jbad", "", "{\"body\":1}", null), json("fast-jbad", "", "{\"body\":1}", VIA_MVC), 400);
		// content types MVC's consumes does not parse (the push falls to the plain push,
		// which refuses the charset) or parses (empty parameters): answered alike
		String[][] cases = { { "application/json; charset=no-such-charset", "", "415" },
				{ "application/json; charset=no-such-charset", "/batch", "415" },
				{ "application/json; charset=no-such-charset", "/completions", "415" },
				{ "application/json;;;", "", "400" }, { "application/json;;;", "/batch", "201" },
				{ "application/json;;;", "/completions", "400" } };
		for (String[] each : cases) {
			assertSame(typed("fast-jtyped", each[1], "{\"messages\":[\"a\"]}", each[0], null),
					typed("fast-jtyped", each[1], "{\"messages\":[\"a\"]}", each[0], VIA_MVC),
					Integer.parseInt(each[2]));
		}

		fast = json("fast-jbatch", "/batch", "{\"messages\":[\"a\"]}", null);
		assertSame(fast, json("fast-jbatch", "/batch", "{\"messages\":[\"b\"]}", VIA_MVC), 201);
		assertThat(fast.headers().firstValue("Content-Length")).isPresent();
		assertSame(json("fast-jbatch", "/batch", "{\"messages\":[\"c\"]}", null),
				json("fast-jbatch", "/batch", "{\"messages\":[\"c\"]}", VIA_MVC), 429);
		assertSame(json("fast-jbatch", "/batch", "{\"messages\":[]}", null),
				json("fast-jbatch", "/batch", "{\"messages\":[]}", VIA_MVC), 400);
		String large = "{\"messages\":[\"" + "x".repeat(1000) + "\",\"" + "y".repeat(1000) + "\"]}";
		assertSame(json("fast-jlarge1", "/batch", large, null), json("fast-jlarge2", "/batch", large, VIA_MVC), 201);

		long first = id(poll("fast-jbatch", null));
		long second = id(poll("fast-jbatch", null));
		fast = json("fast-jbatch", "/completions", "{\"messages\":[{\"id\":" + first + "},{\"id\":999}]}", null);
		HttpResponse<String> mvc = json("fast-jbatch", "/completions",
				"{\"messages\":[{\"id\":" + second + "},{\"id\":998}]}", VIA_MVC);
		assertSame(fast, mvc, 200);
		assertThat(fast.headers().firstValue("Content-Length")).isPresent();
		assertThat(JsonPath.<List<Integer>>read(fast.body(), "$.results[*].status")).containsExactly(204, 404);
		assertSame(json("fast-jbatch", "/completions", "{\"messages\":[{}]}", null),
				json("fast-jbatch", "/completions", "{\"messages\":[{}]}", VIA_MVC), 400);
	}

	/** A content type a push cannot be read in: the same 415 on every path. */
	@ParameterizedTest
	@ValueSource(strings = { "text/plain; charset=no-such-charset", ";;;", "text/plain; charset=\"" })
	void pushOfAnUnreadableContentType_same415WithAndWithoutAQuery(String contentType) {
		HttpResponse<String> fast = push("fast-unreadable", "", "x", contentType, null);
		assertSame(fast, push("fast-unreadable", "", "x", contentType, VIA_MVC), 415);
		assertSame(fast, push("fast-unreadable", "?delay=0", "x", contentType, null), 415);
		QueueApiHttpTests.assertProblem(fast, 415, "Unsupported Media Type");
	}

	/** Over two queues whose names differ in a digit only (a queue holds 2 here). */
	@Test
	void batchPoll_andLongPollOfReadyMessages_sameAnswersAsMvc() {
		for (String queue : List.of("fast-max1", "fast-max2")) {
			push(queue, "m", null);
			push(queue, "m", null);
		}
		HttpResponse<String> fast = get("/queues/fast-max1/messages?max=5&wait=20", null);
		assertSame(fast, get("/queues/fast-max2/messages?max=5&wait=20", VIA_MVC), 200);
		assertThat(JsonPath.<List<String>>read(fast.body(), "$.messages[*].body")).containsExactly("m", "m");
		assertThat(fast.headers().firstValue("Content-Length")).isPresent();

		for (String queue : List.of("fast-max3", "fast-max4")) {
			push(queue, "m", null);
		}
		assertSame(get("/queues/fast-max3/messages?wait=20", null), get("/queues/fast-max4/messages?wait=20", VIA_MVC),
				200);
		assertSame(get("/queues/fast-max3/messages?max=5", null), get("/queues/fast-max4/messages?max=5", VIA_MVC),
				204);
		assertSame(get("/queues/fast-max3/messages?wait=0&max=5", null),
				get("/queues/fast-max4/messages?wait=0&max=5", VIA_MVC), 204);
	}

	/**
	 * A waiting poll woken by a push: answered on the request's async dispatch (the fast
	 * path's writer's mark, a Content-Length) alike whether the fast path or MVC
	 * suspended it, and timed once.
	 */
	@Test
	void longPollWokenByPush_sameAnswerAsMvc_timedOnce() throws Exception {
		String answered = "(?m)^http_server_requests_seconds_count\\{.*method=\"GET\",outcome=\"SUCCESS\",status=\"200\""
				+ ",strategy=\"" + strategy() + "\",uri=\"/queues/\\{queue}/messages\"} ([0-9.]+)";
		double before = count(answered);
		CompletableFuture<HttpResponse<String>> fast = this.http.sendAsync("/queues/fast-wake/messages?wait=20");
		awaitLongPolls("fast-wake", 1);
		push("fast-wake", "wake up", null);
		HttpResponse<String> woken = fast.get(10, TimeUnit.SECONDS);

		assertThat(woken.headers().firstValue("Content-Length")).isPresent();
		assertThat(count(answered) - before).as("timed once, when answered").isEqualTo(1);
		CompletableFuture<HttpResponse<String>> mvc = this.http.sendAsync("/queues/fast-wake/messages?wait=20",
				"Accept", VIA_MVC);
		awaitLongPolls("fast-wake", 1);
		push("fast-wake", "wake up", null);
		assertSame(woken, mvc.get(10, TimeUnit.SECONDS), 200);
		assertThat(JsonPath.<String>read(woken.body(), "$.body")).isEqualTo("wake up");
		// by the observation filter, when the container completes the request
		await().atMost(Duration.ofSeconds(5)).until(() -> count(answered) - before == 2);
		assertThat(count(answered) - before).as("the one through MVC timed once too").isEqualTo(2);
	}

	@Test
	void longPollOutOfRange_sameProblemsAsMvc() {
		assertSame(get("/queues/fast-range/messages?wait=21", null),
				get("/queues/fast-range/messages?wait=21", VIA_MVC), 400);
		assertSame(get("/queues/fast-range/messages?max=0&wait=1", null),
				get("/queues/fast-range/messages?max=0&wait=1", VIA_MVC), 400);
		assertSame(get("/queues/fast-range/messages?max=101", null),
				get("/queues/fast-range/messages?max=101", VIA_MVC), 400);
		QueueApiHttpTests.assertProblem(get("/queues/fast-range/messages?wait=99999999999", null), 400,
				"Invalid parameter");
		// several bad: a long poll names its wait first, a poll its max
		for (String accept : new String[] { null, VIA_MVC }) {
			assertThat(get("/queues/fast-range/messages?max=0&wait=21&lease=999999999", accept).body())
				.contains("'wait'");
			assertThat(get("/queues/fast-range/messages?max=0&lease=999999999", accept).body()).contains("'max'");
		}
	}

	@Test
	void requestsItDoesNotTake_goToMvc() {
		// percent-encoded name: MVC decodes it to a valid one
		assertThat(this.http.post("/queues/%41b/messages", "x").statusCode()).isEqualTo(201);
		assertThat(this.http.get("/queues/Ab/messages").statusCode()).isEqualTo(200);
		// an Accept the API cannot answer
		assertThat(this.http.send("/queues/Ab/messages", "GET", BodyPublishers.noBody(), null, "Accept", "text/html")
			.statusCode()).isEqualTo(406);
		// bad name, bad id: problem+json from MVC's checks
		QueueApiHttpTests.assertProblem(this.http.post("/queues/a.b/messages", "x"), 400, "Invalid queue name");
		QueueApiHttpTests.assertProblem(this.http.delete("/queues/ab/messages/01"), 400, "Invalid message id");
		assertThat(
				this.http.send("/queues/ab/messages", "PUT", BodyPublishers.ofString("x"), "text/plain").statusCode())
			.isEqualTo(405);
		// a poll's query that is not plain max and wait: MVC decodes and binds it
		this.http.post("/queues/Ab/messages", "y");
		assertThat(this.http.get("/queues/Ab/messages?wait=%30").statusCode()).isEqualTo(200);
		assertThat(this.http.get("/queues/Ab/messages?wait=0&unknown=1").statusCode()).isEqualTo(204);
		QueueApiHttpTests.assertProblem(this.http.get("/queues/Ab/messages?wait=0&wait=1"), 400, "Invalid parameter");
	}

	@Test
	void fastPathRequests_timedInTheHttpServerRequestsHistogram_besideMvcs() {
		long id = id(push("fast-timed", "a", null));
		poll("fast-timed", null);
		complete("fast-timed", id, null, null);
		this.http.post("/queues/fast.timed/messages", "a");
		json("fast-timed", "/batch", "{\"messages\":[\"b\"]}", null);

		String scrape = this.http.get("/actuator/prometheus").body();
		assertThat(scrape).containsOnlyOnce("# TYPE http_server_requests_seconds histogram");
		assertThat(scrape).containsPattern("(?m)^http_server_requests_seconds_count\\{.*method=\"POST\""
				+ ",outcome=\"CLIENT_ERROR\",status=\"400\",strategy=\"" + strategy()
				+ "\",uri=\"/queues/\\{queue}/messages\"} [1-9]");
		assertThat(scrape).doesNotContain("http_server_requests_active_seconds");
		for (String series : List.of("method=\"POST\",outcome=\"SUCCESS\",status=\"201\"",
				"method=\"GET\",outcome=\"SUCCESS\",status=\"200\"")) {
			assertThat(scrape).containsPattern("(?m)^http_server_requests_seconds_bucket\\{.*" + series + ",strategy=\""
					+ strategy() + "\",uri=\"/queues/\\{queue}/messages\",le=\"\\+Inf\"} [1-9]");
		}
		assertThat(scrape).containsPattern("(?m)^http_server_requests_seconds_count\\{.*method=\"POST\""
				+ ",outcome=\"SUCCESS\",status=\"201\",strategy=\"" + strategy()
				+ "\",uri=\"/queues/\\{queue}/messages/batch\"} [1-9]");
		assertThat(scrape).containsPattern("(?m)^http_server_requests_seconds_count\\{.*method=\"DELETE\""
				+ ",outcome=\"SUCCESS\",status=\"204\",strategy=\"" + strategy()
				+ "\",uri=\"/queues/\\{queue}/messages/\\{id}\"} [1-9]");
	}

	/** The strategy the service runs, as its metrics tag it. */
	String strategy() {
		return "concurrent-atomic";
	}

	HttpResponse<String> push(String queue, String body, String accept) {
		return this.http.send("/queues/" + queue + "/messages", "POST", BodyPublishers.ofString(body),
				"text/plain; charset=utf-8", headers(accept));
	}

	private HttpResponse<String> push(String queue, String query, String body, String contentType, String accept) {
		return this.http.send("/queues/" + queue + "/messages" + query, "POST", BodyPublishers.ofString(body),
				contentType, headers(accept));
	}

	/**
	 * A JSON request to a queue's {@code /messages} and what follows it ({@code tail}).
	 */
	HttpResponse<String> json(String queue, String tail, String body, String accept) {
		return typed(queue, tail, body, "application/json", accept);
	}

	private HttpResponse<String> typed(String queue, String tail, String body, String contentType, String accept) {
		return this.http.send("/queues/" + queue + "/messages" + tail, "POST", BodyPublishers.ofString(body),
				contentType, headers(accept));
	}

	/** Polls the one message the queue holds, completes it, and answers its body. */
	private String taken(String queue) {
		HttpResponse<String> polled = poll(queue, null);
		assertThat(polled.statusCode()).as(polled.body()).isEqualTo(200);
		assertThat(complete(queue, id(polled), null, null).statusCode()).isEqualTo(204);
		return JsonPath.read(polled.body(), "$.body");
	}

	HttpResponse<String> get(String path, String accept) {
		return this.http.send(path, "GET", BodyPublishers.noBody(), null, headers(accept));
	}

	double count(String seriesPattern) {
		Matcher matcher = Pattern.compile(seriesPattern).matcher(this.http.get("/actuator/prometheus").body());
		return matcher.find() ? Double.parseDouble(matcher.group(1)) : 0;
	}

	HttpResponse<String> poll(String queue, String accept) {
		return this.http.send("/queues/" + queue + "/messages", "GET", BodyPublishers.noBody(), null, headers(accept));
	}

	HttpResponse<String> complete(String queue, long id, String ifMatch, String accept) {
		String[] headers = headers(accept);
		if (ifMatch != null) {
			headers = (accept != null) ? new String[] { "Accept", accept, "If-Match", ifMatch }
					: new String[] { "If-Match", ifMatch };
		}
		return this.http.send("/queues/" + queue + "/messages/" + id, "DELETE", BodyPublishers.noBody(), null, headers);
	}

	private static String[] headers(String accept) {
		return (accept != null) ? new String[] { "Accept", accept } : new String[0];
	}

	static long id(HttpResponse<String> pushed) {
		return JsonPath.parse(pushed.body()).read("$.id", Long.class);
	}

	/**
	 * Same status, content type, header names and body (numbers, which are ids and
	 * leases, aside; the problem's {@code instance} names the path with its id).
	 */
	private static void assertSame(HttpResponse<String> fast, HttpResponse<String> mvc, int status) {
		assertThat(fast.statusCode()).as(fast.body()).isEqualTo(status);
		assertThat(mvc.statusCode()).as(mvc.body()).isEqualTo(status);
		assertThat(fast.headers().firstValue("Content-Type")).isEqualTo(mvc.headers().firstValue("Content-Type"));
		Function<HttpResponse<String>, List<String>> names = response -> response.headers()
			.map()
			.keySet()
			.stream()
			.map(String::toLowerCase)
			.filter(name -> !name.equals("content-length") && !name.equals("transfer-encoding") && !name.equals("date"))
			.sorted()
			.toList();
		assertThat(names.apply(fast)).isEqualTo(names.apply(mvc));
		assertThat(fast.body().replaceAll("[0-9]+", "N")).isEqualTo(mvc.body().replaceAll("[0-9]+", "N"));
		if (status >= 400) {
			assertThat(fast.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		}
	}

}
