package io.github.qsbench.application;

/**
 * A message as a producer sends it, read from the wire by an adapter: its body (UTF-8,
 * checked by the adapter that read it), its attributes, and for a FIFO queue its group
 * and deduplication id.
 *
 * @param group the message group: required on a FIFO queue, accepted and not used for
 * ordering on a standard one (SQS's fair queues); {@code null} for none
 * @param deduplicationId a FIFO message's deduplication id, {@code null} for none (then
 * the queue must deduplicate by content)
 */
public record OutgoingMessage(byte[] body, MessageAttributes attributes, String group, String deduplicationId) {

	/** A message that is only its body. */
	public static OutgoingMessage of(byte[] body) {
		return new OutgoingMessage(body, MessageAttributes.NONE, null, null);
	}

}
