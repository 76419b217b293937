package io.github.qsbench.rest;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Which poll query strings {@link HotRouteHandler} takes itself ({@link PollQuery}):
 * {@code max} and {@code wait} as plain digits, each at most once, in either order.
 * Anything MVC would have to decode or bind differently goes on to MVC, so both paths
 * answer it alike.
 */
class PollQueryTests {

	@ParameterizedTest
	@CsvSource(nullValues = "-",
			value = { "wait=2, -, 2, -", "max=10, 10, -, -", "max=10&wait=20, 10, 20, -", "wait=0&max=1, 1, 0, -",
					"wait=99, -, 99, -", "max=007, 007, -, -", "lease=0, -, -, 0", "max=2&lease=60&wait=1, 2, 1, 60" })
	void plainMaxWaitAndLease_taken(String query, String max, String wait, String lease) {
		assertThat(PollQuery.parse(query)).isEqualTo(new PollQuery(max, wait, lease));
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "&", "wait", "wait=", "wait=1&", "&wait=1", "wait=1&&max=2", "wait=%31", "wait=+1",
			"wait=-1", "wait=1.0", "wait=1&wait=2", "max=1&max=1", "wait=1&other=2", "WAIT=1", "waiting=1", "xwait=1",
			"max=1234567890", "wait=1=2", "lease=1&lease=2", "leases=1", "lease=-1" })
	void anythingElse_leftToMvc(String query) {
		assertThat(PollQuery.parse(query)).isNull();
	}

}
