package io.github.qsbench.http;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

/**
 * The {@code http.server.requests} timer of one route, for the requests the REST fast
 * path ({@code rest.HotRouteHandler}) and the SQS face answer without Spring's
 * observation filter: the same name and tags as the filter's timers ({@code method},
 * {@code uri} template, {@code status}, {@code outcome}, {@code exception} and
 * {@code error}, plus the registry's common tags), so both land in the same series and
 * the histogram configured for {@code http.server.requests} applies. The timer of each
 * status is looked up once and kept, so a request builds no meter id.
 */
public final class ServerRequestTimers {

	private static final String NAME = "http.server.requests";

	private static final String NONE = "none";

	private static final int MAX_STATUS = 600;

	private final MeterRegistry registry;

	private final String method;

	private final String uri;

	private final AtomicReferenceArray<Timer> byStatus = new AtomicReferenceArray<>(MAX_STATUS);

	public ServerRequestTimers(MeterRegistry registry, String method, String uri) {
		this.registry = registry;
		this.method = method;
		this.uri = uri;
	}

	/** Records a request answered with {@code status}, started at {@code startNanos}. */
	public void record(int status, long startNanos) {
		timer(status).record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
	}

	/**
	 * Records a request that failed with an exception no resolver answered: the servlet
	 * container answers it with a 500.
	 */
	public void recordFailure(Throwable failure, long startNanos) {
		String name = failure.getClass().getSimpleName();
		register(500, name).record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
	}

	private Timer timer(int status) {
		if (status < 0 || status >= MAX_STATUS) {
			return register(status, NONE);
		}
		Timer timer = this.byStatus.get(status);
		if (timer == null) {
			timer = register(status, NONE);
			this.byStatus.set(status, timer);
		}
		return timer;
	}

	private Timer register(int status, String exception) {
		return Timer.builder(NAME)
			.tags(Tags.of("method", this.method, "uri", this.uri, "status", Integer.toString(status), "outcome",
					outcome(status), "exception", exception, "error", exception))
			.register(this.registry);
	}

	/** As Spring's {@code HttpOutcome}: the class of the status. */
	private static String outcome(int status) {
		if (status >= 100 && status < 200) {
			return "INFORMATIONAL";
		}
		if (status >= 200 && status < 300) {
			return "SUCCESS";
		}
		if (status >= 300 && status < 400) {
			return "REDIRECTION";
		}
		if (status >= 400 && status < 500) {
			return "CLIENT_ERROR";
		}
		if (status >= 500 && status < 600) {
			return "SERVER_ERROR";
		}
		return "UNKNOWN";
	}

}
