package io.github.qsbench.gatling;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;

/**
 * The HTTP stack's ceiling at the same load as {@link QueueSimulation}: as many virtual
 * users as its producers and consumers together, each calling a request that touches no
 * queue in a loop for the same ramp and duration. The study divides a strategy's requests
 * per second by this one's.
 *
 * <p>
 * The default request is {@code GET /actuator/info}: the whole stack (Tomcat, Spring MVC,
 * actuator, Jackson) and a small static JSON answer, so close to a no-op.
 * {@code /actuator/health} (choose it with {@code -DceilingPath}) runs health indicators
 * such as the disk-space check and answers several times slower than a queue request on
 * this machine, so it is no ceiling.
 *
 * <pre>
 * ./mvnw -f gatling/pom.xml gatling:test -Dgatling.simulationClass=io.github.qsbench.gatling.CeilingSimulation -DbaseUrl=http://127.0.0.1:8080 -Dpreset=4-4
 * </pre>
 */
public class CeilingSimulation extends Simulation {

	private final LoadSettings settings = LoadSettings.fromSystemProperties();

	private final String path = System.getProperty("ceilingPath", "/actuator/info");

	private final RunCounts counts = new RunCounts();

	private volatile long windowStart;

	private volatile long windowEnd;

	private final ScenarioBuilder noop = scenario("no-op").asLongAs(session -> System.nanoTime() < this.windowEnd)
		.on(exec(http("no-op").get(this.path).check(status().is(200))).exec(session -> {
			long now = System.nanoTime();
			if (now >= this.windowStart && now < this.windowEnd) {
				this.counts.requestsInWindow.increment();
			}
			return session;
		}));

	{
		int users = this.settings.consumers() + this.settings.producers();
		System.out.println("CeilingSimulation: " + users + " users calling GET " + this.path + " for "
				+ this.settings.ramp().toSeconds() + "s ramp + " + this.settings.duration().toSeconds() + "s against "
				+ this.settings.baseUrl());
		setUp(this.noop.injectOpen(atOnceUsers(users)))
			.protocols(http.baseUrl(this.settings.baseUrl()).userAgentHeader("queue-service-gatling"))
			.assertions(global().failedRequests().count().is(0L));
	}

	@Override
	public void before() {
		this.counts.put("strategy", "ceiling");
		this.counts.put("path", this.path);
		this.counts.put("preset", this.settings.preset());
		this.counts.put("users", this.settings.consumers() + this.settings.producers());
		this.counts.put("windowSeconds", this.settings.duration().toMillis() / 1000.0);
		this.windowStart = System.nanoTime() + this.settings.ramp().toNanos();
		this.windowEnd = this.windowStart + this.settings.duration().toNanos();
	}

	@Override
	public void after() {
		RunCounts.write(this.settings.countsFile(), this.counts.toMap());
		System.out.println("CeilingSimulation counts: " + this.counts.toMap());
	}

}
