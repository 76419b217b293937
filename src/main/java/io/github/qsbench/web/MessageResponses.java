package io.github.qsbench.web;

import java.util.List;

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

	/** The answer to a poll that delivered a message. */
	record Delivered(long id, String queue, String body, int deliveries) {

		static Delivered of(Message message) {
			return new Delivered(message.id(), message.queue(), message.body(), message.deliveries());
		}

	}

	/** The answer to a listing of queues. */
	record Queues(List<QueueStats> queues) {
	}

}
