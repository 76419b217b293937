package io.github.qsbench.redis;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
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

/**
 * One real {@code redis-server} process on a free port of 127.0.0.1, so that the Redis
 * strategy's tests see Redis's own scripting, persistence and crash behaviour rather than
 * a fake's. Either the test JVM's {@link #shared() shared} in-memory server, or a process
 * of a test's own ({@link #start}) that it may crash ({@link #kill9()}) and bring back
 * from the same directory ({@link #restart()}).
 * <p>
 * A shutdown hook stops every server still running when the JVM exits, so a forgotten
 * {@link #close()} leaves no process behind on a shared machine.
 */
public final class LocalRedis implements AutoCloseable {

	static final String HOST = "127.0.0.1";

	private static final Duration READY_TIMEOUT = Duration.ofSeconds(10);

	private static final Duration CLI_TIMEOUT = Duration.ofSeconds(10);

	/** Starts retried when another process took the chosen port before the server did. */
	private static final int START_ATTEMPTS = 5;

	/** Redis Cluster's bus listens on the client port + 10000. */
	private static final int CLUSTER_BUS_OFFSET = 10000;

	private static final Set<LocalRedis> RUNNING = ConcurrentHashMap.newKeySet();

	private static LocalRedis shared;

	static {
		Runtime.getRuntime()
			.addShutdownHook(new Thread(() -> List.copyOf(RUNNING).forEach(LocalRedis::stop), "local-redis-stop"));
	}

	private final int port;

	private final Path dir;

	private final Path log;

	private final List<String> command;

	private final boolean isShared;

	private Process process;

	private LocalRedis(String server, int port, Path dir, List<String> extraArgs, boolean isShared) {
		this.port = port;
		this.dir = dir;
		this.log = dir.resolve("redis.log");
		this.isShared = isShared;
		this.command = new ArrayList<>(List.of(server, "--bind", HOST, "--port", String.valueOf(port),
				"--protected-mode", "no", "--daemonize", "no", "--dir", dir.toString(), "--logfile",
				this.log.toString(), "--save", "", "--appendonly", "no"));
		this.command.addAll(extraArgs);
	}

	/**
	 * The test JVM's in-memory server, started on first use and stopped when the JVM
	 * exits; never close it. Tests that need it empty call {@link #flushAll()}.
	 */
	public static synchronized LocalRedis shared() {
		if (shared == null) {
			shared = start(false, List.of(), true);
		}
		return shared;
	}

	/**
	 * A server of the caller's own, in a fresh directory; the caller closes it.
	 * @param extraArgs {@code redis-server} options after the in-memory defaults
	 * ({@code --save "" --appendonly no}), which they override, e.g.
	 * {@code "--appendonly", "yes", "--appendfsync", "always"}
	 */
	public static LocalRedis start(String... extraArgs) {
		return start(false, List.of(extraArgs), false);
	}

	/**
	 * @param clusterBus whether the port + 10000 must be free too, for a cluster node
	 */
	static LocalRedis start(boolean clusterBus, List<String> extraArgs, boolean isShared) {
		String server = executable("redis-server");
		for (int attempt = 1;; attempt++) {
			LocalRedis redis = new LocalRedis(server, freePort(clusterBus), newDir(), extraArgs, isShared);
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
		String reply = inline("FLUSHALL");
		if (!reply.equals("+OK")) {
			throw new IllegalStateException("FLUSHALL on port " + this.port + " answered " + reply);
		}
	}

	/**
	 * Runs {@code redis-cli} against this server, for assertions in the terms a reader
	 * would type: {@code cli("GET", "k")}.
	 * @return its standard output, trimmed; an error reply is output too, e.g.
	 * {@code "ERR unknown command ..."}
	 */
	public String cli(String... args) {
		List<String> cliArgs = new ArrayList<>(List.of("-h", HOST, "-p", String.valueOf(this.port)));
		cliArgs.addAll(List.of(args));
		return runCli(CLI_TIMEOUT, cliArgs);
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

	/**
	 * One inline command on a connection of its own, without {@code redis-cli}: cheap
	 * enough to poll with.
	 * @return the reply's first line (such as {@code +PONG} or {@code -LOADING ...}), or
	 * a bulk reply's body
	 */
	String inline(String command) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(HOST, this.port), 1000);
			socket.setSoTimeout(5000);
			OutputStream out = socket.getOutputStream();
			out.write((command + "\r\n").getBytes(StandardCharsets.UTF_8));
			out.flush();
			InputStream in = new BufferedInputStream(socket.getInputStream());
			String line = readLine(in);
			if (!line.startsWith("$")) {
				return line;
			}
			byte[] bulk = in.readNBytes(Math.max(0, Integer.parseInt(line.substring(1))));
			return new String(bulk, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Runs {@code redis-cli} with these arguments; fails if it cannot reach a server. */
	static String runCli(Duration timeout, List<String> args) {
		List<String> command = new ArrayList<>();
		command.add(executable("redis-cli"));
		command.addAll(args);
		Path out = null;
		Path err = null;
		try {
			out = Files.createTempFile("redis-cli-", ".out");
			err = Files.createTempFile("redis-cli-", ".err");
			Process cli = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
			cli.getOutputStream().close();
			if (!cli.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
				cli.destroyForcibly();
				throw new IllegalStateException("redis-cli did not finish within " + timeout + ": " + command);
			}
			String output = Files.readString(out).trim();
			if (cli.exitValue() != 0) {
				throw new IllegalStateException("redis-cli exited with " + cli.exitValue() + ": " + command + "\n"
						+ output + "\n" + Files.readString(err).trim());
			}
			return output;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		finally {
			deleteQuietly(out);
			deleteQuietly(err);
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

	/** Up, and done loading: PING answers {@code -LOADING} while an AOF is replayed. */
	private boolean isReady() {
		try {
			return inline("PING").equals("+PONG") && inline("INFO persistence").contains("loading:0");
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

	private static String readLine(InputStream in) throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		for (int b = in.read(); b != '\n'; b = in.read()) {
			if (b == -1) {
				throw new EOFException("Connection closed before a reply");
			}
			line.write(b);
		}
		return line.toString(StandardCharsets.UTF_8).stripTrailing();
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

	private static boolean isFree(int port) {
		try {
			new ServerSocket(port).close();
			return true;
		}
		catch (IOException ex) {
			return false;
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

	/** Debian's binary, else the first on the PATH; the suites fail rather than skip. */
	private static String executable(String name) {
		Path debian = Path.of("/usr/bin", name);
		if (Files.isExecutable(debian)) {
			return debian.toString();
		}
		for (String entry : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
			try {
				Path candidate = Path.of(entry, name);
				if (!entry.isEmpty() && Files.isExecutable(candidate)) {
					return candidate.toString();
				}
			}
			catch (InvalidPathException ex) {
				// not a directory that can hold it
			}
		}
		throw new IllegalStateException(name + " not found: the Redis suites need Debian's redis-server"
				+ " (apt-get install redis-server); .ci/run installs it");
	}

	private static final class PortTakenException extends RuntimeException {

		PortTakenException(String logTail) {
			super(logTail);
		}

	}

}
