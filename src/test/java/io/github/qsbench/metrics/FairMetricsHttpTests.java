package io.github.qsbench.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.qsbench.core.MutableClock;
import io.github.qsbench.http.HttpClientSupport;
import io.github.qsbench.http.ClockedHttpTestBase;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;

import org.junit.jupiter.api.Test;

/**
 * The five {@code qs_fair_*} gauges as Prometheus scrapes them, under a small fair
 * workload sent over REST: a backlog of tenant {@code noisy} and two messages each of
 * five quiet tenants. The gauges are read at most once a second of the service's clock
 * ({@code QueueMetrics}), which the test moves ({@link MutableClock}) between scrapes: no
 * sleep, no wait.
 */
class FairMetricsHttpTests extends ClockedHttpTestBase {

	private static final String QUEUE = "metrics-fair";

	/**
	 * Small enough that the quiet messages are among the first 100 from the head, which
	 * the age of the oldest quiet message reads ({@code FairQueues.AGE_SCAN}).
	 */
	private static final int BACKLOG = 50;

	private static final List<String> GAUGES = List.of("qs_fair_groups_noisy", "qs_fair_quiet_messages_visible",
			"qs_fair_quiet_messages_notvisible", "qs_fair_quiet_messages_delayed", "qs_fair_quiet_oldest_age_seconds");

	@Test
	void fairWorkload_fiveGaugesPerQueue_followTheNoisyTenant() {
		HttpClientSupport http = new HttpClientSupport(this.port);
		StringBuilder backlog = new StringBuilder("{\"messages\":[");
		for (int i = 0; i < BACKLOG; i++) {
			backlog.append((i > 0) ? "," : "").append("{\"body\":\"noisy-").append(i).append("\",\"group\":\"noisy\"}");
		}
		send(http, "/queues/" + QUEUE + "/messages/batch", "application/json", backlog.append("]}").toString());
		for (int tenant = 1; tenant <= 5; tenant++) {
			for (int i = 0; i < 2; i++) {
				send(http, "/queues/" + QUEUE + "/messages?group=tenant-" + tenant, "text/plain", "quiet-" + i);
			}
		}
		this.clock.advance(Duration.ofSeconds(7));

		assertThat(scrape(http)).as("the backlog's tenant is noisy, the quiet tenants' ten wait, sent 7 s ago")
			.containsExactly(1.0, 10.0, 0.0, 0.0, 7.0);

		// 40 received: the noisy tenant's 30 released first (sent first), then the quiet
		// 10
		List<String> leased = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			DocumentContext polled = JsonPath.parse(http.get("/queues/" + QUEUE + "/messages?max=10").body());
			List<Number> ids = polled.read("$.messages[*].id", List.class);
			List<String> leases = polled.read("$.messages[*].lease", List.class);
			for (int j = 0; j < ids.size(); j++) {
				leased.add("{\"id\":" + ids.get(j) + ",\"lease\":\"" + leases.get(j) + "\"}");
			}
		}
		assertThat(leased).hasSize(40);
		assertThat(scrape(http)).as("read again within the second: the same reading")
			.containsExactly(1.0, 10.0, 0.0, 0.0, 7.0);
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(scrape(http)).as("the quiet ten in flight, none ready: no age")
			.containsExactly(1.0, 0.0, 10.0, 0.0, 0.0);

		send(http, "/queues/" + QUEUE + "/messages/completions", "application/json",
				"{\"messages\":[" + String.join(",", leased) + "]}");
		send(http, "/queues/" + QUEUE + "/messages?group=late&delay=60", "text/plain", "delayed");
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(scrape(http)).as("completed; the noisy tenant still holds 20 back; one quiet message delayed")
			.containsExactly(1.0, 0.0, 0.0, 1.0, 0.0);

		for (int received = 0, receives = 0; received < BACKLOG - 30; receives++) {
			assertThat(receives).as("receives").isLessThan(BACKLOG);
			DocumentContext polled = JsonPath.parse(http.get("/queues/" + QUEUE + "/messages?max=10").body());
			List<Number> ids = polled.read("$.messages[*].id", List.class);
			List<String> leases = polled.read("$.messages[*].lease", List.class);
			List<String> done = new ArrayList<>();
			for (int j = 0; j < ids.size(); j++) {
				done.add("{\"id\":" + ids.get(j) + ",\"lease\":\"" + leases.get(j) + "\"}");
			}
			send(http, "/queues/" + QUEUE + "/messages/completions", "application/json",
					"{\"messages\":[" + String.join(",", done) + "]}");
			received += ids.size();
		}
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(scrape(http)).as("the backlog delivered and completed: nobody noisy")
			.containsExactly(0.0, 0.0, 0.0, 1.0, 0.0);
	}

	/** The five gauges of {@link #QUEUE}, in the order of {@link #GAUGES}. */
	private static List<Double> scrape(HttpClientSupport http) {
		HttpResponse<String> scraped = http.get("/actuator/prometheus");
		assertThat(scraped.statusCode()).isEqualTo(200);
		Map<String, Double> values = new LinkedHashMap<>();
		for (String gauge : GAUGES) {
			Matcher matcher = Pattern.compile("(?m)^" + gauge + "\\{[^}]*queue=\"" + QUEUE + "\"[^}]*\\} (\\S+)$")
				.matcher(scraped.body());
			assertThat(matcher.find()).as(gauge + " for " + QUEUE).isTrue();
			values.put(gauge, Double.parseDouble(matcher.group(1)));
		}
		return List.copyOf(values.values());
	}

	private static void send(HttpClientSupport http, String path, String contentType, String body) {
		HttpResponse<String> response = http.send(path, "POST", BodyPublishers.ofString(body), contentType);
		assertThat(response.statusCode()).as(path + " " + response.body()).isIn(200, 201);
	}

}
