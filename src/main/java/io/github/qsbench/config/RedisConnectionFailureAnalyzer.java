package io.github.qsbench.config;

import java.net.URI;
import java.net.URISyntaxException;

import javax.net.ssl.SSLException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.env.Environment;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.RedisConnectionFailureException;

/**
 * Turns a Redis the redis strategy cannot use at start-up into a short start-up report
 * instead of a stack trace: where it tried, what failed, and what to change. Where comes
 * from the same properties Spring Boot connects with: sentinels, else cluster nodes, else
 * {@code spring.data.redis.url}, else host and port (localhost:6379 by default). What to
 * change depends on what failed: nothing listening (start one), a TLS handshake (trust
 * the certificate, or speak no TLS), a hang-up (perhaps a server that speaks TLS), the
 * credentials refused ({@code WRONGPASS}, {@code NOAUTH}), or a user without the rights
 * the service needs ({@code NOPERM}, which Redis answers to a command rather than to the
 * connection).
 */
class RedisConnectionFailureAnalyzer extends AbstractFailureAnalyzer<DataAccessException> {

	private static final String PREFIX = "spring.data.redis.";

	/**
	 * What a user needs beyond its namespace's keys and channels: every command but the
	 * dangerous ones, and {@code INFO} for the health check (LocalRedis's USER_RULES,
	 * which the secured suites run under).
	 */
	private static final String COMMAND_RULES = "+@all -@dangerous +info";

	private final Environment environment;

	RedisConnectionFailureAnalyzer(Environment environment) {
		this.environment = environment;
	}

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, DataAccessException cause) {
		Throwable failure = NestedExceptionUtils.getMostSpecificCause(cause);
		String reply = String.valueOf(failure.getMessage()).strip();
		String what = failure.getClass().getSimpleName() + ": " + withoutFinalStop(reply) + ".";
		if (reply.startsWith("NOPERM")) {
			return new FailureAnalysis(refusedACommand(what), rulesToGive(), cause);
		}
		if (reply.startsWith("WRONGPASS") || reply.startsWith("NOAUTH")) {
			return new FailureAnalysis(
					"Redis at " + where().described() + " refused the redis strategy's credentials: " + what,
					"Give the name and password of an enabled Redis user: " + PREFIX + "username and " + PREFIX
							+ "password (or redis://user:password@host:port in " + PREFIX
							+ "url); with a password and no username, the password is the default user's "
							+ "(requirepass).",
					cause);
		}
		if (!(cause instanceof RedisConnectionFailureException)) {
			return null;
		}
		if (isTls(cause)) {
			return new FailureAnalysis(
					"The redis strategy's TLS handshake with Redis at " + where().described() + " failed: " + what,
					"If Redis there speaks TLS, trust its certificate: " + PREFIX
							+ "ssl.bundle=NAME with spring.ssl.bundle.pem.NAME.truststore.certificate=<the PEM "
							+ "file of the CA that signed it> (a certificate a public CA signed needs no bundle); "
							+ "if it speaks no TLS, leave out " + PREFIX + "ssl.enabled=true (and use redis://, "
							+ "not rediss://, in " + PREFIX + "url).",
					cause);
		}
		String action = where().start() + "; or point " + PREFIX + "url (or " + PREFIX + "cluster.nodes) at a Redis "
				+ "that runs; or choose an in-process strategy profile, such as concurrent-atomic.";
		if (reply.equals("Connection reset") && !speaksTls()) {
			action = "Something there hung up on the redis strategy: a Redis that speaks TLS does so to a client "
					+ "that does not. If that is it, set " + PREFIX + "ssl.enabled=true (or use a rediss:// URL "
					+ "in " + PREFIX + "url). " + action;
		}
		return new FailureAnalysis(
				"The redis strategy could not connect to Redis at " + where().described() + ": " + what, action, cause);
	}

	private String refusedACommand(String what) {
		String user = user();
		return "Redis at " + where().described() + " refused the redis strategy's user "
				+ ((user != null) ? user : "default") + " a command: " + what;
	}

	/** The rules the service needs, for the user it connected as or for one to name. */
	private String rulesToGive() {
		String user = user();
		String namespace = this.environment.getProperty("qs.redis.namespace", "qs:");
		String rules = "~" + namespace + "* &" + namespace + "* " + COMMAND_RULES;
		if (user == null) {
			return "Name a Redis user that has the rules the service needs for its namespace " + namespace
					+ " (qs.redis.namespace), " + rules + ": " + PREFIX + "username and " + PREFIX
					+ "password (or redis://user:password@host:port in " + PREFIX + "url).";
		}
		return "Give that user the rules the service needs for its namespace " + namespace
				+ " (qs.redis.namespace): ACL SETUSER " + user + " " + rules
				+ " (or the same rules in the user's line of Redis's ACL file).";
	}

	/**
	 * The user named, by its property or in the URL; {@code null} for the default user.
	 */
	private String user() {
		String user = property("username");
		String url = property("url");
		URI uri = (user == null && url != null) ? uri(url) : null;
		if (uri != null && uri.getUserInfo() != null && uri.getUserInfo().indexOf(':') > 0) {
			user = uri.getUserInfo().substring(0, uri.getUserInfo().indexOf(':'));
		}
		return user;
	}

	/**
	 * Where the strategy tried, as the report names it, and how to start a Redis there.
	 */
	private Where where() {
		String sentinels = property("sentinel.nodes");
		String nodes = property("cluster.nodes");
		if (sentinels != null) {
			return new Where("the sentinels " + sentinels + " (" + PREFIX + "sentinel.nodes)",
					"Start the Sentinels and the master they watch");
		}
		if (nodes != null) {
			return new Where("the cluster nodes " + nodes + " (" + PREFIX + "cluster.nodes)",
					"Start a Redis Cluster on those nodes (redis-server --port N --cluster-enabled yes on each, "
							+ "then redis-cli --cluster create)");
		}
		String url = property("url");
		String described;
		String port = this.environment.getProperty(PREFIX + "port", "6379");
		if (url != null) {
			URI uri = uri(url);
			described = ((uri != null) ? withoutUserInfo(uri) : "a malformed URL") + " (" + PREFIX + "url)";
			port = (uri != null && uri.getPort() > 0) ? Integer.toString(uri.getPort()) : "6379";
		}
		else {
			described = this.environment.getProperty(PREFIX + "host", "localhost") + ":" + port + " (" + PREFIX
					+ "host and " + PREFIX + "port)";
		}
		return new Where(described, "Start one there: redis-server --port " + port
				+ " (on Debian or Ubuntu, apt-get install redis-server first)");
	}

	private boolean speaksTls() {
		String url = property("url");
		return this.environment.getProperty(PREFIX + "ssl.enabled", Boolean.class, false)
				|| (url != null && url.startsWith("rediss:"));
	}

	/** A handshake that failed or timed out, or a certificate not trusted. */
	private static boolean isTls(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof SSLException) {
				return true;
			}
		}
		return false;
	}

	private static String withoutFinalStop(String message) {
		return message.endsWith(".") ? message.substring(0, message.length() - 1) : message;
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

	private record Where(String described, String start) {
	}

}
