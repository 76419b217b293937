package io.github.qsbench.jcstress;

import java.io.File;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.openjdk.jcstress.JCStress;
import org.openjdk.jcstress.Options;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.infra.Status;
import org.openjdk.jcstress.infra.collectors.DiskReadCollector;
import org.openjdk.jcstress.infra.collectors.InProcessCollector;
import org.openjdk.jcstress.infra.collectors.TestResult;
import org.openjdk.jcstress.infra.grading.GradingResult;
import org.openjdk.jcstress.infra.grading.TestGrading;

/**
 * Runs jcstress with the given options, then grades its result file again and prints one
 * line per outcome of each test (summed over forks and JVM configurations, with its
 * expectation and description), so a CI log shows what was observed, including whether
 * the ACCEPTABLE_INTERESTING races were seen. Exits 1 if any test saw a FORBIDDEN outcome
 * or ended in an error (jcstress 0.16 reports those by throwing from its report printer,
 * which this also counts), and also if no test ran at all: jcstress only prints "No
 * matching tests" and exits 0 when the regexp matches nothing.
 *
 * <p>
 * Run by {@code ./mvnw verify} (integration-test phase) with {@code -Djcstress.mode},
 * {@code -Djcstress.tests} and {@code -Djcstress.splitCompilation}; see docs/testing.md,
 * "Concurrency verification".
 */
public final class JCStressGate {

	private JCStressGate() {
	}

	public static void main(String[] args) throws Exception {
		Options options = new Options(args);
		if (!options.parse()) {
			System.exit(2);
		}
		boolean reported = false;
		try {
			new JCStress(options).run();
		}
		catch (AssertionError failures) {
			// jcstress's own verdict on forbidden outcomes and errors; graded again below
			reported = true;
		}
		boolean passed = grade(options.getResultFile());
		System.exit((passed && !reported) ? 0 : 1);
	}

	static boolean grade(String resultFile) throws Exception {
		if (!new File(resultFile).isFile()) {
			System.out.println("JCStressGate: FAILED, no result file " + resultFile
					+ " (no test matched, or jcstress did not run)");
			return false;
		}
		InProcessCollector collector = new InProcessCollector();
		DiskReadCollector reader = new DiskReadCollector(resultFile, collector);
		try {
			reader.dump();
		}
		finally {
			reader.close();
		}
		// one result set per fork and JVM configuration: merge them per test
		Map<String, Merged> tests = new TreeMap<>();
		for (TestResult result : collector.getTestResults()) {
			tests.computeIfAbsent(result.getName(), name -> new Merged()).add(result);
		}
		if (tests.isEmpty()) {
			System.out.println("JCStressGate: FAILED, no test results in " + resultFile);
			return false;
		}
		int failed = 0;
		System.out.println();
		System.out.println("JCStressGate: observed outcomes per test, summed over its forks and JVM configurations");
		for (Map.Entry<String, Merged> test : tests.entrySet()) {
			Merged merged = test.getValue();
			System.out.printf("  [%s] %s (%d result sets, %,d samples, worst status %s)%n", merged.ok ? "OK" : "FAILED",
					test.getKey(), merged.sets, merged.samples, merged.status);
			merged.outcomes.forEach((id, outcome) -> System.out.printf("      %-40s %,15d  %-22s %s%n", id,
					outcome.count, outcome.expect, outcome.description));
			merged.messages.forEach(message -> System.out.println("      ! " + message));
			failed += merged.ok ? 0 : 1;
		}
		System.out.printf("JCStressGate: %d tests, %d failed%n", tests.size(), failed);
		return failed == 0;
	}

	/**
	 * One test's results over all its forks: failed if any fork failed or saw a forbidden
	 * outcome.
	 */
	private static final class Merged {

		final Map<String, Outcome> outcomes = new TreeMap<>();

		final Set<String> messages = new LinkedHashSet<>();

		boolean ok = true;

		Status status = Status.NORMAL;

		int sets;

		long samples;

		void add(TestResult result) {
			TestGrading grading = result.grading();
			this.ok &= result.status() == Status.NORMAL && grading.isPassed;
			this.status = this.status.combine(result.status());
			this.sets++;
			this.samples += result.getTotalCount();
			for (GradingResult outcome : grading.gradingResults.values()) {
				this.outcomes.computeIfAbsent(outcome.id,
						id -> new Outcome(outcome.expect, outcome.description)).count += outcome.count;
			}
			this.messages.addAll(grading.failureMessages);
			this.messages.addAll(result.getMessages());
		}

	}

	private static final class Outcome {

		final Expect expect;

		final String description;

		long count;

		Outcome(Expect expect, String description) {
			this.expect = expect;
			this.description = description;
		}

	}

}
