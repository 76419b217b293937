package io.github.qsbench.gatling.study;

import java.io.BufferedReader;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.gatling.app.Gatling$;

/**
 * Runs the study's Gatling simulations one after another in one JVM, so that Gatling
 * itself is JIT-compiled once for the whole study: a fresh Gatling JVM per run spends its
 * first ten seconds or more warming up, and a short window would count that instead of
 * the service (measured here: a second run against a warm service climbed from 200 to
 * 3,000 messages/s over 15 s).
 *
 * <p>
 * Reads one request a line on standard input, tab-separated: run log file, simulation
 * class, results folder, {@code reports} or {@code no-reports}, then the run's system
 * properties as {@code name=value}. Sets the properties (LoadSettings reads them when the
 * simulation is built), runs Gatling with its output to the log, clears them, and writes
 * Gatling's exit code (0 when every assertion held, -1 when the run crashed) as a line to
 * the answers file given as the only argument (a named pipe the study reads).
 */
public final class StudyRunner {

	private StudyRunner() {
	}

	public static void main(String[] args) throws IOException {
		if (args.length != 1) {
			System.err.println("usage: StudyRunner ANSWERS_FILE < requests");
			System.exit(2);
		}
		try (BufferedReader requests = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
				PrintWriter answers = new PrintWriter(Files.newBufferedWriter(Path.of(args[0])), true)) {
			String line;
			while ((line = requests.readLine()) != null) {
				if (!line.isBlank()) {
					answers.println(run(line.split("\t")));
				}
			}
		}
		// Gatling leaves non-daemon threads behind: without this the JVM outlives the
		// study.
		System.exit(0);
	}

	private static int run(String[] request) throws IOException {
		PrintStream out = System.out;
		PrintStream err = System.err;
		List<String> properties = new ArrayList<>();
		try (PrintStream log = new PrintStream(new FileOutputStream(request[0]), true, StandardCharsets.UTF_8)) {
			System.setOut(log);
			System.setErr(log);
			try {
				for (int i = 4; i < request.length; i++) {
					int equals = request[i].indexOf('=');
					String name = request[i].substring(0, equals);
					System.setProperty(name, request[i].substring(equals + 1));
					properties.add(name);
				}
				List<String> gatlingArgs = new ArrayList<>(
						List.of("--simulation", request[1], "--results-folder", request[2], "--launcher", "maven"));
				if ("no-reports".equals(request[3])) {
					gatlingArgs.add("--no-reports");
				}
				return Gatling$.MODULE$.fromArgs(gatlingArgs.toArray(String[]::new));
			}
			catch (RuntimeException ex) {
				ex.printStackTrace(log);
				return -1;
			}
			finally {
				properties.forEach(System::clearProperty);
				System.setOut(out);
				System.setErr(err);
			}
		}
	}

}
