package io.github.qsbench.http;

import java.nio.charset.StandardCharsets;

import io.github.qsbench.application.queues.DeadLetterPolicy;
import io.github.qsbench.application.InvalidRequestException;
import io.github.qsbench.application.MessageAttributes;
import io.github.qsbench.application.queues.QueueSettings;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The parsers both faces share: message text, attribute maps and settings changes, each
 * answering what it refuses in face-neutral terms.
 */
class SharedParsersTests {

	private static final JsonMapper MAPPER = JsonMapper.builder().build();

	@Test
	void messageText_utf8WithinTheCap() {
		assertThat(MessageText.utf8("grüße", 7)).isEqualTo("grüße".getBytes(StandardCharsets.UTF_8));
		assertThat(MessageText.utf8("\ud83d\ude00", 4)).hasSize(4);
	}

	@Test
	void messageText_refusedWithItsReason() {
		assertRefused("", 10, MessageText.Reason.EMPTY);
		assertRefused("x".repeat(11), 10, MessageText.Reason.TOO_LARGE);
		assertRefused("grüße", 6, MessageText.Reason.TOO_LARGE);
		assertRefused("\ud83d\ude00", 3, MessageText.Reason.TOO_LARGE);
		assertRefused("a\ud800", 10, MessageText.Reason.NOT_TEXT);
		assertRefused("\udc00a", 10, MessageText.Reason.NOT_TEXT);
	}

	@Test
	void jsonAttributes_readThroughTheFaceForm() {
		MessageAttributes attributes = JsonAttributes
			.read(MAPPER.readTree("{\"b\":[\"Binary\",\"AAH/\"],\"a\":[\"Number.int\",\"42\"]}"), new ArrayForm());
		assertThat(attributes.attributes().keySet()).containsExactly("a", "b");
		assertThat(attributes.attributes().get("b").value()).containsExactly(0, 1, 0xFF);
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> JsonAttributes.read(MAPPER.readTree("[]"), new ArrayForm()));
		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> JsonAttributes.read(MAPPER.readTree("{\"n\":[\"Number\",\"ten\"]}"), new ArrayForm()));
		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> JsonAttributes.read(MAPPER.readTree("{\"AWS.n\":[\"String\",\"v\"]}"), new ArrayForm()));
	}

	@Test
	void settingsChange_deadLetterQueueComesWithItsCount() {
		assertThat(new SettingsChange().leaseSeconds(30).retentionSeconds(60).change())
			.isEqualTo(new QueueSettings.Change(30L, null, 60, null));
		assertThat(new SettingsChange().deadLetterQueue("dlq").maxDeliveries(3).change().deadLetters())
			.isEqualTo(new DeadLetterPolicy("dlq", 3));
		assertThat(new SettingsChange().deadLetterQueue(null).change().deadLetters())
			.isSameAs(QueueSettings.Change.REMOVE);
		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> new SettingsChange().maxDeliveries(3).change());
		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> new SettingsChange().deadLetterQueue("dlq").change());
		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> new SettingsChange().deadLetterQueue(null).maxDeliveries(3).change());
		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> new SettingsChange().deadLetterQueue("dlq").maxDeliveries(0).change());
	}

	private static void assertRefused(String text, int maxBytes, MessageText.Reason reason) {
		assertThatExceptionOfType(MessageText.Refused.class).isThrownBy(() -> MessageText.utf8(text, maxBytes))
			.satisfies(ex -> assertThat(ex.reason()).isEqualTo(reason));
	}

	/** A form of the test's own: each attribute {@code ["type","value"]}. */
	private static final class ArrayForm implements JsonAttributes.Form {

		@Override
		public RuntimeException notAMap() {
			return new IllegalStateException("not a map");
		}

		@Override
		public JsonAttributes.Typed entry(String name, JsonNode entry) {
			return new JsonAttributes.Typed(entry.get(0).stringValue(), entry.get(1).stringValue());
		}

	}

}
