package io.github.qsbench.compare;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Child JVMs of the jar this service runs from ({@code java -jar}, so the class path is
 * that one jar), with the same {@code java}: each on a free port of 127.0.0.1 with its
 * strategy profile, as {@code scripts/lib/service.sh} starts them, ready once
 * {@code /actuator/health} answers 200 and {@code /actuator/info} names the child's pid
 * (another process may have taken the port). The children get a fixed heap, none of this
 * service's {@code SPRING_*}, {@code QS_*}, {@code SERVER_*} or {@code MANAGEMENT_*}
 * environment (so no tokens or signatures to check) and this service's pid, which they
 * watch to stop themselves should it die without stopping them ({@link ParentWatch}).
 * Their output goes to a log file in the temporary directory. Under a build's class path
 * (tests, {@code spring-boot:run}) there is no jar unless {@code qs.compare.jar} names
 * one.
 */
final class JarInstances implements Instances {

	static final String HEAP = "256m";

	private static final Logger log = LoggerFactory.getLogger(JarInstances.class);

	private static final List<String> DROPPED_ENVIRONMENT = List.of("SPRING_", "QS_", "SERVER_", "MANAGEMENT_");

	private final Path jar;

	private final String java;

	private final Path logs;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	JarInstances(String configuredJar) {
		this.jar = findJar(configuredJar);
		this.java = ProcessHandle.current()
			.info()
			.command()
			.orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		this.logs = Path.of(System.getProperty("java.io.tmpdir"), "qs-compare-" + ProcessHandle.current().pid());
	}

	private static Path findJar(String configured) {
		if (configured != null && !configured.isBlank()) {
			Path path = Path.of(configured);
			return Files.isRegularFile(path) ? path : null;
		}
		String classPath = System.getProperty("java.class.path", "");
		if (classPath.endsWith(".jar") && !classPath.contains(File.pathSeparator)) {
			Path path = Path.of(classPath).toAbsolutePath();
			return Files.isRegularFile(path) ? path : null;
		}
		return null;
	}

	@Override
	public Optional<String> unavailable() {
		if (this.jar == null) {
			return Optional
				.of("This service does not run from its packaged jar (java -jar target/queue-service-*.jar), "
						+ "so it has none to start the strategies from; set qs.compare.jar to one.");
		}
		return Optional.empty();
	}

	@Override
	public Instance start(String profile) throws IOException {
		if (this.jar == null) {
			throw new IOException(unavailable().orElseThrow());
		}
		Files.createDirectories(this.logs);
		Path logFile = this.logs.resolve(profile + ".log");
		int port = freePort();
		List<String> command = new ArrayList<>(List.of(this.java, "-Xms" + HEAP, "-Xmx" + HEAP, "-jar",
				this.jar.toString(), "--server.address=127.0.0.1", "--server.port=" + port,
				"--spring.profiles.active=" + profile, "--management.info.process.enabled=true",
				"--spring.main.banner-mode=off", "--" + ParentWatch.PROPERTY + "=" + ProcessHandle.current().pid()));
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(logFile.toFile());
		Map<String, String> environment = builder.environment();
		environment.keySet().removeIf((name) -> DROPPED_ENVIRONMENT.stream().anyMatch(name::startsWith));
		Process process = builder.start();
		log.info("comparison: started {} (pid {}) on port {}, log {}", profile, process.pid(), port, logFile);
		return new Child(profile, port, process, logFile);
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

	private final class Child implements Instance {

		private final String profile;

		private final int port;

		private final Process process;

		private final Path logFile;

		Child(String profile, int port, Process process, Path logFile) {
			this.profile = profile;
			this.port = port;
			this.process = process;
			this.logFile = logFile;
		}

		@Override
		public String profile() {
			return this.profile;
		}

		@Override
		public int port() {
			return this.port;
		}

		@Override
		public void awaitReady(Instant deadline) throws IOException, InterruptedException {
			String base = "http://127.0.0.1:" + this.port;
			while (Instant.now().isBefore(deadline)) {
				if (!this.process.isAlive()) {
					throw new IOException(this.profile + " died at start-up: " + lastLine());
				}
				if (answers(base + "/actuator/health", null)
						&& answers(base + "/actuator/info", "\"pid\":" + this.process.pid())) {
					return;
				}
				Thread.sleep(250);
			}
			throw new IOException(this.profile + " did not become healthy in time (log " + this.logFile + ")");
		}

		private boolean answers(String url, String containing) throws InterruptedException {
			try {
				HttpResponse<String> response = JarInstances.this.http.send(
						HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2)).build(),
						HttpResponse.BodyHandlers.ofString());
				return response.statusCode() == 200 && (containing == null || response.body().contains(containing));
			}
			catch (IOException ex) {
				return false;
			}
		}

		private String lastLine() {
			try {
				List<String> lines = Files.readAllLines(this.logFile, StandardCharsets.UTF_8);
				return lines.isEmpty() ? "(no output)" : lines.get(lines.size() - 1);
			}
			catch (IOException ex) {
				return "(log " + this.logFile + " unreadable)";
			}
		}

		@Override
		public OptionalLong cpuNanos() {
			return this.process.toHandle()
				.info()
				.totalCpuDuration()
				.map((cpu) -> OptionalLong.of(cpu.toNanos()))
				.orElse(OptionalLong.empty());
		}

		@Override
		public void close() {
			if (!this.process.isAlive()) {
				return;
			}
			this.process.destroy();
			try {
				if (!this.process.waitFor(10, TimeUnit.SECONDS)) {
					this.process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
				}
			}
			catch (InterruptedException ex) {
				this.process.destroyForcibly();
				Thread.currentThread().interrupt();
			}
			log.info("comparison: stopped {} (pid {})", this.profile, this.process.pid());
		}

	}

}
