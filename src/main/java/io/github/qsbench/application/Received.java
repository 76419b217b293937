package io.github.qsbench.application;

import io.github.qsbench.core.Lease;

/**
 * One message delivered to one consumer: the core's lease (its id, this delivery's
 * number, from which the lease token is made: {@link LeaseTokens#token}) and the message
 * as it was sent ({@link StoredMessage}).
 */
public record Received(Lease lease, StoredMessage message) {

	public long id() {
		return this.lease.message().id();
	}

	/** This delivery's number, 1 for the first. */
	public int delivery() {
		return this.lease.delivery();
	}

}
