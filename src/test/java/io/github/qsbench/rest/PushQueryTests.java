package io.github.qsbench.rest;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Which push query strings {@link HotRouteHandler} takes itself ({@link PushQuery}):
 * {@code group} of the characters a URI never encodes and {@code delay} as plain digits,
 * each at most once, in either order. Anything MVC would have to decode goes on to MVC,
 * so both paths answer it alike.
 */
class PushQueryTests {

	@ParameterizedTest
	@CsvSource(nullValues = "-", value = { "group=g0, g0, -", "delay=5, -, 5",
			"group=a-b.c_d~E9&delay=0, a-b.c_d~E9, 0", "delay=10&group=x, x, 10" })
	void plainGroupAndDelay_taken(String query, String group, String delay) {
		assertThat(PushQuery.parse(query)).isEqualTo(new PushQuery(group, delay));
	}

	@Test
	void aGroupOfSqsLongest_taken() {
		assertThat(PushQuery.parse("group=" + "g".repeat(128))).isEqualTo(new PushQuery("g".repeat(128), null));
		assertThat(PushQuery.parse("group=" + "g".repeat(129))).isNull();
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "group", "group=", "group=a%20b", "group=a+b", "group=a!b", "group=a/b", "group=a&",
			"group=a&group=b", "delay=1&delay=1", "delay=x", "delay=%30", "delay=1234567890", "GROUP=a", "groups=a",
			"group=a&other=1", "group=a=b" })
	void anythingElse_leftToMvc(String query) {
		assertThat(PushQuery.parse(query)).isNull();
	}

}
