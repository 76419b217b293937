package io.github.qsbench.gatling;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Iterator;
import java.util.OptionalDouble;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Reads the service's own view outside the load: its strategy, its {@code qs_*} counters
 * from {@code /actuator/prometheus}, and what its queues still hold. Used before the load
 * (baseline) and by the verification requests after it.
 */
final class ServiceProbe {

	private static final ObjectMapper JSON = new ObjectMapper();

	private final String baseUrl;

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	ServiceProbe(String baseUrl) {
		this.baseUrl = baseUrl;
	}

	String get(String path) {
		try {
			HttpResponse<String> response = this.client.send(
					HttpRequest.newBuilder(URI.create(this.baseUrl + path)).timeout(Duration.ofSeconds(10)).build(),
					HttpResponse.BodyHandlers.ofString());
			if (response.statusCode() != 200) {
				throw new IllegalStateException("GET " + this.baseUrl + path + " answered " + response.statusCode());
			}
			return response.body();
		}
		catch (IOException ex) {
			throw new IllegalStateException("The service does not answer at " + this.baseUrl + path
					+ " (start it, or pass -DbaseUrl=...): " + ex, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/** The strategy that {@code /actuator/info} reports, or "unknown". */
	String strategy() {
		try {
			JsonNode info = JSON.readTree(get("/actuator/info"));
			JsonNode strategy = info.path("strategy");
			String name = strategy.isObject() ? strategy.path("name").asText() : strategy.asText();
			return name.isEmpty() ? "unknown" : name;
		}
		catch (IOException ex) {
			return "unknown";
		}
	}

	/**
	 * The sum over every series of one Prometheus counter or gauge in an exposition body,
	 * or empty if the service does not export it.
	 */
	static OptionalDouble find(String exposition, String metric) {
		double sum = 0;
		boolean found = false;
		for (String line : exposition.split("\n")) {
			if (line.startsWith(metric + "{") || line.startsWith(metric + " ")) {
				// name{labels} value [timestamp]; the qs_* labels hold no spaces.
				sum += Double.parseDouble(line.trim().split("\\s+")[1]);
				found = true;
			}
		}
		return found ? OptionalDouble.of(sum) : OptionalDouble.empty();
	}

	/**
	 * Ready plus in-flight messages left in the queues whose names start with the prefix.
	 */
	static long leftInQueues(String queuesJson, String prefix) {
		try {
			long left = 0;
			Iterator<JsonNode> queues = JSON.readTree(queuesJson).path("queues").elements();
			while (queues.hasNext()) {
				JsonNode queue = queues.next();
				if (queue.path("name").asText().startsWith(prefix + "-")) {
					left += queue.path("ready").asLong() + queue.path("inflight").asLong();
				}
			}
			return left;
		}
		catch (IOException ex) {
			throw new IllegalStateException("GET /queues answered no JSON: " + ex.getMessage(), ex);
		}
	}

}
