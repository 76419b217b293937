package io.github.qsbench.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The caps a comparison is held to, and its defaults. */
class ComparisonRequestTests {

	@Test
	void defaults_andARecordedSeed() {
		ComparisonRequest request = new ComparisonRequest(List.of("concurrent-atomic", "synchronized"), null, null,
				null, null)
			.validated();

		assertThat(request.workload()).isEqualTo("4-conn");
		assertThat(request.rounds()).isEqualTo(5);
		assertThat(request.windowSeconds()).isEqualTo(3);
		assertThat(request.seed()).isNotNull();
		assertThat(request.loadSeconds()).isEqualTo(6 * 2 * 3);
		assertThat(request.json())
			.isEqualTo("{\"strategies\":[\"concurrent-atomic\",\"synchronized\"],\"workload\":\"4-conn\",\"rounds\":5,"
					+ "\"windowSeconds\":3,\"seed\":" + request.seed() + "}");
	}

	@Test
	void twoToFourDistinctKnownStrategies_noRedis() {
		refused(List.of("synchronized"), null, null, "Choose 2 to 4");
		refused(List.of("synchronized", "concurrent-atomic", "lane-locked", "lane-adaptive", "split-jctools"), null,
				null, "Choose 2 to 4");
		refused(List.of("synchronized", "nope"), null, null, "Unknown strategy 'nope'");
		refused(List.of("synchronized", "synchronized"), null, null, "chosen twice");
		refused(List.of("synchronized", "redis"), null, null, "redis strategy needs a Redis");
		refused(null, null, null, "Choose 2 to 4");
	}

	@Test
	void roundsWindowsAndTotalLoadAreCapped() {
		List<String> two = List.of("synchronized", "concurrent-atomic");
		refused(two, 2, 1, "rounds must be 3 to 20");
		refused(two, 21, 1, "rounds must be 3 to 20");
		refused(two, 3, 0, "windowSeconds must be 1 to 10");
		refused(two, 3, 11, "windowSeconds must be 1 to 10");
		// (9 + 1) × 2 × 5 = 100 s > 90
		refused(two, 9, 5, "100 s of load; at most 90 s");
		assertThat(new ComparisonRequest(two, null, 14, 3, 1L).validated().loadSeconds()).isEqualTo(90);
	}

	@Test
	void workloadsArePresets_withinTheConnectionCap() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ComparisonRequest(List.of("synchronized", "concurrent-atomic"), "99-conn", 3, 1, 1L)
				.validated())
			.withMessageContaining("Unknown workload '99-conn'");
		for (Workload workload : Workload.values()) {
			assertThat(workload.connections()).isBetween(1, ComparisonRequest.MAX_CONNECTIONS);
		}
	}

	private static void refused(List<String> strategies, Integer rounds, Integer window, String message) {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ComparisonRequest(strategies, null, rounds, window, 1L).validated())
			.withMessageContaining(message);
	}

}
