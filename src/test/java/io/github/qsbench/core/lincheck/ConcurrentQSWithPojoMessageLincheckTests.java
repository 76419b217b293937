package io.github.qsbench.core.lincheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.qsbench.core.strategy.Strategy;

import org.jetbrains.lincheck.LincheckAssertionError;
import org.junit.jupiter.api.Test;

/**
 * The at-least-once strategy: Lincheck must find that two polls can hand out the same
 * message, which the exactly-once {@link QueueModel} forbids. Model checking must report
 * exactly that (two polls returning one id) and prints the interleaving; the test fails
 * if Lincheck finds nothing, or a violation of another kind. Stress usually finds it too,
 * and whatever it reports must be the double delivery.
 */
public class ConcurrentQSWithPojoMessageLincheckTests extends AbstractQueueServiceLincheckTests {

	private static final Pattern POLLED = Pattern.compile("poll\\((\\d+)\\): (\\d+)");

	public ConcurrentQSWithPojoMessageLincheckTests() {
		super(Strategy.CONCURRENT_POJO);
	}

	@Test
	void modelChecking_findsDoubleDelivery() {
		LincheckAssertionError error = failure(() -> modelChecking().check(getClass()));
		assertThat(error).as("model checking finds the at-least-once race").isNotNull();
		System.out.println("concurrent-pojo, model checking found (expected):\n" + error.getMessage());
		assertThat(doubleDeliveries(error.getMessage())).as("a message polled twice").isNotEmpty();
	}

	@Test
	void stress_anyFailureIsDoubleDelivery() {
		LincheckAssertionError error = failure(() -> stress().check(getClass()));
		if (error == null) {
			System.out.println("concurrent-pojo, stress: no double delivery observed in this run");
			return;
		}
		System.out.println("concurrent-pojo, stress found (expected):\n" + error.getMessage());
		assertThat(doubleDeliveries(error.getMessage())).as("a message polled twice").isNotEmpty();
	}

	private static LincheckAssertionError failure(Runnable check) {
		try {
			check.run();
			return null;
		}
		catch (LincheckAssertionError error) {
			return error;
		}
	}

	/** Queue-and-id pairs that more than one poll of the reported scenario returned. */
	static List<String> doubleDeliveries(String report) {
		String results = report.contains("The following interleaving")
				? report.substring(0, report.indexOf("The following interleaving")) : report;
		Set<String> seen = new HashSet<>();
		List<String> twice = new ArrayList<>();
		Matcher polled = POLLED.matcher(results);
		while (polled.find()) {
			String delivery = "queue " + polled.group(1) + " id " + polled.group(2);
			if (!seen.add(delivery)) {
				twice.add(delivery);
			}
		}
		return twice;
	}

}
