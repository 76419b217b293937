package io.github.qsbench.core.thesis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;

import io.github.qsbench.core.ByIdOutcome;
import io.github.qsbench.core.Completion;

import org.junit.jupiter.api.Test;

/**
 * {@link AtomicMessage} keeps its id's lower half itself and the upper half in its state;
 * these check that the id survives every change of state, on both sides of 2^32.
 */
class AtomicMessageTests {

	private static final long NOW = Instant.parse("2026-11-28T23:00:00Z").toEpochMilli();

	private static final long LEASE = 30_000;

	@Test
	void idKeepsAllItsBits_throughEveryChangeOfState() {
		for (long id : new long[] { 1, 0xFFFF_FFFFL, 0x1_0000_0000L, 0x1_8000_0001L, Long.MAX_VALUE }) {
			AtomicMessage message = new AtomicMessage(id, new byte[] { 'x' });
			assertThat(message.id()).isEqualTo(id);
			message.delayUntil(NOW + 5);
			assertThat(message.id()).isEqualTo(id);
			assertThat(message.endDelay(NOW)).isTrue();
			assertThat(message.id()).isEqualTo(id);
			assertThat(message.tryGrab(NOW, LEASE)).isEqualTo(Grab.GRABBED);
			assertThat(message.id()).isEqualTo(id);
			assertThat(message.changeLease(1, NOW + 2 * LEASE)).isEqualTo(ByIdOutcome.of(Completion.COMPLETED));
			assertThat(message.id()).isEqualTo(id);
			assertThat(message.complete(1)).isEqualTo(Completion.COMPLETED);
			assertThat(message.id()).isEqualTo(id);
			assertThat(message.isCompleted()).isTrue();
			assertThat(message.deliveries()).isEqualTo(1);
		}
	}

	@Test
	void messagesOfDifferentUpperWords_keepTheirOwn_whenCreatedInTurn() {
		AtomicMessage low = new AtomicMessage(7, new byte[] { 'a' });
		AtomicMessage high = new AtomicMessage(0x2_0000_0007L, new byte[] { 'b' });
		AtomicMessage higher = new AtomicMessage(0x3_0000_0007L, new byte[] { 'c' });
		AtomicMessage highAgain = new AtomicMessage(0x2_0000_0008L, new byte[] { 'd' });

		assertThat(low.id()).isEqualTo(7);
		assertThat(high.id()).isEqualTo(0x2_0000_0007L);
		assertThat(higher.id()).isEqualTo(0x3_0000_0007L);
		assertThat(highAgain.id()).isEqualTo(0x2_0000_0008L);
		assertThat(discarded(high)).isEqualTo(0x2_0000_0007L);
	}

	private static long discarded(AtomicMessage message) {
		assertThat(message.discard()).isZero();
		return message.id();
	}

}
