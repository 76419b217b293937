package io.github.qsbench.live;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;

import io.github.qsbench.http.HttpTestBase;

import org.junit.jupiter.api.Test;

/**
 * The live page, its chart library and its event stream over a real port, with the
 * default strategy.
 */
class LiveHttpTests extends HttpTestBase {

	/** Bounds the wait for events, which come once a second. */
	private static final Duration MAX_WAIT = Duration.ofSeconds(15);

	@Test
	void root_askedForHtml_answersThePage() {
		HttpResponse<String> page = this.http.send("/", "GET", HttpRequest.BodyPublishers.noBody(), null, "Accept",
				"text/html");

		assertThat(page.statusCode()).isEqualTo(200);
		assertThat(page.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("text/html"));
		assertThat(page.body()).contains("/webjars/uplot/dist/uPlot.iife.min.js", "/live/live.js");
		assertThat(this.http.get("/live/live.js").body()).contains("new EventSource");
	}

	@Test
	void chartLibrary_servedFromTheWebJar() {
		HttpResponse<String> script = this.http.get("/webjars/uplot/dist/uPlot.iife.min.js");

		assertThat(script.statusCode()).isEqualTo(200);
		assertThat(script.body()).contains("uPlot");
		assertThat(this.http.get("/webjars/uplot/dist/uPlot.min.css").statusCode()).isEqualTo(200);
	}

	@Test
	void events_notInTheOpenApiDescription() {
		assertThat(this.http.get("/v3/api-docs").body()).contains("/queues/{queue}/messages")
			.doesNotContain("/live/events");
	}

	@Test
	void events_snapshotsCarryTheStrategyAndTheQuantities_toAnyOrigin() throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/live/events"))
			.header("Accept", "text/event-stream")
			.header("Origin", "http://127.0.0.1:1")
			.build();
		HttpResponse<Stream<String>> response = HttpClient.newHttpClient().send(request, BodyHandlers.ofLines());
		try (Stream<String> lines = response.body()) {
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.headers().firstValue("Content-Type"))
				.hasValueSatisfying((type) -> assertThat(type).startsWith("text/event-stream"));
			assertThat(response.headers().firstValue("Access-Control-Allow-Origin")).hasValue("*");
			BlockingQueue<String> snapshots = new LinkedBlockingQueue<>();
			Thread reader = new Thread(() -> read(lines, snapshots));
			reader.setDaemon(true);
			reader.start();
			DocumentContext first = JsonPath.parse(next(snapshots));
			assertThat(first.read("$.strategy", String.class)).isEqualTo("concurrent-atomic");
			assertThat(first.read("$.threads", String.class)).isEqualTo("platform");
			assertThat(first.read("$.jvm", String.class)).endsWith(System.getProperty("java.version"));

			this.http.roundTrip("live-events", "watched");

			List<String> seen = new ArrayList<>();
			long deadline = System.nanoTime() + MAX_WAIT.toNanos();
			while (!seen.containsAll(List.of("pushed", "delivered", "completed", "latency", "core"))
					&& System.nanoTime() < deadline) {
				DocumentContext snapshot = JsonPath.parse(next(snapshots));
				positive(snapshot, "$.pushedPerSecond", "pushed", seen);
				positive(snapshot, "$.deliveredPerSecond", "delivered", seen);
				positive(snapshot, "$.completedPerSecond", "completed", seen);
				positive(snapshot, "$.latencyP99Seconds", "latency", seen);
				positive(snapshot, "$.coreShare", "core", seen);
				assertThat(snapshot.read("$.ready", Double.class)).isNotNull();
				assertThat(snapshot.read("$.inflight", Double.class)).isNotNull();
				assertThat(snapshot.read("$.refusedPerSecond", Double.class)).isNotNull();
				assertThat(snapshot.read("$.gcPauseSecondsPerSecond", Double.class)).isNotNull();
				assertThat(snapshot.read("$", Map.class)).containsKeys("coreShare", "coreMicrosPerMessage",
						"contentionSecondsPerSecond", "processCpuUsage", "latencyP50Seconds", "latencyP95Seconds");
			}
			assertThat(seen).as("quantities seen moving")
				.contains("pushed", "delivered", "completed", "latency", "core");
		}
	}

	/** Until the test closes the stream. */
	private static void read(Stream<String> lines, BlockingQueue<String> snapshots) {
		try {
			lines.filter((line) -> line.startsWith("data:"))
				.forEach((line) -> snapshots.add(line.substring("data:".length())));
		}
		catch (UncheckedIOException ex) {
			// closed
		}
	}

	private static String next(BlockingQueue<String> snapshots) throws InterruptedException {
		String snapshot = snapshots.poll(MAX_WAIT.toMillis(), TimeUnit.MILLISECONDS);
		assertThat(snapshot).as("a snapshot within " + MAX_WAIT).isNotNull();
		return snapshot;
	}

	private static void positive(DocumentContext snapshot, String path, String name, List<String> seen) {
		Double value = snapshot.read(path, Double.class);
		if (value != null && value > 0) {
			seen.add(name);
		}
	}

}
