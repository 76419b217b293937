package io.github.qsbench.redis;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.embedded.RedisExecProvider;

/**
 * One real {@code redis-server} process on a free port of 127.0.0.1, so that the Redis
 * strategy's tests see Redis's own scripting, persistence and crash behaviour rather than
 * a fake's. Either the test JVM's {@link #shared() shared} in-memory server, or a process
 * of a test's own ({@link #start}) that it may crash ({@link #kill9()}) and bring back
 * from the same directory ({@link #restart()}).
 * <p>
 * The binary is the first {@code redis-server} on the PATH, else the one the
 * {@code org.signal:embedded-redis} test dependency ships (Redis 7.0, statically linked,
 * for Linux and macOS), so the suites need nothing beyond a JDK; the system property
 * {@value #BINARY_PROPERTY}{@code =bundled} skips the PATH, for CI to run the suites on
 * both. The service needs Redis 7.0 ({@link LocalRedisTests} checks it).
 * <p>
 * A shutdown hook stops every server still running when the JVM exits, so a forgotten
 * {@link #close()} leaves no process behind on a shared machine.
 * <p>
 * The {@link #secured()} server is Redis as a managed service runs it: TLS and a user
 * with a password. Its certificate ({@code tls/redis.crt} beside this class, for
 * 127.0.0.1 and localhost, valid until 2126, the trust anchor too) and key were made with
 * {@code openssl req -x509 -newkey rsa:2048 -nodes -keyout redis.key -out redis.crt -days 36500
 * -subj "/CN=localhost" -addext "subjectAltName=IP:127.0.0.1,DNS:localhost"}.
 */
public final class LocalRedis implements AutoCloseable {

	static final String HOST = "127.0.0.1";

	/**
	 * {@code bundled} runs the bundled binary even where the PATH has a
	 * {@code redis-server}.
	 */
	static final String BINARY_PROPERTY = "qs.test.redis";

	private static final Logger logger = LoggerFactory.getLogger(LocalRedis.class);

	private static final Duration READY_TIMEOUT = Duration.ofSeconds(10);

	/** Starts retried when another process took the chosen port before the server did. */
	private static final int START_ATTEMPTS = 5;

	/** Redis Cluster's bus listens on the client port + 10000. */
	private static final int CLUSTER_BUS_OFFSET = 10000;

	private static final Set<LocalRedis> RUNNING = ConcurrentHashMap.newKeySet();

	private static LocalRedis shared;

	private static LocalRedis secured;

	/** {@link #secured()}'s user, the one its clients authenticate as. */
	public static final String USER = "qs";

	/** {@link #USER}'s password. */
	public static final String PASSWORD = "local-redis-password";

	/**
	 * {@link #USER}'s rules: the least a service in the namespace {@code qs:} (and any
	 * namespace under it) needs, as docs/redis.md recommends: its keys and channels,
	 * every command but the dangerous ones, and {@code INFO} for the health check.
	 */
	public static final List<String> USER_RULES = List.of("~qs:*", "&qs:*", "+@all", "-@dangerous", "+info");

	/** The TLS certificate and key {@link #secured()} serves, on the test classpath. */
	private static final List<String> TLS_FILES = List.of("redis.crt", "redis.key");

	static {
		Runtime.getRuntime()
			.addShutdownHook(new Thread(() -> List.copyOf(RUNNING).forEach(LocalRedis::stop), "local-redis-stop"));
	}

	private final int port;

	/** The port a {@link #secured()} server speaks TLS on, else 0. */
	private final int tlsPort;

	private final Path dir;

	private final Path log;

	private final List<String> command;

	private final Kind kind;

	private final boolean isShared;

	private Process process;

	private LocalRedis(String server, Kind kind, int port, int tlsPort, Path dir, List<String> extraArgs,
			boolean isShared) {
		this.kind = kind;
		this.port = port;
		this.tlsPort = tlsPort;
		this.dir = dir;
		this.log = dir.resolve("redis.log");
		this.isShared = isShared;
		this.command = new ArrayList<>(List.of(server));
		if (kind.isSentinel()) {
			// a Sentinel rewrites its configuration file: one of its own, then the mode
			this.command.addAll(List.of(sentinelConfig(dir).toString(), "--sentinel"));
		}
		this.command.addAll(
				List.of("--bind", HOST, "--port", String.valueOf(port), "--protected-mode", "no", "--daemonize", "no",
						"--dir", dir.toString(), "--logfile", this.log.toString(), "--save", "", "--appendonly", "no"));
		if (kind.speaksTls()) {
			this.command.addAll(tlsArgs(tlsPort, dir));
		}
		if (kind != Kind.SECURED_SENTINEL && kind.speaksTls()) {
			this.command.addAll(userArgs(kind == Kind.SECURED_CLUSTER_NODE));
		}
		this.command.addAll(extraArgs);
	}

	/** What a server is for, where that changes how it is started. */
	enum Kind {

		PLAIN,

		/** A Redis Cluster node: its port + 10000, the cluster bus, must be free too. */
		CLUSTER_NODE,

		/** {@link #secured()}'s: TLS on a port of its own, and a user with a password. */
		SECURED,

		/** A Redis Sentinel: {@code --sentinel} with a configuration file of its own. */
		SENTINEL,

		/**
		 * A {@link #SECURED} Redis Cluster node whose cluster bus speaks TLS too
		 * ({@code tls-cluster}), on its TLS port + 10000; it tells TLS clients of its
		 * peers' TLS ports. Its default user may run {@code CLUSTER} as well, so that
		 * {@link LocalRedisCluster} makes the cluster over the plain port.
		 */
		SECURED_CLUSTER_NODE,

		/**
		 * A {@link #SENTINEL} of {@link #SECURED} servers: TLS on a port of its own for
		 * its clients, and to the servers it watches ({@code tls-replication}). It has no
		 * users of its own; it authenticates to the servers as {@code sentinel auth-user}
		 * says.
		 */
		SECURED_SENTINEL;

		boolean speaksTls() {
			return this == SECURED || this == SECURED_CLUSTER_NODE || this == SECURED_SENTINEL;
		}

		boolean isSentinel() {
			return this == SENTINEL || this == SECURED_SENTINEL;
		}

	}

	/**
	 * The test JVM's in-memory server, started on first use and stopped when the JVM
	 * exits; never close it. Tests that need it empty call {@link #flushAll()}.
	 */
	public static synchronized LocalRedis shared() {
		if (shared == null) {
			shared = start(Kind.PLAIN, List.of(), true);
		}
		return shared;
	}

	/**
	 * The test JVM's in-memory server that speaks TLS on {@link #tlsPort()}, with
	 * {@code tls/redis.crt}, to {@link #USER} (password {@link #PASSWORD}, rules
	 * {@link #USER_RULES}). Its plain {@link #port()} serves only the default user, who
	 * may only {@code PING} and {@code INFO} (this class's readiness check): a client
	 * that does not authenticate can do nothing. Started on first use and stopped when
	 * the JVM exits; never close it.
	 */
	public static synchronized LocalRedis secured() {
		if (secured == null) {
			secured = start(Kind.SECURED, List.of(), true);
		}
		return secured;
	}

	/**
	 * A server of the caller's own, in a fresh directory; the caller closes it.
	 * @param extraArgs {@code redis-server} options after the in-memory defaults
	 * ({@code --save "" --appendonly no}), which they override, e.g.
	 * {@code "--appendonly", "yes", "--appendfsync", "always"}
	 */
	public static LocalRedis start(String... extraArgs) {
		return start(Kind.PLAIN, List.of(extraArgs), false);
	}

	static LocalRedis start(Kind kind, List<String> extraArgs, boolean isShared) {
		String server = Binary.PATH.toString();
		for (int attempt = 1;; attempt++) {
			int port = freePort(kind == Kind.CLUSTER_NODE);
			int tlsPort = kind.speaksTls() ? freePortOtherThan(port, kind == Kind.SECURED_CLUSTER_NODE) : 0;
			LocalRedis redis = new LocalRedis(server, kind, port, tlsPort, newDir(), extraArgs, isShared);
			try {
				redis.launch();
				return redis;
			}
			catch (PortTakenException ex) {
				redis.stop();
				if (attempt == START_ATTEMPTS) {
					throw new IllegalStateException("redis-server found its port taken " + attempt + " times", ex);
				}
			}
			catch (RuntimeException ex) {
				redis.stop();
				throw ex;
			}
		}
	}

	public String host() {
		return HOST;
	}

	public int port() {
		return this.port;
	}

	/**
	 * The port a {@link #secured()} server (or a secured cluster's node or Sentinel)
	 * speaks TLS on.
	 */
	public int tlsPort() {
		if (this.tlsPort == 0) {
			throw new IllegalStateException("redis-server on port " + this.port + " speaks no TLS; see secured()");
		}
		return this.tlsPort;
	}

	/**
	 * The {@code redis-server} binary every server of this JVM runs: the PATH's, else the
	 * bundled one.
	 */
	static Path binary() {
		return Binary.PATH;
	}

	/** The server's working directory: its AOF, RDB, cluster config and log. */
	public Path dir() {
		return this.dir;
	}

	/**
	 * Crashes the server: SIGKILL, so nothing is flushed beyond what its fsync policy
	 * did.
	 */
	public synchronized void kill9() {
		this.process.destroyForcibly();
		try {
			if (!this.process.waitFor(10, TimeUnit.SECONDS)) {
				throw new IllegalStateException("redis-server on port " + this.port + " outlived SIGKILL");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Stalls the server (SIGSTOP), as a Redis that no longer answers: it keeps its
	 * connections open and reads nothing until {@link #resume()}.
	 */
	public void stall() {
		signal("STOP");
	}

	/** Lets the {@link #stall() stalled} server run again (SIGCONT). */
	public void resume() {
		signal("CONT");
	}

	private synchronized void signal(String name) {
		try {
			Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(this.process.pid())).inheritIO()
				.start();
			if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
				throw new IllegalStateException("kill -" + name + " of redis-server on port " + this.port + " failed");
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Starts the killed server again on the same port, directory and options, so it
	 * replays its AOF or RDB; returns once it has finished loading them.
	 */
	public synchronized void restart() {
		if (this.process.isAlive()) {
			throw new IllegalStateException(
					"redis-server on port " + this.port + " is still running; kill9() it first");
		}
		try {
			launch();
		}
		catch (PortTakenException ex) {
			throw new IllegalStateException("Another process took port " + this.port + " while redis-server was down",
					ex);
		}
	}

	public void flushAll() {
		Object reply = call("FLUSHALL");
		if (!"OK".equals(reply)) {
			throw new IllegalStateException("FLUSHALL on port " + this.port + " answered " + reply);
		}
	}

	/**
	 * Sends one command to this server, for assertions in the terms a reader would type
	 * into {@code redis-cli}: {@code cli("GET", "k")}.
	 * @return the reply as {@code redis-cli} prints it ({@link Resp#text}), trimmed; an
	 * error reply is returned too, e.g. {@code "ERR unknown command ..."}
	 * @throws IllegalStateException when the server cannot be reached
	 */
	public String cli(String... args) {
		return Resp.text(reply(this.port, List.of(args))).trim();
	}

	/**
	 * Stops the server and deletes its directory.
	 * @throws IllegalStateException on the {@link #shared()} server, which other tests
	 * still use
	 */
	@Override
	public void close() {
		if (this.isShared) {
			throw new IllegalStateException("The shared redis-server is stopped when the JVM exits; do not close it");
		}
		stop();
	}

	/** SIGTERM, a clean shutdown, then SIGKILL if it takes more than 5 s. */
	private synchronized void stop() {
		this.process.destroy();
		try {
			if (!this.process.waitFor(5, TimeUnit.SECONDS)) {
				kill9();
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.process.destroyForcibly();
		}
		RUNNING.remove(this);
		deleteDir();
	}

	/** One command on a connection of its own: cheap enough to poll with. */
	Object call(String... command) {
		return Resp.call(this.port, List.of(command));
	}

	/**
	 * {@link Resp#call}, failing as {@link #cli} does when the server cannot be reached.
	 */
	static Object reply(int port, List<String> command) {
		try {
			return Resp.call(port, command);
		}
		catch (UncheckedIOException ex) {
			throw new IllegalStateException(
					"Could not reach Redis at " + HOST + ":" + port + ": " + ex.getCause().getMessage(), ex);
		}
	}

	/** Starts the process and waits until it answers PING and has loaded its data. */
	private void launch() {
		try {
			this.process = new ProcessBuilder(this.command).directory(this.dir.toFile())
				.redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.appendTo(this.log.toFile()))
				.start();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		RUNNING.add(this);
		long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
		while (System.nanoTime() < deadline) {
			if (!this.process.isAlive()) {
				String tail = logTail();
				if (tail.contains("Address already in use")) {
					throw new PortTakenException(tail);
				}
				throw new IllegalStateException("redis-server on port " + this.port + " exited with "
						+ this.process.exitValue() + "; " + this.log + " ends:\n" + tail);
			}
			if (isReady()) {
				return;
			}
			pause();
		}
		kill9();
		throw new IllegalStateException("redis-server on port " + this.port + " did not answer PING within "
				+ READY_TIMEOUT.toSeconds() + " s; " + this.log + " ends:\n" + logTail());
	}

	/**
	 * Up, and done loading: PING answers {@code -LOADING} while an AOF is replayed. A
	 * Sentinel loads nothing.
	 */
	private boolean isReady() {
		try {
			return "PONG".equals(call("PING"))
					&& (this.kind.isSentinel() || Resp.text(call("INFO", "persistence")).contains("loading:0"));
		}
		catch (UncheckedIOException ex) {
			return false;
		}
	}

	private String logTail() {
		try {
			List<String> lines = Files.readAllLines(this.log, StandardCharsets.UTF_8);
			return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
		}
		catch (IOException ex) {
			return "(no log: " + ex + ")";
		}
	}

	private void deleteDir() {
		try (Stream<Path> paths = Files.walk(this.dir)) {
			paths.sorted(Comparator.reverseOrder()).forEach(LocalRedis::deleteQuietly);
		}
		catch (IOException ex) {
			// already gone, or a leftover in the temporary directory, which harms no test
		}
	}

	static void pause() {
		try {
			Thread.sleep(50);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * A port nothing listens on now; with {@code clusterBus}, one whose bus port is free
	 * too. Another process may take it before the server binds it: {@link #start}
	 * retries.
	 */
	private static int freePort(boolean clusterBus) {
		for (int tries = 0; tries < 100; tries++) {
			try (ServerSocket socket = new ServerSocket(0)) {
				int port = socket.getLocalPort();
				if (!clusterBus || (port < 65535 - CLUSTER_BUS_OFFSET && isFree(port + CLUSTER_BUS_OFFSET))) {
					return port;
				}
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
		throw new IllegalStateException("No free port found with its cluster bus port free too");
	}

	private static int freePortOtherThan(int taken, boolean clusterBus) {
		int port = freePort(clusterBus);
		return (port != taken && port != taken + CLUSTER_BUS_OFFSET) ? port : freePortOtherThan(taken, clusterBus);
	}

	private static boolean isFree(int port) {
		try {
			new ServerSocket(port).close();
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	/**
	 * TLS on {@code tlsPort} with {@code tls/redis.crt} (the trust anchor too), copied
	 * into the server's directory (redis-server reads files, not the classpath); clients
	 * present no certificate. Replication, and a Sentinel's links to the servers it
	 * watches, speak TLS too: they present the same certificate.
	 */
	private static List<String> tlsArgs(int tlsPort, Path dir) {
		for (String file : TLS_FILES) {
			try (InputStream in = LocalRedis.class.getResourceAsStream("tls/" + file)) {
				if (in == null) {
					throw new IllegalStateException("No tls/" + file + " beside " + LocalRedis.class.getName());
				}
				Files.copy(in, dir.resolve(file));
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
		String certificate = dir.resolve("redis.crt").toString();
		return List.of("--tls-port", String.valueOf(tlsPort), "--tls-cert-file", certificate, "--tls-key-file",
				dir.resolve("redis.key").toString(), "--tls-ca-cert-file", certificate, "--tls-auth-clients", "no",
				"--tls-replication", "yes");
	}

	/**
	 * The users of a {@link #secured()} server or a secured cluster's node: a default
	 * user who may only {@code PING} and {@code INFO}, and {@link #USER}; a node's bus
	 * speaks TLS too.
	 */
	private static List<String> userArgs(boolean clusterNode) {
		List<String> args = new ArrayList<>(List.of("--user", "default", "on", "nopass", "-@all", "+ping", "+info"));
		if (clusterNode) {
			args.addAll(List.of("+cluster", "--tls-cluster", "yes"));
		}
		args.addAll(List.of("--user", USER, "on", ">" + PASSWORD));
		args.addAll(USER_RULES);
		return args;
	}

	private static Path sentinelConfig(Path dir) {
		try {
			return Files.writeString(dir.resolve("sentinel.conf"), "");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static Path newDir() {
		try {
			return Files.createTempDirectory("local-redis-");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static void deleteQuietly(Path path) {
		if (path != null) {
			try {
				Files.deleteIfExists(path);
			}
			catch (IOException ex) {
				// a leftover in the temporary directory harms no test
			}
		}
	}

	/**
	 * The {@code redis-server} every server of this JVM runs, chosen and checked once, on
	 * first use.
	 */
	static final class Binary {

		static final Path PATH = choose();

		private static Path choose() {
			String wanted = System.getProperty(BINARY_PROPERTY, "");
			if (!wanted.isEmpty() && !wanted.equals("bundled")) {
				throw new IllegalStateException("-D" + BINARY_PROPERTY + "=" + wanted + ": only \"bundled\" is known");
			}
			Path onPath = wanted.isEmpty() ? onPath() : null;
			Path binary = (onPath != null) ? onPath : bundled();
			String version = version(binary);
			logger.info("Redis suites run {} ({}{})", version, binary,
					(onPath != null) ? ", from the PATH" : wanted.isEmpty() ? ", bundled: no redis-server on the PATH"
							: ", bundled: -D" + BINARY_PROPERTY + "=bundled");
			return binary;
		}

		/** The first {@code redis-server} on the PATH, or {@code null}. */
		static Path onPath() {
			for (String entry : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
				try {
					Path candidate = Path.of(entry, "redis-server");
					if (!entry.isEmpty() && Files.isExecutable(candidate)) {
						return candidate;
					}
				}
				catch (InvalidPathException ex) {
					// not a directory that can hold it
				}
			}
			return null;
		}

		/**
		 * org.signal:embedded-redis's binary for this OS and architecture, copied out of
		 * its jar into a temporary directory deleted when the JVM exits.
		 */
		private static Path bundled() {
			try {
				return RedisExecProvider.defaultProvider().get().toPath();
			}
			catch (IOException | RuntimeException ex) {
				throw new IllegalStateException(
						"No redis-server on the PATH, and org.signal:embedded-redis has none for "
								+ System.getProperty("os.name") + " " + System.getProperty("os.arch")
								+ ": install one (apt-get install redis-server)",
						ex);
			}
		}

		/**
		 * The version {@code redis-server --version} prints, which also proves the binary
		 * runs here: Redis's, or Valkey's (its {@code redis-server} link), which serves
		 * the same commands.
		 */
		private static String version(Path binary) {
			try {
				Process process = new ProcessBuilder(binary.toString(), "--version").redirectErrorStream(true).start();
				String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
				String server = output.startsWith("Redis server v=") ? "Redis"
						: output.startsWith("Valkey server v=") ? "Valkey" : null;
				if (!process.waitFor(10, TimeUnit.SECONDS) || process.exitValue() != 0 || server == null) {
					process.destroyForcibly();
					throw new IllegalStateException(binary + " --version does not run here: " + output
							+ "; install a redis-server on the PATH (apt-get install redis-server)");
				}
				int from = (server + " server v=").length();
				return server + " " + output.substring(from, output.indexOf(' ', from));
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}

	}

	private static final class PortTakenException extends RuntimeException {

		PortTakenException(String logTail) {
			super(logTail);
		}

	}

}
