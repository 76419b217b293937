package io.github.qsbench.web;

import java.util.List;

import io.github.qsbench.core.Lease;
import io.github.qsbench.core.Message;
import io.github.qsbench.core.QueueStats;

/** The JSON bodies of the API. */
final class MessageResponses {

	private MessageResponses() {
	}

	/** The answer to a push. */
	record Pushed(long id, String queue) {

		static Pushed of(Message message) {
			return new Pushed(message.id(), message.queue());
		}

	}

	/**
	 * The answer to a poll that delivered a message; {@code lease} names this delivery
	 * (also sent as the {@code ETag}).
	 */
	record Delivered(long id, String queue, String body, int deliveries, String lease) {

		static Delivered of(Lease lease) {
			Message message = lease.message();
			return new Delivered(message.id(), message.queue(), message.body(), lease.delivery(),
					Leases.token(lease.delivery()));
		}

	}

	/** The answer to a listing of queues. */
	record Queues(List<QueueStats> queues) {
	}

}
