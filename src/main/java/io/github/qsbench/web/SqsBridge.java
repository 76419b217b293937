package io.github.qsbench.web;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

import io.github.qsbench.core.CapacityExceededException;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.Lease;
import io.github.qsbench.core.Message;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.QueueStats;
import io.github.qsbench.metrics.QueueMetrics;
import io.github.qsbench.web.LongPolls.Waiter;

import org.springframework.stereotype.Component;

/**
 * TEMPORARY until the application layer of issue 18 lands: the queue work the SQS face
 * needs, with the metrics and long-poll wake-ups the controller does around each core
 * call.
 */
@Component
public class SqsBridge {

	private final QueueServiceCore service;

	private final QueueMetrics metrics;

	private final LongPolls longPolls;

	SqsBridge(QueueServiceCore service, QueueMetrics metrics, LongPolls longPolls) {
		this.service = service;
		this.metrics = metrics;
		this.longPolls = longPolls;
	}

	public Message push(String queue, byte[] body) {
		return pushAll(queue, List.of(body)).get(0);
	}

	public List<Message> pushAll(String queue, List<byte[]> bodies) {
		List<Message> messages;
		try {
			messages = this.service.pushAll(queue, bodies);
		}
		catch (CapacityExceededException ex) {
			this.metrics.refused(ex.limit());
			throw ex;
		}
		this.metrics.pushed(messages.size());
		this.longPolls.pushed(queue);
		return messages;
	}

	public List<Lease> lease(String queue, int max) {
		return delivered(this.service.lease(queue, max));
	}

	/**
	 * @return what cancels the wait
	 */
	public Runnable await(String queue, int max, Duration wait, Consumer<List<Lease>> answer) {
		Waiter waiter = new Waiter(queue, max, leases -> answer.accept(delivered(leases)));
		this.longPolls.await(waiter, wait);
		return () -> this.longPolls.close(waiter);
	}

	private List<Lease> delivered(List<Lease> leases) {
		if (leases.isEmpty()) {
			this.metrics.emptyPoll();
		}
		else {
			this.metrics.delivered(leases);
		}
		return leases;
	}

	public Completion complete(String queue, long id, int delivery) {
		Completion completion = this.service.complete(queue, id, delivery);
		if (completion == Completion.COMPLETED) {
			this.metrics.completed(1);
		}
		return completion;
	}

	public Optional<QueueStats> queue(String name) {
		return this.service.queue(name);
	}

	public List<QueueStats> queues() {
		return this.service.queues();
	}

}
