package io.github.qsbench.application;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OutgoingMessageTests {

	@Test
	void validId_isOneTo128OfAsciiPrintablesButSpace_asItsPattern() {
		for (String id : new String[] { "a", "!", "~", "group-1.x_y", "a".repeat(128) }) {
			assertThat(OutgoingMessage.isValidId(id)).as(id).isTrue();
			assertThat(id).matches(OutgoingMessage.ID_PATTERN);
		}
		for (String id : new String[] { "", " ", "a b", "a".repeat(129), "\u007f", "é", "tab\t" }) {
			assertThat(OutgoingMessage.isValidId(id)).as(id).isFalse();
			assertThat(id).doesNotMatch(OutgoingMessage.ID_PATTERN);
		}
	}

}
