package io.github.qsbench.application.queues;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import io.github.qsbench.application.InvalidRequestException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** SQS's rules for tags, checked where a change is made. */
class QueueTagsTests {

	@ParameterizedTest
	@ValueSource(strings = { "team", "Team", "a b", "ключ", "数字7", "_.:/=+-@", "aws", "x:aws:" })
	void keys_ofSqsSet_accepted(String key) {
		assertThat(QueueTags.Change.tag(Map.of(key, "v")).tag()).containsOnlyKeys(key);
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "aws:team", "AWS:team", "Aws:", "a;b", "a\tb", "a\nb", "a*b", "a#b", "é\u0000" })
	void keys_outsideSqsSetOrReserved_refused(String key) {
		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> QueueTags.Change.tag(Map.of(key, "v")))
			.satisfies(ex -> assertThat(ex.title()).isEqualTo(QueueTags.INVALID));
		assertThatExceptionOfType(InvalidRequestException.class).isThrownBy(() -> QueueTags.Change.untag(Set.of(key)));
	}

	@Test
	void lengths_inCharacters_keyUpTo128_valueUpTo256() {
		String emoji = new String(Character.toChars(0x1F600));
		assertThat(Character.isLetterOrDigit(emoji.codePointAt(0))).as("not of the set").isFalse();
		String han = "字";
		QueueTags.Change.tag(Map.of(han.repeat(128), han.repeat(256), "empty", ""));
		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> QueueTags.Change.tag(Map.of("k".repeat(129), "v")));
		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> QueueTags.Change.tag(Map.of("k", "v".repeat(257))));
		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> QueueTags.Change.tag(Map.of("k", emoji)));
	}

	@Test
	void change_keySetAndRemoved_refused_appliedAtMost50() {
		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> new QueueTags.Change(new TreeMap<>(Map.of("k", "v")), new TreeSet<>(Set.of("k"))));
		TreeMap<String, String> fifty = new TreeMap<>();
		for (int i = 0; i < 50; i++) {
			fifty.put("k" + i, "v");
		}
		assertThat(QueueTags.apply(new TreeMap<>(), QueueTags.Change.tag(fifty))).hasSize(50);
		assertThat(QueueTags.apply(fifty, QueueTags.Change.tag(Map.of("k0", "overwritten")))).hasSize(50)
			.containsEntry("k0", "overwritten");
		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> QueueTags.apply(fifty, QueueTags.Change.tag(Map.of("k50", "v"))))
			.withMessageContaining("51");
		assertThat(QueueTags.apply(fifty,
				new QueueTags.Change(new TreeMap<>(Map.of("k50", "v")), new TreeSet<>(Set.of("k0", "absent")))))
			.hasSize(50)
			.doesNotContainKey("k0");
	}

}
