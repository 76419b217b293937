package io.github.qsbench.config;

import java.net.URI;
import java.net.URISyntaxException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.RedisConnectionFailureException;

/**
 * Turns a Redis that cannot be reached at start-up (the redis strategy with no Redis
 * where {@code spring.data.redis.*} points) into a short start-up report instead of a
 * stack trace: where it tried, what failed, and how to start one. Where comes from the
 * same properties Spring Boot connects with: sentinels, else cluster nodes, else
 * {@code spring.data.redis.url}, else host and port (localhost:6379 by default).
 */
class RedisConnectionFailureAnalyzer extends AbstractFailureAnalyzer<RedisConnectionFailureException> {

	private static final String PREFIX = "spring.data.redis.";

	private final Environment environment;

	RedisConnectionFailureAnalyzer(Environment environment) {
		this.environment = environment;
	}

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, RedisConnectionFailureException cause) {
		Throwable failure = NestedExceptionUtils.getMostSpecificCause(cause);
		String sentinels = property("sentinel.nodes");
		String nodes = property("cluster.nodes");
		String where;
		String start;
		if (sentinels != null) {
			where = "the sentinels " + sentinels + " (" + PREFIX + "sentinel.nodes)";
			start = "Start the Sentinels and the master they watch";
		}
		else if (nodes != null) {
			where = "the cluster nodes " + nodes + " (" + PREFIX + "cluster.nodes)";
			start = "Start a Redis Cluster on those nodes (redis-server --port N --cluster-enabled yes on each, "
					+ "then redis-cli --cluster create)";
		}
		else {
			String url = property("url");
			String host = this.environment.getProperty(PREFIX + "host", "localhost");
			String port = this.environment.getProperty(PREFIX + "port", "6379");
			if (url != null) {
				URI uri = uri(url);
				where = ((uri != null) ? withoutUserInfo(uri) : "a malformed URL") + " (" + PREFIX + "url)";
				port = (uri != null && uri.getPort() > 0) ? Integer.toString(uri.getPort()) : "6379";
			}
			else {
				where = host + ":" + port + " (" + PREFIX + "host and " + PREFIX + "port)";
			}
			start = "Start one there: redis-server --port " + port
					+ " (on Debian or Ubuntu, apt-get install redis-server first)";
		}
		String description = "The redis strategy could not connect to Redis at " + where + ": "
				+ failure.getClass().getSimpleName() + ": " + String.valueOf(failure.getMessage()).strip() + ".";
		String action = start + "; or point " + PREFIX + "url (or " + PREFIX + "cluster.nodes) at a Redis that "
				+ "runs; or choose an in-process strategy profile, such as concurrent-atomic.";
		return new FailureAnalysis(description, action, cause);
	}

	private String property(String name) {
		String value = this.environment.getProperty(PREFIX + name);
		return (value == null || value.isBlank()) ? null : value;
	}

	private static URI uri(String url) {
		try {
			return new URI(url);
		}
		catch (URISyntaxException ex) {
			return null;
		}
	}

	/** The URL without its user and password, which a report must not print. */
	private static String withoutUserInfo(URI uri) {
		if (uri.getRawUserInfo() == null) {
			return uri.toString();
		}
		try {
			return new URI(uri.getScheme(), null, uri.getHost(), uri.getPort(), uri.getPath(), null, null).toString();
		}
		catch (URISyntaxException ex) {
			return uri.getScheme() + "://" + uri.getHost() + ":" + uri.getPort();
		}
	}

}
