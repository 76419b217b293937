package io.github.qsbench.web;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;

import io.github.qsbench.config.QueueServiceProperties;
import io.github.qsbench.core.AbstractQS;
import io.github.qsbench.core.CapacityExceededException;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.Message;
import io.github.qsbench.core.QueueStats;
import io.github.qsbench.metrics.QueueMetrics;
import io.github.qsbench.web.MessageResponses.Delivered;
import io.github.qsbench.web.MessageResponses.Pushed;
import io.github.qsbench.web.MessageResponses.Queues;
import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** The queue API: push, poll, complete by id, and queue listings. */
@RestController
@RequestMapping("/queues")
class QueueController {

	private final AbstractQS<?> service;

	private final QueueMetrics metrics;

	private final int maxMessageBytes;

	QueueController(AbstractQS<?> service, QueueMetrics metrics, QueueServiceProperties properties) {
		this.service = service;
		this.metrics = metrics;
		this.maxMessageBytes = (int) properties.maxMessageSize().toBytes();
	}

	@PostMapping("/{queue}/messages")
	ResponseEntity<Pushed> push(@PathVariable String queue, HttpServletRequest request) throws IOException {
		RequestValidation.queueName(queue);
		String body;
		try (InputStream in = request.getInputStream()) {
			body = RequestValidation.body(in, request.getContentLengthLong(), this.maxMessageBytes);
		}
		Message message;
		try {
			message = this.service.push(queue, body);
		}
		catch (CapacityExceededException ex) {
			this.metrics.refused(ex.limit());
			throw ApiProblem.full(ex);
		}
		this.metrics.pushed();
		return ResponseEntity.created(URI.create("/queues/" + queue + "/messages/" + message.id()))
			.body(Pushed.of(message));
	}

	@GetMapping("/{queue}/messages")
	ResponseEntity<Delivered> poll(@PathVariable String queue) {
		RequestValidation.queueName(queue);
		return this.service.poll(queue).map(message -> {
			this.metrics.delivered(message);
			return ResponseEntity.ok(Delivered.of(message));
		}).orElseGet(() -> {
			this.metrics.emptyPoll();
			return ResponseEntity.noContent().build();
		});
	}

	@DeleteMapping("/{queue}/messages/{id}")
	ResponseEntity<Void> complete(@PathVariable String queue, @PathVariable String id) {
		RequestValidation.queueName(queue);
		long messageId = RequestValidation.messageId(id);
		Completion completion = this.service.complete(queue, messageId);
		return switch (completion) {
			case COMPLETED -> {
				this.metrics.completed();
				yield ResponseEntity.noContent().build();
			}
			case NOT_FOUND -> throw ApiProblem.notFound("No such message", "Queue '" + queue
					+ "' holds no message " + messageId + ": it never existed there or was completed already.");
			case NOT_DELIVERED -> throw ApiProblem.conflict("Message not delivered",
					"Message " + messageId + " has not been polled yet; only a delivered message can be completed.");
		};
	}

	@GetMapping
	Queues queues() {
		return new Queues(this.service.queues());
	}

	@GetMapping("/{queue}")
	QueueStats queue(@PathVariable String queue) {
		RequestValidation.queueName(queue);
		return this.service.queue(queue)
			.orElseThrow(() -> ApiProblem.notFound("No such queue",
					"Queue '" + queue + "' does not exist: it was never pushed to, or it was emptied and removed."));
	}

}
