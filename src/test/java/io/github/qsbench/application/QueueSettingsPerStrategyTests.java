package io.github.qsbench.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import io.github.qsbench.application.queues.QueueSettings;
import io.github.qsbench.application.queues.QueueTags;
import io.github.qsbench.core.strategy.Strategy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A queue's tags and largest message, kept with its settings by every strategy's store
 * (in memory, or in Redis): merged, capped at 50 with the whole change refused past it,
 * the largest message within SQS's range, and both gone with the queue.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(Strategy.class)
class QueueSettingsPerStrategyTests extends OperationsPerStrategy {

	@Test
	void tags_mergedAndCapped_wholeChangeRefusedPastTheCap_goneWithTheQueue() {
		assertThat(this.operations.configure("q", QueueSettings.Change.of(QueueTags.Change.tag(Map.of("a", "1")))))
			.isTrue();
		this.operations.configure("q", QueueSettings.Change.of(QueueTags.Change.tag(Map.of("b", "2", "a", "3"))));
		assertThat(this.operations.settings("q").tags()).isEqualTo(Map.of("a", "3", "b", "2"));

		Map<String, String> fortyNine = new TreeMap<>();
		for (int i = 0; i < 49; i++) {
			fortyNine.put("k" + i, "v");
		}
		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> this.operations.configure("q",
					new QueueSettings.Change(5L, null, null, null, 2048, QueueTags.Change.tag(fortyNine), null)))
			.withMessageContaining("51");
		QueueSettings unchanged = this.operations.settings("q");
		assertThat(unchanged.tags()).hasSize(2);
		assertThat(unchanged.leaseSeconds()).as("nothing of the change").isEqualTo(LEASE.toSeconds());
		assertThat(unchanged.maxMessageBytes()).isEqualTo(Limits.MAX_MESSAGE_BYTES);

		this.operations.configure("q", QueueSettings.Change.of(QueueTags.Change.untag(Set.of("b"))));
		this.operations.configure("q", QueueSettings.Change.of(QueueTags.Change.tag(fortyNine)));
		assertThat(this.operations.settings("q").tags()).hasSize(50);

		assertThat(this.operations.deleteQueue("q")).isTrue();
		assertThat(this.operations.settings("q").tags()).isEmpty();
		this.operations.configure("q", new QueueSettings.Change(null, null, null, null));
		assertThat(this.operations.settings("q").tags()).as("a new queue of the name has none").isEmpty();
	}

	@Test
	void largestMessage_ownOrTheService_withinSqsRange_goneWithTheQueue() {
		assertThat(this.messages.maxMessageBytes("q")).isEqualTo(Limits.MAX_MESSAGE_BYTES);
		this.operations.configure("q", new QueueSettings.Change(null, null, null, null, 1024, null, null));
		assertThat(this.messages.maxMessageBytes("q")).isEqualTo(1024);
		assertThat(this.operations.settings("q").maxMessageBytes()).isEqualTo(1024);
		for (int refused : new int[] { 1023, Limits.MAX_MESSAGE_BYTES + 1, 0, -1 }) {
			assertThatExceptionOfType(InvalidRequestException.class).isThrownBy(() -> this.operations.configure("q",
					new QueueSettings.Change(null, null, null, null, refused, null, null)));
		}
		this.operations.configure("q",
				new QueueSettings.Change(null, null, null, null, Limits.MAX_MESSAGE_BYTES, null, null));
		assertThat(this.messages.maxMessageBytes("q")).isEqualTo(Limits.MAX_MESSAGE_BYTES);
		this.operations.configure("q", new QueueSettings.Change(null, null, null, null, 4096, null, null));
		this.operations.deleteQueue("q");
		assertThat(this.messages.maxMessageBytes("q")).isEqualTo(Limits.MAX_MESSAGE_BYTES);
		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> this.messages.maxMessageBytes("not a name"));
	}

}
