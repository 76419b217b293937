package io.github.qsbench.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import io.github.qsbench.application.MessageAttributes.Attribute;
import io.github.qsbench.application.StoredMessage.DeadLetter;
import io.github.qsbench.application.StoredMessage.SystemAttributes;

import org.junit.jupiter.api.Test;

class StoredMessageTests {

	private static final long SENT = 1_795_000_000_123L;

	@Test
	void plainMessage_roundTrip_sentKnown_notYetReceived() {
		StoredMessage read = StoredMessage.read(StoredMessage.encode(OutgoingMessage.of(utf8("plain")), SENT, 0, 1024));

		assertThat(read.text()).isEqualTo("plain");
		assertThat(read.attributes().isEmpty()).isTrue();
		assertThat(read.system()).isEqualTo(new SystemAttributes(SENT, 0, null, null, 0));
		assertThat(read.deadLetter()).isNull();
	}

	@Test
	void groupedMessage_roundTrip_withAttributes() {
		OutgoingMessage message = new OutgoingMessage(utf8("body ✓"),
				MessageAttributes.of(Map.of("k", Attribute.parse("String", "v"))), "group-1", "dedup-1");

		StoredMessage read = StoredMessage.read(StoredMessage.encode(message, SENT, 42, 1024));

		assertThat(read.text()).isEqualTo("body ✓");
		assertThat(read.attributes().attributes()).containsOnlyKeys("k");
		assertThat(read.system()).isEqualTo(new SystemAttributes(SENT, 0, "group-1", "dedup-1", 42));
		assertThat(read.system().sequenceText()).isEqualTo("00000000000000000042");
	}

	@Test
	void firstReceive_recordedOnce_keptThroughADeadLetterMove() {
		byte[] stored = StoredMessage.encode(OutgoingMessage.of(utf8("x")), SENT, 0, 1024);

		StoredMessage.markReceived(stored, SENT + 5);
		StoredMessage.markReceived(stored, SENT + 9);
		assertThat(StoredMessage.read(stored).system().firstReceivedMillis()).as("the first one stays")
			.isEqualTo(SENT + 5);

		for (String source : new String[] { "q", "a-source-queue-name-of-odd-length" }) {
			byte[] dead = StoredMessage.deadLettered(stored, source, 3);
			StoredMessage read = StoredMessage.read(dead);
			assertThat(read.deadLetter()).isEqualTo(new DeadLetter(source, 3));
			assertThat(read.system().firstReceivedMillis()).isEqualTo(SENT + 5);
			assertThat(read.text()).isEqualTo("x");
			StoredMessage.markReceived(dead, SENT + 100);
			assertThat(StoredMessage.read(StoredMessage.withoutOrigin(dead)).system().sentMillis()).isEqualTo(SENT);
		}
	}

	@Test
	void deadLetterOfADeadLetter_keepsOneOrigin_theLastQueueItLeft() {
		byte[] stored = StoredMessage.encode(OutgoingMessage.of(utf8("twice")), SENT, 0, 1024);

		byte[] twice = StoredMessage.deadLettered(StoredMessage.deadLettered(stored, "first", 2), "dlq", 1);

		StoredMessage read = StoredMessage.read(twice);
		assertThat(read.deadLetter()).isEqualTo(new DeadLetter("dlq", 1));
		assertThat(read.text()).isEqualTo("twice");
	}

	@Test
	void traceHeader_roundTrip_aloneAndBesideAGroup_costsNothingWhenAbsent() {
		String trace = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1";
		OutgoingMessage plain = OutgoingMessage.of(utf8("traced ✓"));
		OutgoingMessage traced = new OutgoingMessage(plain.body(), MessageAttributes.NONE, null, null, trace);
		OutgoingMessage grouped = new OutgoingMessage(utf8("both"),
				MessageAttributes.of(Map.of("k", Attribute.parse("String", "v"))), "group-1", "dedup-1", trace);

		byte[] stored = StoredMessage.encode(traced, SENT, 0, 1024);
		StoredMessage read = StoredMessage.read(stored);
		StoredMessage both = StoredMessage.read(StoredMessage.encode(grouped, SENT, 7, 1024));

		assertThat(read.text()).isEqualTo("traced ✓");
		assertThat(read.system()).isEqualTo(new SystemAttributes(SENT, 0, null, null, 0, trace));
		assertThat(both.system()).isEqualTo(new SystemAttributes(SENT, 0, "group-1", "dedup-1", 7, trace));
		assertThat(both.attributes().attributes()).containsOnlyKeys("k");
		assertThat(both.text()).isEqualTo("both");
		assertThat(stored).as("a flag bit, a 2-byte length and the UTF-8")
			.hasSize(StoredMessage.encode(plain, SENT, 0, 1024).length + 2 + trace.length());
		assertThat(StoredMessage.read(StoredMessage.encode(plain, SENT, 0, 1024)).system().traceHeader()).isNull();
	}

	@Test
	void traceHeader_notCountedAgainstTheSize_keptThroughFirstReceiveAndDeadLetterMoves() {
		String trace = "é".repeat(StoredMessage.MAX_TRACE_HEADER_BYTES / 2);
		OutgoingMessage message = new OutgoingMessage(utf8("x".repeat(1024)), MessageAttributes.NONE, null, null,
				trace);
		byte[] stored = StoredMessage.encode(message, SENT, 0, 1024);
		StoredMessage.markReceived(stored, SENT + 5);

		byte[] moved = StoredMessage.withoutOrigin(StoredMessage.deadLettered(stored, "source", 2));

		StoredMessage dead = StoredMessage.read(StoredMessage.deadLettered(stored, "source", 2));
		assertThat(dead.system().traceHeader()).isEqualTo(trace);
		assertThat(dead.system().firstReceivedMillis()).isEqualTo(SENT + 5);
		assertThat(StoredMessage.read(moved).system().traceHeader()).isEqualTo(trace);
		assertThat(StoredMessage.read(moved).text()).isEqualTo("x".repeat(1024));
		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> StoredMessage.encode(new OutgoingMessage(utf8("x"), MessageAttributes.NONE, null, null,
					"x".repeat(StoredMessage.MAX_TRACE_HEADER_BYTES + 1)), SENT, 0, 1024));
	}

	@Test
	void systemPrefix_twelveBytes_so100ByteMessageFitsA128ByteArray() {
		byte[] stored = StoredMessage.encode(OutgoingMessage.of(utf8("x".repeat(100))), SENT, 0, 1024);

		assertThat(stored).as("16 bytes of array header + 112: no padding").hasSize(112);
	}

	@Test
	void firstReceive_keptAsOffsetFromSent_clampedAtBothEnds() {
		byte[] early = StoredMessage.encode(OutgoingMessage.of(utf8("x")), SENT, 0, 1024);
		byte[] same = StoredMessage.encode(OutgoingMessage.of(utf8("x")), SENT, 0, 1024);
		byte[] late = StoredMessage.encode(OutgoingMessage.of(utf8("x")), SENT, 0, 1024);
		byte[] fourteenDays = StoredMessage.encode(OutgoingMessage.of(utf8("x")), SENT, 0, 1024);

		StoredMessage.markReceived(early, SENT - 1_000);
		StoredMessage.markReceived(same, SENT);
		StoredMessage.markReceived(late, SENT + StoredMessage.MAX_RECEIVE_OFFSET + 1_000);
		StoredMessage.markReceived(fourteenDays, SENT + 14L * 24 * 3600 * 1000);

		assertThat(StoredMessage.read(early).system().firstReceivedMillis()).as("a clock that stepped back")
			.isEqualTo(SENT);
		assertThat(StoredMessage.read(same).system().firstReceivedMillis()).as("received in the ms it was sent")
			.isEqualTo(SENT);
		assertThat(StoredMessage.read(late).system().firstReceivedMillis())
			.isEqualTo(SENT + StoredMessage.MAX_RECEIVE_OFFSET);
		assertThat(StoredMessage.read(fourteenDays).system().firstReceivedMillis())
			.isEqualTo(SENT + 14L * 24 * 3600 * 1000);
	}

	@Test
	void widePrefixWrittenBefore_stillRead_andItsFirstReceiveRecorded() {
		java.nio.ByteBuffer wide = java.nio.ByteBuffer.allocate(16 + 3)
			.put((byte) 0xFD)
			.put((byte) 0)
			.putShort((short) (SENT >>> 32))
			.putInt((int) SENT)
			.putLong(0)
			.put(utf8("old"));
		byte[] stored = wide.array();

		assertThat(StoredMessage.read(stored).system()).isEqualTo(new SystemAttributes(SENT, 0, null, null, 0));
		StoredMessage.markReceived(stored, SENT + 7);
		StoredMessage read = StoredMessage.read(stored);
		assertThat(read.system().firstReceivedMillis()).isEqualTo(SENT + 7);
		assertThat(read.text()).isEqualTo("old");
	}

	@Test
	void bytesWithoutASystemPrefix_readAsBefore_systemUnknown() {
		StoredMessage read = StoredMessage.read(utf8("written before the prefix existed"));

		assertThat(read.system()).isEqualTo(SystemAttributes.UNKNOWN);
		assertThat(read.text()).isEqualTo("written before the prefix existed");
	}

	private static byte[] utf8(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
