package io.github.qsbench.rest;

import static io.github.qsbench.rest.QueueApiHttpTests.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import io.github.qsbench.core.ConcurrentTestHarness;
import io.github.qsbench.http.ClockedHttpTestBase;
import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;

import org.junit.jupiter.api.Test;

import org.springframework.test.context.TestPropertySource;

/**
 * The redrive endpoint's move tasks over a real port: {@code Prefer: respond-async}
 * starts one (202, its Location), which is followed, listed and cancelled; without it the
 * redrive moves at once as before. The pace moves with the service's clock, which the
 * test moves; the tasks step on the service's own thread, so the test waits (bounded) for
 * a step to have run.
 */
@TestPropertySource(properties = "qs.lease-timeout=30s")
class RedriveTaskHttpTests extends ClockedHttpTestBase {

	private static final String ASYNC = "respond-async";

	@Test
	void preferRespondAsync_startsATask_followedUntilCompleted() throws Exception {
		pipe("rest-task-dlq", "rest-task-source");
		deadLetter("rest-task-source", "a", "b");

		HttpResponse<String> started = redrive("rest-task-dlq", "", ASYNC);

		assertThat(started.statusCode()).isEqualTo(202);
		assertThat(started.headers().firstValue("Preference-Applied")).hasValue(ASYNC);
		DocumentContext task = JsonPath.parse(started.body());
		String location = started.headers().firstValue("Location").orElseThrow();
		assertThat(location).isEqualTo("/queues/rest-task-dlq/redrive/tasks/" + task.read("$.handle", String.class));
		assertThat(task.read("$.toMove", Integer.class)).isEqualTo(2);
		assertThat(task.read("$.source", String.class)).isEqualTo("rest-task-dlq");
		assertThat(task.read("$.destination", String.class)).isNull();
		DocumentContext done = await(location, shown -> "COMPLETED".equals(shown.read("$.status")));
		assertThat(done.read("$.moved", Integer.class)).isEqualTo(2);
		assertThat(JsonPath.parse(this.http.get("/queues/rest-task-source/messages?max=10").body())
			.read("$.messages[*].body", List.class)).containsExactlyInAnyOrder("a", "b");
		DocumentContext listed = JsonPath.parse(this.http.get("/queues/rest-task-dlq/redrive/tasks").body());
		assertThat(listed.read("$.tasks[0].handle", String.class)).isEqualTo(task.read("$.handle", String.class));

		HttpResponse<String> atOnce = redrive("rest-task-dlq", "", null);
		assertThat(atOnce.statusCode()).as("without the preference, as before").isEqualTo(200);
		assertThat(JsonPath.parse(atOnce.body()).read("$.moved", Integer.class)).isZero();
	}

	@Test
	void pacedTask_oneAtATime_cancelledBetweenMoves() throws Exception {
		pipe("rest-paced-dlq", "rest-paced-source");
		assertThat(put("/queues/rest-paced-destination", "").statusCode()).isEqualTo(201);
		deadLetter("rest-paced-source", "1", "2", "3");
		String body = "{\"to\":\"rest-paced-destination\",\"maxPerSecond\":1}";

		String location = redrive("rest-paced-dlq", body, ASYNC).headers().firstValue("Location").orElseThrow();
		assertProblem(redrive("rest-paced-dlq", body, ASYNC), 409, "Task running");
		this.clock.advance(Duration.ofSeconds(1));
		await(location, shown -> shown.read("$.moved", Integer.class) == 1);

		HttpResponse<String> cancelled = this.http.delete(location);
		assertThat(cancelled.statusCode()).isEqualTo(200);
		assertThat(JsonPath.parse(cancelled.body()).read("$.status", String.class)).isEqualTo("CANCELLING");
		DocumentContext ended = await(location, shown -> "CANCELLED".equals(shown.read("$.status")));
		assertThat(ended.read("$.moved", Integer.class)).isOne();
		assertThat(ended.read("$.maxPerSecond", Integer.class)).isOne();
		assertProblem(this.http.delete(location), 409, "Task not running");
		this.clock.advance(Duration.ofSeconds(10));
		assertThat(bodies("rest-paced-destination")).containsExactly("1");
		assertThat(bodies("rest-paced-dlq")).as("the rest stays").containsExactly("2", "3");
	}

	@Test
	void maxAsksForAMoveAtOnce_aPaceForATask() {
		pipe("rest-which-dlq", "rest-which-source");

		HttpResponse<String> atOnce = redrive("rest-which-dlq", "{\"max\":1}", ASYNC);
		assertThat(atOnce.statusCode()).as("max: at once, the preference declined").isEqualTo(200);
		assertThat(atOnce.headers().firstValue("Preference-Applied")).isEmpty();
		HttpResponse<String> paced = redrive("rest-which-dlq", "{\"maxPerSecond\":1}", null);
		assertThat(paced.statusCode()).as("a pace: a task").isEqualTo(202);
	}

	@Test
	void refusals_asProblems() {
		pipe("rest-refused-dlq", "rest-refused-source");

		assertProblem(redrive("rest-refused-source", "", ASYNC), 409, "Not a dead-letter queue");
		assertProblem(redrive("rest-refused-none", "", ASYNC), 404, "No such queue");
		assertProblem(redrive("rest-refused-dlq", "{\"to\":\"rest-refused-none\"}", ASYNC), 404, "No such queue");
		assertProblem(redrive("rest-refused-dlq", "{\"max\":1,\"maxPerSecond\":0}", null), 400, "Invalid parameter");
		assertProblem(redrive("rest-refused-dlq", "{\"maxPerSecond\":501}", ASYNC), 400, "Invalid parameter");
		assertProblem(this.http.get("/queues/rest-refused-dlq/redrive/tasks?max=11"), 400, "Invalid parameter");
		assertProblem(this.http.get("/queues/rest-refused-none/redrive/tasks"), 404, "No such queue");
		assertProblem(this.http.get("/queues/rest-refused-dlq/redrive/tasks/no-such-task"), 404, "No such task");
		assertProblem(this.http.delete("/queues/rest-refused-dlq/redrive/tasks/no-such-task"), 404, "No such task");
		assertThat(JsonPath.parse(this.http.get("/queues/rest-refused-dlq/redrive/tasks").body())
			.read("$.tasks", List.class)).isEmpty();
	}

	@Test
	void apiDocs_describeTheTasks() {
		DocumentContext spec = JsonPath.parse(this.http.get("/v3/api-docs").body());

		Map<String, Object> redrive = spec.read("$.paths['/queues/{queue}/redrive'].post.responses");
		assertThat(redrive).containsKeys("200", "202", "400", "404", "409");
		assertThat(spec.read("$.paths['/queues/{queue}/redrive'].post.parameters[*].name", List.class))
			.contains("Prefer");
		assertThat(spec.read("$.components.schemas.Redrive.properties", Map.class).keySet()).containsExactly("to",
				"max", "maxPerSecond");
		assertThat(spec.read("$.paths['/queues/{queue}/redrive/tasks'].get", Map.class)).isNotNull();
		assertThat(spec.read("$.paths['/queues/{queue}/redrive/tasks/{task}'].get", Map.class)).isNotNull();
		assertThat(spec.read("$.paths['/queues/{queue}/redrive/tasks/{task}'].delete.responses", Map.class))
			.containsKeys("200", "404", "409");
		assertThat(spec.read("$.components.schemas.MoveTask.properties", Map.class)).containsKeys("handle", "status",
				"moved", "toMove", "failureReason");
	}

	/** A dead-letter queue and a queue whose messages go there after one delivery. */
	private void pipe(String dlq, String source) {
		assertThat(put("/queues/" + dlq, "").statusCode()).isEqualTo(201);
		assertThat(put("/queues/" + source, "{\"maxDeliveries\":1,\"deadLetterQueue\":\"" + dlq + "\"}").statusCode())
			.isEqualTo(201);
	}

	/** Pushes the bodies, polls them once and lets that lapse: each a dead letter. */
	private void deadLetter(String queue, String... bodies) {
		for (String body : bodies) {
			this.http.post("/queues/" + queue + "/messages", body);
		}
		assertThat(this.http.get("/queues/" + queue + "/messages?max=10").statusCode()).isEqualTo(200);
		this.clock.advance(Duration.ofSeconds(30));
		assertThat(this.http.get("/queues/" + queue + "/messages?max=10").statusCode()).as("all dead-lettered")
			.isEqualTo(204);
	}

	private List<String> bodies(String queue) {
		HttpResponse<String> polled = this.http.get("/queues/" + queue + "/messages?max=10");
		return (polled.statusCode() == 204) ? List.of()
				: JsonPath.parse(polled.body()).read("$.messages[*].body", List.class);
	}

	private HttpResponse<String> redrive(String queue, String body, String prefer) {
		String path = "/queues/" + queue + "/redrive";
		return (prefer != null)
				? this.http.send(path, "POST", BodyPublishers.ofString(body), "application/json", "Prefer", prefer)
				: this.http.send(path, "POST", BodyPublishers.ofString(body), "application/json");
	}

	private HttpResponse<String> put(String path, String json) {
		return this.http.send(path, "PUT", BodyPublishers.ofString(json), "application/json");
	}

	/**
	 * The task at {@code location} once it satisfies {@code done}, waiting for steps; if
	 * it does not in time, the failure shows the task as last shown and where the
	 * stepping threads were (this wait once ran out, in one CI run, with nothing logged).
	 */
	private DocumentContext await(String location, Predicate<DocumentContext> done) {
		AtomicReference<String> last = new AtomicReference<>();
		try {
			return Awaitility.await("a step that brings the task at " + location + " there")
				.atMost(Duration.ofSeconds(10))
				.pollInterval(Duration.ofMillis(10))
				.until(() -> {
					HttpResponse<String> shown = this.http.get(location);
					assertThat(shown.statusCode()).isEqualTo(200);
					last.set(shown.body());
					return JsonPath.parse(shown.body());
				}, done);
		}
		catch (ConditionTimeoutException ex) {
			throw new AssertionError("The task was last shown as " + last.get() + "; the move steps' threads:\n"
					+ ConcurrentTestHarness.stacks("move-tasks-"), ex);
		}
	}

}
