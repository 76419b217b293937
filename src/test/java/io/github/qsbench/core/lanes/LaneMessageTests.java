package io.github.qsbench.core.lanes;

import io.github.qsbench.core.Completion;
import io.github.qsbench.core.QueueServiceCore;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;

import org.junit.jupiter.api.Test;

/**
 * {@link LaneMessage} packs lease expiry, deliveries and the completed bit into one word;
 * these check that no field spills into another at the edges of its bits.
 */
class LaneMessageTests {

	private static final long NOW = Instant.parse("2026-11-23T02:00:00Z").toEpochMilli();

	private static final long LEASE = 30_000;

	@Test
	void neverDelivered_isNotInFlight_andCannotBeCompleted() {
		LaneMessage message = new LaneMessage(Long.MAX_VALUE, new byte[] { 'x' });

		assertThat(message.id()).isEqualTo(Long.MAX_VALUE);
		assertThat(message.deliveries()).isZero();
		assertThat(message.expiry()).isEqualTo(Long.MAX_VALUE);
		assertThat(message.complete(QueueServiceCore.ANY_DELIVERY)).isEqualTo(Completion.NOT_DELIVERED);
	}

	@Test
	void leaseKeepsEveryMillisecond_acrossDeliveries() {
		LaneMessage message = new LaneMessage(1, new byte[] { 'x' });
		message.deliverFirst(NOW + LEASE);

		assertThat(message.expiry()).isEqualTo(NOW + LEASE);
		assertThat(message.redeliver(NOW + 2 * LEASE + 1)).isTrue();
		assertThat(message.expiry()).isEqualTo(NOW + 2 * LEASE + 1);
		assertThat(message.deliveries()).isEqualTo(2);
		assertThat(message.complete(1)).isEqualTo(Completion.STALE_LEASE);
		assertThat(message.complete(2)).isEqualTo(Completion.COMPLETED);
		assertThat(message.isCompleted()).isTrue();
		assertThat(message.expiry()).as("a completed message never expires").isEqualTo(Long.MAX_VALUE);
		assertThat(message.redeliver(NOW + 3 * LEASE)).as("completion won").isFalse();
		assertThat(message.complete(2)).isEqualTo(Completion.NOT_FOUND);
	}

	@Test
	void deliveriesSaturate_withoutTouchingTheLeaseOrTheCompletedBit() {
		LaneMessage message = new LaneMessage(1, new byte[] { 'x' });
		message.deliverFirst(NOW);
		int max = (1 << 21) - 1;
		for (int i = 1; i < max + 5; i++) {
			assertThat(message.redeliver(NOW + i)).isTrue();
		}

		assertThat(message.deliveries()).isEqualTo(max);
		assertThat(message.expiry()).isEqualTo(NOW + max + 4);
		assertThat(message.isCompleted()).isFalse();
		assertThat(message.complete(max)).isEqualTo(Completion.COMPLETED);
	}

}
