package io.github.qsbench.application;

/**
 * A message as a producer sends it, read from the wire by an adapter: its body (UTF-8,
 * checked by the adapter that read it), its attributes, for a FIFO queue its group and
 * deduplication id, and the trace header an SQS send may carry.
 *
 * @param group the message group: required on a FIFO queue, accepted and not used for
 * ordering on a standard one (SQS's fair queues); {@code null} for none
 * @param deduplicationId a FIFO message's deduplication id, {@code null} for none (then
 * the queue must deduplicate by content)
 * @param traceHeader SQS's {@code AWSTraceHeader} system attribute, kept with the message
 * and not counted against its size, as SQS keeps it; {@code null} for none
 */
public record OutgoingMessage(byte[] body, MessageAttributes attributes, String group, String deduplicationId,
		String traceHeader) {

	/** A message without a trace header, as the REST API sends every message. */
	public OutgoingMessage(byte[] body, MessageAttributes attributes, String group, String deduplicationId) {
		this(body, attributes, group, deduplicationId, null);
	}

	/**
	 * What SQS allows as a message group id, a deduplication id and a receive request
	 * attempt id: 1 to 128 of ASCII's letters, digits and punctuation. Each face refuses
	 * another in its own words ({@link #isValidId}).
	 */
	public static final String ID_PATTERN = "^[!-~]{1,128}$";

	/** Whether {@code id} matches {@link #ID_PATTERN}. */
	public static boolean isValidId(String id) {
		if (id.isEmpty() || id.length() > 128) {
			return false;
		}
		for (int i = 0; i < id.length(); i++) {
			if (id.charAt(i) <= ' ' || id.charAt(i) > '~') {
				return false;
			}
		}
		return true;
	}

	/** A message that is only its body. */
	public static OutgoingMessage of(byte[] body) {
		return new OutgoingMessage(body, MessageAttributes.NONE, null, null);
	}

	/** This message with {@code deduplicationId} in place of its own, all else kept. */
	public OutgoingMessage withDeduplicationId(String deduplicationId) {
		return new OutgoingMessage(this.body, this.attributes, this.group, deduplicationId, this.traceHeader);
	}

}
