package io.github.qsbench.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import io.github.qsbench.application.MessageAttributes.Attribute;

import org.junit.jupiter.api.Test;

class MessageAttributesTests {

	private static final int MAX = 1024;

	@Test
	void none_storedAsTheBodyItself() {
		byte[] body = "plain".getBytes(StandardCharsets.UTF_8);

		byte[] stored = MessageAttributes.of(Map.of()).store(body, MAX);

		assertThat(stored).isSameAs(body);
		StoredMessage read = StoredMessage.read(stored);
		assertThat(read.body()).isSameAs(body);
		assertThat(read.attributes().isEmpty()).isTrue();
	}

	@Test
	void typedAttributes_roundTrip_sortedByName() {
		Map<String, Attribute> given = new LinkedHashMap<>();
		given.put("zeta", Attribute.parse("String", "héllo"));
		given.put("count", Attribute.parse("Number.int", "-12.5e3"));
		given.put("blob", Attribute.parse("Binary", "AAH/"));

		byte[] stored = MessageAttributes.of(given).store("body ✓".getBytes(StandardCharsets.UTF_8), MAX);
		StoredMessage read = StoredMessage.read(stored);

		assertThat(read.text()).isEqualTo("body ✓");
		assertThat(read.attributes().attributes().keySet()).containsExactly("blob", "count", "zeta");
		assertThat(read.attributes().attributes().get("blob").value()).containsExactly(0, 1, 0xFF);
		assertThat(read.attributes().attributes().get("blob").text()).isEqualTo("AAH/");
		assertThat(read.attributes().attributes().get("count").type()).isEqualTo("Number.int");
		assertThat(read.attributes().attributes()).isEqualTo(MessageAttributes.of(given).attributes());
	}

	@Test
	void invalid_refusedWithTheReason() {
		assertInvalid(() -> Attribute.parse("Text", "x"), "type");
		assertInvalid(() -> Attribute.parse("String.", "x"), "type");
		assertInvalid(() -> Attribute.parse("String", ""), "empty");
		assertInvalid(() -> Attribute.parse("Number", "12abc"), "number");
		assertInvalid(() -> Attribute.parse("Number", "1" + "0".repeat(38)), "38 digits");
		assertInvalid(() -> Attribute.parse("Binary", "not base64!"), "base64");
		for (String name : new String[] { "", ".a", "a.", "a..b", "AWS.x", "amazon.y", "a b", "é", "x".repeat(257) }) {
			assertInvalid(() -> MessageAttributes.of(Map.of(name, Attribute.parse("String", "v"))), "name");
		}
		Map<String, Attribute> eleven = new LinkedHashMap<>();
		for (int i = 0; i < 11; i++) {
			eleven.put("a" + i, Attribute.parse("String", "v"));
		}
		assertInvalid(() -> MessageAttributes.of(eleven), "at most 10");
		MessageAttributes big = MessageAttributes.of(Map.of("n", Attribute.parse("String", "x".repeat(20))));
		assertInvalid(() -> big.store(new byte[4], 30), "add up to 31 bytes");
		assertThat(big.store(new byte[3], 30)).hasSizeGreaterThan(30).as("the limit counts names, types, values");
	}

	private static void assertInvalid(Runnable attempt, String reason) {
		assertThatExceptionOfType(InvalidRequestException.class).isThrownBy(attempt::run)
			.satisfies(ex -> assertThat(ex.detail()).containsIgnoringCase(reason));
	}

}
