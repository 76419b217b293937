package io.github.qsbench.application;

/**
 * The application layer's checks of what the core takes for granted, each refusing with
 * an {@link InvalidRequestException} before the core is called: names as
 * {@link QueueNames} has them, counts and times within {@link Limits}.
 */
public final class Checks {

	private Checks() {
	}

	public static void queueName(String name) {
		if (!QueueNames.isQueueName(name)) {
			throw new InvalidRequestException("Invalid queue name",
					"A queue name is 1 to 80 characters of A-Z, a-z, 0-9, '_' and '-'.");
		}
	}

	/** A count of messages to lease or browse. */
	public static void max(int max) {
		if (max < 1 || max > Limits.MAX_BATCH) {
			throw InvalidRequestException.outOfRange("max", 1, Limits.MAX_BATCH);
		}
	}

	public static void batch(int entries) {
		if (entries < 1 || entries > Limits.MAX_BATCH) {
			throw new InvalidRequestException("Invalid batch",
					"A batch holds 1 to " + Limits.MAX_BATCH + " entries; this one holds " + entries + ".");
		}
	}

	public static long leaseSeconds(long leaseSeconds) {
		if (leaseSeconds < 0 || leaseSeconds > Limits.MAX_LEASE_SECONDS) {
			throw InvalidRequestException.outOfRange("leaseSeconds", 0, Limits.MAX_LEASE_SECONDS);
		}
		return leaseSeconds;
	}

	public static int delaySeconds(int delaySeconds) {
		if (delaySeconds < 0 || delaySeconds > Limits.MAX_DELAY_SECONDS) {
			throw InvalidRequestException.outOfRange("delaySeconds", 0, Limits.MAX_DELAY_SECONDS);
		}
		return delaySeconds;
	}

}
