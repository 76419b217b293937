package io.github.qsbench.core.thesis;

import io.github.qsbench.core.Completion;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;

import org.junit.jupiter.api.Test;

/**
 * {@link PojoMessage} packs its state into two words; these check that no field spills
 * into another at the edges of its bits.
 */
class PojoMessageTests {

	private static final long NOW = Instant.parse("2026-11-22T23:00:00Z").toEpochMilli();

	private static final long LEASE = 30_000;

	@Test
	void idKeepsAllItsBits_completedOrNot() {
		PojoMessage message = new PojoMessage(Long.MAX_VALUE, new byte[] { 'x' });
		message.tryGrab(NOW, LEASE);

		assertThat(message.id()).isEqualTo(Long.MAX_VALUE);
		assertThat(message.complete(1)).isEqualTo(Completion.COMPLETED);
		assertThat(message.id()).isEqualTo(Long.MAX_VALUE);
		assertThat(message.isCompleted()).isTrue();
		assertThat(message.deliveries()).isEqualTo(1);
	}

	@Test
	void leaseExpiresToTheMillisecond() {
		PojoMessage message = new PojoMessage(1, new byte[] { 'x' });
		assertThat(message.status(NOW)).isEqualTo(AbstractMessage.Status.READY);

		assertThat(message.tryGrab(NOW, LEASE)).isEqualTo(Grab.GRABBED);
		assertThat(message.status(NOW + LEASE - 1)).isEqualTo(AbstractMessage.Status.IN_FLIGHT);
		assertThat(message.tryGrab(NOW + LEASE - 1, LEASE)).isEqualTo(Grab.DECLINED_IN_FLIGHT);
		assertThat(message.status(NOW + LEASE)).isEqualTo(AbstractMessage.Status.READY);
		assertThat(message.tryGrab(NOW + LEASE, LEASE)).isEqualTo(Grab.GRABBED);
		assertThat(message.deliveries()).isEqualTo(2);
		assertThat(message.complete(1)).isEqualTo(Completion.STALE_LEASE);
		assertThat(message.complete(2)).isEqualTo(Completion.COMPLETED);
		assertThat(message.tryGrab(NOW + 10 * LEASE, LEASE)).isEqualTo(Grab.DECLINED_COMPLETED);
	}

	@Test
	void deliveriesSaturateWithoutTouchingTheLease() {
		PojoMessage message = new PojoMessage(1, new byte[] { 'x' });
		long now = NOW;
		int max = (1 << 22) - 1;
		for (int i = 0; i < max + 5; i++) {
			assertThat(message.tryGrab(now, 1)).isEqualTo(Grab.GRABBED);
			now += 1;
		}

		assertThat(message.deliveries()).isEqualTo(max);
		assertThat(message.status(now - 1)).isEqualTo(AbstractMessage.Status.IN_FLIGHT);
		assertThat(message.status(now)).isEqualTo(AbstractMessage.Status.READY);
		assertThat(message.complete(max)).isEqualTo(Completion.COMPLETED);
	}

}
