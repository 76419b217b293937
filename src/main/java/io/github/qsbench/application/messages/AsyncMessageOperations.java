package io.github.qsbench.application.messages;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import io.github.qsbench.application.Checks;
import io.github.qsbench.application.InvalidRequestException;
import io.github.qsbench.application.LeaseTokens;
import io.github.qsbench.application.OutgoingMessage;
import io.github.qsbench.application.QueueEvents;
import io.github.qsbench.application.QueueNames;
import io.github.qsbench.application.Received;
import io.github.qsbench.application.Sent;
import io.github.qsbench.application.StoredMessage;
import io.github.qsbench.application.fair.FairQueues;
import io.github.qsbench.application.messages.MessageOperations.BatchEntry;
import io.github.qsbench.application.queues.Settings;
import io.github.qsbench.core.AsyncCore;
import io.github.qsbench.core.CapacityExceededException;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.Lease;
import io.github.qsbench.core.Message;

/**
 * {@link MessageOperations}' push, lease and completion for a caller that must not wait
 * for the store (Jetty's selector): each returns before the store answers, and its stage
 * completes on the store's thread, with what the blocking call returns or throws. They
 * serve only a queue that {@link #answers}: a store across the network
 * ({@link AsyncCore}) and a plain queue or a fair one, so that a call is one call of the
 * store, or a lease and the release of a fair queue's held messages chained on the
 * store's thread, and the answer needs nothing more from it. Checks, counting and the
 * conversions are the blocking calls' own, through {@link MessageOperations}.
 */
public final class AsyncMessageOperations {

	private final MessageOperations operations;

	/**
	 * The core's asynchronous calls ({@code QueueServiceCore#async}), or {@code null}.
	 */
	private final AsyncCore async;

	private final QueueEvents events;

	private final Settings settings;

	private final LongPolls longPolls;

	private final FairQueues fair;

	AsyncMessageOperations(MessageOperations operations, AsyncCore async, QueueEvents events, Settings settings,
			LongPolls longPolls, FairQueues fair) {
		this.operations = operations;
		this.async = async;
		this.events = events;
		this.settings = settings;
		this.longPolls = longPolls;
		this.fair = fair;
	}

	/**
	 * Whether {@link #push}, {@link #lease} and {@link #complete} may serve the queue:
	 * the core has asynchronous calls (its store is across the network) and the queue is
	 * plain or fair, as this instance knows without asking the store: standard, without a
	 * delay or a dead-letter queue, its settings in memory, and either without groups or
	 * with groups whose store answers without waiting too
	 * ({@link FairQueues#knownAsync}). Else the blocking methods serve it, on a thread
	 * that may wait.
	 */
	public boolean answers(String queue) {
		return this.async != null && !QueueNames.isFifo(queue)
				&& (this.fair.knownPlain(queue) || this.fair.knownAsync(queue)) && this.settings.plainInMemory(queue);
	}

	/**
	 * {@link MessageOperations#push} on a queue that {@link #answers}: the stage
	 * completes (or fails with what the blocking call throws) on the store's thread, and
	 * long polls are woken from the timer's, since that thread must not wait for the
	 * store.
	 */
	public CompletableFuture<Sent> push(String queue, byte[] body) {
		Checks.queueName(queue);
		byte[] stored = StoredMessage.encode(OutgoingMessage.of(body), this.operations.now(), 0,
				this.settings.maxMessageBytes(queue));
		return this.async.push(queue, stored).handle((message, failure) -> {
			pushed(queue, 1, failure);
			return new Sent(message.id(), 0);
		});
	}

	/**
	 * {@link MessageOperations#sendAll} with the queue's delay on a queue that
	 * {@link #answers}, as {@link #push} does; {@code null} when a message has a group
	 * and the queue is not known to have groups ({@link FairQueues#knownAsync}): the
	 * blocking call then makes that first grouped push, and learns the queue.
	 * @throws InvalidRequestException as the blocking call, before anything is sent
	 */
	public CompletableFuture<List<Sent>> sendAll(String queue, List<OutgoingMessage> messages) {
		Checks.queueName(queue);
		Checks.batch(messages.size());
		boolean grouped = MessageOperations.grouped(queue, messages);
		if (grouped && !this.fair.knownAsync(queue)) {
			return null;
		}
		List<byte[]> stored = this.operations.stored(messages, this.settings.maxMessageBytes(queue));
		CompletableFuture<List<Message>> sent = grouped ? this.fair.pushAsync(queue, messages, stored)
				: this.async.pushAll(queue, stored);
		return sent.handle((pushed, failure) -> {
			pushed(queue, stored.size(), failure);
			return MessageOperations.sent(pushed);
		});
	}

	/**
	 * Counts an asynchronous push and wakes the queue's long polls from the timer's
	 * thread; throws the cause if it failed.
	 */
	private void pushed(String queue, int count, Throwable failure) {
		if (failure != null) {
			throw refused(failure);
		}
		this.events.pushed(count);
		this.longPolls.pushedLater(queue);
	}

	/**
	 * A failed push's cause, counted as refused if a cap refused it: a stage's failure
	 * arrives wrapped.
	 */
	private RuntimeException refused(Throwable failure) {
		Throwable cause = AsyncCore.cause(failure);
		if (cause instanceof CapacityExceededException ex) {
			this.events.refused(ex.limit());
		}
		return (cause instanceof RuntimeException ex) ? ex : new CompletionException(cause);
	}

	/**
	 * {@link MessageOperations#lease(String, int, Integer)}, or with a {@code wait} the
	 * first look of {@link MessageOperations#awaitLease(String, int, Duration, Integer)},
	 * on a queue that {@link #answers}, as {@link #push} does: the deliveries when
	 * messages are ready or {@code wait} is zero, counted as {@code awaitLease} counts
	 * them; else none, not counted as an empty poll, and the caller then waits with
	 * {@code awaitLease}, which looks again. On a fair queue, a lease that finds fewer
	 * than {@code max} releases held messages and leases again, as the blocking call
	 * does, each call sent from the store's thread when the one before is answered.
	 */
	public CompletableFuture<List<Received>> lease(String queue, int max, Duration wait, Integer leaseSeconds) {
		Checks.queueName(queue);
		Checks.max(max);
		MessageOperations.checkWait(wait);
		long leaseMillis = this.settings.leaseMillis(queue, leaseSeconds);
		CompletableFuture<List<Lease>> leased = this.async.lease(queue, max, leaseMillis);
		if (this.fair.knownAsync(queue)) {
			leased = leased.thenCompose(leases -> (leases.size() < max)
					? this.fair.releaseAsync(queue, max - leases.size(), leaseMillis)
						.thenApply(released -> MessageOperations.joined(leases, released))
					: CompletableFuture.completedFuture(leases));
		}
		return leased.thenApply(leases -> {
			if (!leases.isEmpty() || wait.isZero()) {
				this.operations.counted(leases);
			}
			return this.operations.deliveries(queue, leases, false);
		});
	}

	/**
	 * {@link MessageOperations#complete} on a queue that {@link #answers}, as
	 * {@link #push} does.
	 */
	public CompletableFuture<Completion> complete(String queue, long id, String lease) {
		Checks.queueName(queue);
		int delivery = LeaseTokens.delivery(lease, id);
		CompletableFuture<Completion> completed = this.fair.knownAsync(queue)
				? this.fair.completeAsync(queue, new long[] { id }, new int[] { delivery })
					.thenApply(completions -> completions.get(0))
				: this.async.complete(queue, id, delivery);
		return completed.thenApply(completion -> {
			if (completion == Completion.COMPLETED) {
				this.events.completed(1);
			}
			return completion;
		});
	}

	/**
	 * {@link MessageOperations#completeAll} on a queue that {@link #answers}, as
	 * {@link #push} does.
	 * @throws InvalidRequestException as the blocking call, before anything is sent
	 */
	public CompletableFuture<List<Completion>> completeAll(String queue, List<BatchEntry> entries) {
		Checks.queueName(queue);
		Checks.batch(entries.size());
		long[] ids = MessageOperations.ids(entries);
		int[] deliveries = MessageOperations.deliveries(entries);
		CompletableFuture<List<Completion>> completed = this.fair.knownAsync(queue)
				? this.fair.completeAsync(queue, ids, deliveries) : this.async.completeAll(queue, ids, deliveries);
		return completed.thenApply((completions) -> {
			this.events.completed(Collections.frequency(completions, Completion.COMPLETED));
			return completions;
		});
	}

}
