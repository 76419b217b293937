package io.github.qsbench.rest;

import io.github.qsbench.http.HttpClientSupport;
import io.github.qsbench.http.HttpTestBase;
import static io.github.qsbench.rest.QueueApiHttpTests.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;

import org.junit.jupiter.api.Test;

import org.springframework.test.context.TestPropertySource;

/**
 * A push over a cap answers 429 with Retry-After, keeps what was accepted, and recovers
 * as consumers drain.
 */
@TestPropertySource(properties = "qs.limits.max-messages-per-queue=2")
class CapacityHttpTests extends HttpTestBase {

	@Test
	void pushOverCap_tooManyRequests_thenRecovers() {
		HttpClientSupport http = new HttpClientSupport(this.port);
		http.post("/queues/full/messages", "1");
		http.post("/queues/full/messages", "2");

		HttpResponse<String> refused = http.post("/queues/full/messages", "3");

		assertProblem(refused, 429, "Queue service full");
		assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
		DocumentContext problem = JsonPath.parse(refused.body());
		assertThat(problem.read("$.limit", String.class)).isEqualTo("max-messages-per-queue");
		assertThat(problem.read("$.max", Long.class)).isEqualTo(2);
		assertThat(problem.read("$.detail", String.class)).contains("qs.limits.max-messages-per-queue");
		assertThat(http.get("/actuator/health").statusCode()).isEqualTo(200);
		assertThat(http.post("/queues/other/messages", "x").statusCode()).as("other queues unaffected").isEqualTo(201);

		DocumentContext first = JsonPath.parse(http.get("/queues/full/messages").body());
		assertThat(first.read("$.body", String.class)).as("nothing accepted was dropped").isEqualTo("1");
		assertThat(http.delete("/queues/full/messages/" + first.read("$.id", Long.class)).statusCode()).isEqualTo(204);
		assertThat(http.post("/queues/full/messages", "3").statusCode()).as("room again").isEqualTo(201);

		String scrape = http.get("/actuator/prometheus").body();
		assertThat(scrape)
			.containsPattern("(?m)^qs_pushes_refused_total\\{.*limit=\"max-messages-per-queue\".*\\} 1\\.0$");
		assertThat(scrape).containsPattern("(?m)^qs_capacity_messages_per_queue_max\\{.*\\} 2\\.0$");
		assertThat(scrape).containsPattern("(?m)^qs_capacity_bytes_used_bytes\\{.*\\} [1-9]");
		assertThat(scrape).containsPattern("(?m)^qs_capacity_bytes_max_bytes\\{.*\\} [1-9]");
	}

}
