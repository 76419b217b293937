package io.github.qsbench.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest.BodyPublishers;
import java.time.Duration;
import java.util.Map;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;

import io.github.qsbench.http.ClockedHttpTestBase;

import org.junit.jupiter.api.Test;

import org.springframework.test.context.TestPropertySource;

/**
 * A queue's view gives the age of its oldest message not yet completed, by the service's
 * clock, which the test moves; a browse gives each message's sent time.
 */
@TestPropertySource(properties = "qs.lease-timeout=30s")
class OldestMessageHttpTests extends ClockedHttpTestBase {

	@Test
	void oldestMessageAge_byTheHead_untilItIsCompleted() {
		assertThat(this.http.send("/queues/aged", "PUT", BodyPublishers.ofString(""), "application/json").statusCode())
			.isEqualTo(201);
		assertThat(JsonPath.parse(this.http.get("/queues/aged").body()).read("$", Map.class))
			.as("left out while the queue holds nothing")
			.doesNotContainKey("oldestMessageAgeSeconds");
		String sentAt = this.clock.instant().toString();
		assertThat(this.http.post("/queues/aged/messages", "first").statusCode()).isEqualTo(201);
		this.clock.advance(Duration.ofSeconds(40));
		assertThat(this.http.post("/queues/aged/messages", "second").statusCode()).isEqualTo(201);
		this.clock.advance(Duration.ofSeconds(2));

		assertThat(age()).isEqualTo(42);
		assertThat(JsonPath.parse(this.http.get("/queues/aged/messages?peek=1").body())
			.read("$.messages[0].sentAt", String.class)).isEqualTo(sentAt);

		long first = JsonPath.parse(this.http.get("/queues/aged/messages").body()).read("$.id", Long.class);
		assertThat(age()).as("in flight, still the oldest").isEqualTo(42);
		assertThat(this.http.delete("/queues/aged/messages/" + first).statusCode()).isEqualTo(204);
		assertThat(age()).as("the next one's").isEqualTo(2);
	}

	private long age() {
		DocumentContext view = JsonPath.parse(this.http.get("/queues/aged").body());
		return view.read("$.oldestMessageAgeSeconds", Long.class);
	}

}
