package io.github.qsbench.application;

/**
 * What a send answers: the message's id, and for a FIFO queue its sequence number (a send
 * deduplicated within the window answers the original's id and sequence number).
 *
 * @param sequenceNumber a FIFO message's sequence number, 0 on a standard queue
 */
public record Sent(long id, long sequenceNumber) {

	/** The sequence number as SQS writes it: 20 digits. */
	public String sequenceText() {
		return sequenceText(this.sequenceNumber);
	}

	static String sequenceText(long sequenceNumber) {
		return String.format("%020d", sequenceNumber);
	}

}
