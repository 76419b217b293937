package io.github.qsbench.core.thesis;

import io.github.qsbench.core.ByIdOperation;
import io.github.qsbench.core.ByIdOutcome;
import io.github.qsbench.core.Capacity;
import io.github.qsbench.core.CapacityExceededException;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.Eviction;
import io.github.qsbench.core.Lease;
import io.github.qsbench.core.Message;
import io.github.qsbench.core.Peeked;
import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.QueueStats;
import io.github.qsbench.core.shared.IdIndex;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The queue service framework of the thesis (section 3.1.3): one map from queue name to
 * queue, queues that come and go, and messages that stay in their queue while in flight.
 * A subclass only chooses the building blocks ({@link QSConfiguration}); everything here
 * is the same for all.
 *
 * <p>
 * Thread safety comes entirely from the {@link Lockable} accesses. A queue is only
 * touched inside an access of the map, so locks are taken in one order (map, then queue)
 * and a strategy may leave queues unguarded when its map access already serializes
 * everything ({@code SynchronizedQS}). A queue's id index and counts live in the queue
 * and share its guard.
 *
 * <p>
 * Operations that only find a queue to act on it (poll, lease, complete, a queue's stats)
 * find it with {@link Lockable#lookup}, which keeps the queue access inside the map's
 * read access for every lockable but a {@link Lockable#stamped} one: there the lookup is
 * optimistic and the queue is touched after it, guarded by its own lock. That is safe
 * because a queue is removed only while empty, under the map's write access, and nothing
 * is ever appended to a removed queue (a push appends inside an access of the map that
 * excludes its write access); so an operation that acts on a queue just removed finds it
 * empty, as it would have found the queue a moment earlier.
 *
 * <p>
 * Two settings. The thesis's ({@code idLookup} off, no limits): exactly its framework,
 * what the JMH study measures. The service's ({@code idLookup} on): each queue also
 * indexes its messages by id and keeps counts, completion is by id and lease, a completed
 * message is dropped from the head of its queue at once, and the caps are charged until a
 * message really leaves memory.
 */
public abstract class AbstractQS<M extends AbstractMessage> implements QueueServiceCore {

	/** A walk or completion that left the queue empty: a reason to try removing it. */
	private static final Object QUEUE_EMPTY = new Object();

	private final AbstractMessage.Factory<M> messages;

	private final Lockable<Map<String, Lockable<MessageQueue<M>>>> map;

	private final Supplier<Deque<M>> deques;

	private final Function<MessageQueue<M>, Lockable<MessageQueue<M>>> guard;

	/** Makes each queue's index; {@code null} in the thesis's setting. */
	private final Supplier<IdIndex<M>> indexes;

	/**
	 * Caps on what is held; {@code null} when unlimited, so the thesis's setting pays
	 * nothing.
	 */
	private final Capacity capacity;

	/** Messages pushed and not completed; {@code null} in the thesis's setting. */
	private final LongAdder held;

	private final InstantSource clock;

	private final long leaseMillis;

	private final boolean lazyEviction;

	/** See {@link QSConfiguration#readThenWritePush(boolean)}. */
	private final boolean readThenWritePush;

	private final AtomicLong lastId = new AtomicLong();

	protected AbstractQS(QSConfiguration<M> configuration, QueueOptions options) {
		this.messages = configuration.messages();
		this.map = Objects.requireNonNull(configuration.map(), "map");
		this.deques = Objects.requireNonNull(configuration.deques(), "deques");
		this.guard = Objects.requireNonNull(configuration.guard(), "guard");
		this.indexes = options.idLookup() ? Objects.requireNonNull(configuration.index(), "index") : null;
		this.capacity = options.limits().equals(Capacity.Limits.UNLIMITED) ? null : new Capacity(options.limits());
		this.held = options.idLookup() ? new LongAdder() : null;
		this.clock = options.clock();
		this.leaseMillis = options.leaseTimeout().toMillis();
		this.lazyEviction = options.eviction() == Eviction.LAZY;
		this.readThenWritePush = configuration.readThenWritePush();
		if (this.readThenWritePush && this.map instanceof Lockable.Unguarded) {
			// its read access would not keep a queue from being removed under the push
			throw new IllegalArgumentException("read-then-write push needs a map whose read access excludes writes");
		}
	}

	/**
	 * Creates the message, then indexes and appends it inside one write access of the map
	 * ({@code compute}), so a queue being removed as empty cannot swallow it, and no
	 * consumer can poll a message it could not then complete by id. With
	 * {@link QSConfiguration#readThenWritePush(boolean)} an existing queue is appended to
	 * under read access of the map instead.
	 * @throws CapacityExceededException if a cap is reached; nothing was pushed
	 */
	@Override
	public Message push(String queue, byte[] body) {
		long charge = reserve(body);
		M message = this.messages.create(this.lastId.incrementAndGet(), body);
		try {
			if (this.readThenWritePush && appendIfPresent(queue, 1, q -> q.add(message))) {
				return pushed(message);
			}
			this.map.write(queues -> queues.compute(queue, (name, existing) -> {
				Lockable<MessageQueue<M>> target = (existing != null) ? existing : createQueue(name);
				target.write(q -> {
					checkRoom(q, 1);
					q.add(message);
					return null;
				});
				return target;
			}));
		}
		catch (CapacityExceededException ex) {
			unreserve(charge);
			throw ex;
		}
		return pushed(message);
	}

	private M pushed(M message) {
		if (this.held != null) {
			this.held.increment();
		}
		return message;
	}

	/**
	 * Pushes all bodies to one queue, in order, or none of them if a cap would be
	 * exceeded.
	 * @throws CapacityExceededException if a cap is reached; nothing was pushed
	 */
	public List<Message> pushAll(String queue, List<byte[]> bodies) {
		return pushAll(queue, bodies, 0);
	}

	/**
	 * Pushes as {@link #pushAll(String, List)} does; a delayed message is a message never
	 * delivered whose lease (its delay) has not ended, so a walk passes it by as it
	 * passes a message in flight.
	 * @throws CapacityExceededException if a cap is reached; nothing was pushed
	 */
	@Override
	public List<Message> pushAll(String queue, List<byte[]> bodies, long delayMillis) {
		long charge = (this.capacity != null) ? this.capacity.reserve(bodies) : 0;
		long due = (delayMillis > 0) ? this.clock.millis() + delayMillis : 0;
		List<M> created = new ArrayList<>(bodies.size());
		for (byte[] body : bodies) {
			M message = this.messages.create(this.lastId.incrementAndGet(), body);
			if (due > 0) {
				message.delayUntil(due);
			}
			created.add(message);
		}
		Consumer<MessageQueue<M>> append = (due > 0) ? q -> {
			q.delaying(due);
			created.forEach(q::add);
		} : q -> created.forEach(q::add);
		try {
			if (this.readThenWritePush && appendIfPresent(queue, created.size(), append)) {
				return pushed(created);
			}
			this.map.write(queues -> queues.compute(queue, (name, existing) -> {
				if (existing == null && this.capacity != null) {
					this.capacity.checkQueue(0, created.size());
				}
				Lockable<MessageQueue<M>> target = (existing != null) ? existing : createQueue(name);
				target.write(q -> {
					checkRoom(q, created.size());
					append.accept(q);
					return null;
				});
				return target;
			}));
		}
		catch (CapacityExceededException ex) {
			unreserve(charge);
			throw ex;
		}
		return pushed(created);
	}

	private List<Message> pushed(List<M> created) {
		if (this.held != null) {
			this.held.add(created.size());
		}
		return List.copyOf(created);
	}

	/**
	 * The read-then-write push (thesis 5.2.3.3): finds the queue under read access of the
	 * map and appends under write access of the queue, nested, so that removing the queue
	 * (which needs the map's write access) waits until the append is done and then finds
	 * the queue not empty. Without the nesting, a queue emptied and removed between the
	 * lookup and the append would swallow the message.
	 * @return whether the queue existed and got the messages; if not, nothing was done
	 */
	private boolean appendIfPresent(String queue, int adding, Consumer<MessageQueue<M>> append) {
		return this.map.read(queues -> {
			Lockable<MessageQueue<M>> target = queues.get(queue);
			if (target == null) {
				return false;
			}
			target.write(q -> {
				checkRoom(q, adding);
				append.accept(q);
				return null;
			});
			return true;
		});
	}

	private long reserve(byte[] body) {
		return (this.capacity != null) ? this.capacity.reserve(body) : 0;
	}

	private void unreserve(long charge) {
		if (this.capacity != null) {
			this.capacity.releaseBytes(charge);
		}
	}

	private Lockable<MessageQueue<M>> createQueue(String name) {
		if (this.capacity != null) {
			this.capacity.reserveQueue();
		}
		IdIndex<M> index = (this.indexes != null) ? this.indexes.get() : null;
		return this.guard.apply(new MessageQueue<>(name, this.deques.get(), index));
	}

	private void checkRoom(MessageQueue<M> queue, int adding) {
		if (this.capacity != null) {
			this.capacity.checkQueue(queue.size(), adding);
		}
	}

	/**
	 * Walks the queue from its head and grabs the first message that is ready or whose
	 * lease expired. With lazy eviction the walk removes completed messages, so it needs
	 * write access to the queue; with eager eviction it only reads. A walk that leaves
	 * the queue empty is followed by an attempt to remove the queue.
	 */
	@Override
	@SuppressWarnings("unchecked")
	public Optional<Message> poll(String queue) {
		long now = this.clock.millis();
		Object found = this.map.lookup(queue, Map::get, target -> {
			if (target == null) {
				return null;
			}
			return this.lazyEviction ? target.write(q -> grabFirst(q, now)) : target.read(q -> grabFirst(q, now));
		});
		if (found == QUEUE_EMPTY) {
			removeIfEmpty(queue);
			return Optional.empty();
		}
		return Optional.ofNullable((M) found);
	}

	private Object grabFirst(MessageQueue<M> queue, long now) {
		for (Iterator<M> it = queue.messages.iterator(); it.hasNext();) {
			M message = it.next();
			if (step(queue, it, message, now, this.leaseMillis) > 0) {
				return message;
			}
		}
		return queue.messages.isEmpty() ? QUEUE_EMPTY : null;
	}

	/**
	 * Leases up to {@code max} messages of one queue to the caller, in queue order, in
	 * one walk like {@link #poll(String)}'s. Each lease carries the number of its
	 * delivery, read while the queue's guard was held (for a lock-free message: right
	 * after its compare-and-set, so it is exact unless the lease lapses in between).
	 * @return the leases, none if nothing is ready
	 * @throws IllegalStateException if this service was built without id lookup
	 */
	public List<Lease> lease(String queue, int max) {
		return lease(queue, max, this.leaseMillis);
	}

	@Override
	public List<Lease> lease(String queue, int max, long leaseMillis) {
		QueueOptions.requireIdLookup(this.indexes != null);
		long now = this.clock.millis();
		List<Lease> leases = new ArrayList<>(Math.min(max, 16));
		Object emptied = this.map.lookup(queue, Map::get, target -> {
			if (target == null) {
				return null;
			}
			return this.lazyEviction ? target.write(q -> grabUpTo(q, now, leaseMillis, max, leases))
					: target.read(q -> grabUpTo(q, now, leaseMillis, max, leases));
		});
		if (emptied == QUEUE_EMPTY) {
			removeIfEmpty(queue);
		}
		return leases;
	}

	private Object grabUpTo(MessageQueue<M> queue, long now, long leaseMillis, int max, List<Lease> leases) {
		for (Iterator<M> it = queue.messages.iterator(); it.hasNext();) {
			M message = it.next();
			int delivery = step(queue, it, message, now, leaseMillis);
			if (delivery > 0) {
				leases.add(new Lease(message, delivery));
				if (leases.size() == max) {
					return null;
				}
			}
		}
		return queue.messages.isEmpty() ? QUEUE_EMPTY : null;
	}

	/**
	 * One step of a walk: grabs the message, or evicts it if it is completed and eviction
	 * is lazy.
	 * @return the number of the delivery if grabbed (read at once with id lookup; without
	 * it nobody asks, and 1 stands for any), else 0
	 */
	private int step(MessageQueue<M> queue, Iterator<M> it, M message, long now, long leaseMillis) {
		Grab grab = message.tryGrab(now, leaseMillis);
		if (grab == Grab.GRABBED) {
			if (!queue.counted()) {
				return 1;
			}
			int delivery = message.deliveries();
			if (delivery == 1) {
				queue.firstDelivery();
			}
			return delivery;
		}
		if (grab == Grab.DECLINED_COMPLETED && this.lazyEviction && queue.unlink(it, message)) {
			evicted(queue, message);
		}
		return 0;
	}

	/**
	 * Accounts for a message that left its queue; called only by the one removal that
	 * took it out (see {@link MessageQueue#unlink}).
	 */
	private void evicted(MessageQueue<M> queue, M message) {
		if (queue.counted()) {
			queue.evictedOne();
			if (this.capacity != null) {
				this.capacity.release(message.body());
			}
		}
	}

	/**
	 * One write access of the map; the queue goes only if a read access confirms it is
	 * still empty.
	 */
	private void removeIfEmpty(String queue) {
		this.map.write(queues -> queues.computeIfPresent(queue, (name, target) -> {
			if (!target.read(q -> q.messages.isEmpty())) {
				return target;
			}
			if (this.capacity != null) {
				this.capacity.releaseQueue();
			}
			return null;
		}));
	}

	/**
	 * Completes a message this service delivered, whichever its current delivery. In the
	 * thesis's setting it is marked under write access of its queue (and removed from it
	 * at once with eager eviction); in the service's, as
	 * {@link #complete(String, long, int)} with any delivery.
	 */
	@Override
	public boolean complete(String queue, Message message) {
		if (this.indexes != null) {
			return complete(queue, message.id(), QueueServiceCore.ANY_DELIVERY) == Completion.COMPLETED;
		}
		@SuppressWarnings("unchecked")
		M own = (M) message;
		// no queue: it was emptied, so the message was completed and evicted already
		Object marked = this.map.lookup(queue, Map::get,
				target -> (target != null) ? target.write(q -> mark(q, own)) : Boolean.FALSE);
		if (marked == QUEUE_EMPTY) {
			removeIfEmpty(queue);
		}
		return marked != Boolean.FALSE;
	}

	private Object mark(MessageQueue<M> queue, M message) {
		if (!message.complete()) {
			return Boolean.FALSE;
		}
		if (this.lazyEviction) {
			return Boolean.TRUE;
		}
		queue.messages.remove(message);
		return queue.messages.isEmpty() ? QUEUE_EMPTY : Boolean.TRUE;
	}

	/** Completes the message with that id, whichever its current delivery. */
	public Completion complete(String queue, long id) {
		return complete(queue, id, QueueServiceCore.ANY_DELIVERY);
	}

	/**
	 * Completes the message with that id if it is held in that queue, was delivered, and
	 * {@code delivery} is its current delivery (or
	 * {@link QueueServiceCore#ANY_DELIVERY}). The check and the completion happen in one
	 * access of the queue, so a redelivery cannot slip in between under a strategy that
	 * serializes its queues; under a lock-free one the message's compare-and-set decides.
	 * Removing the id from the index decides between two racing completions, so
	 * completion by id is exactly-once for every strategy. The index finds the message
	 * without a scan; with lazy eviction nothing scans the queue, with eager eviction
	 * removing the message from its deque does (from the head, as far as its position).
	 * @throws IllegalStateException if this service was built without id lookup
	 */
	public Completion complete(String queue, long id, int delivery) {
		QueueOptions.requireIdLookup(this.indexes != null);
		Object completion = this.map.lookup(queue, Map::get,
				target -> (target != null) ? target.write(q -> completeIn(q, id, delivery)) : Completion.NOT_FOUND);
		if (completion == QUEUE_EMPTY) {
			removeIfEmpty(queue);
			return Completion.COMPLETED;
		}
		return (Completion) completion;
	}

	/**
	 * Each operation under write access of the message's queue, as a completion: the
	 * message's own change decides between it and a racing completion.
	 */
	@Override
	public ByIdOutcome byId(String queue, long id, ByIdOperation operation, int delivery, long leaseMillis) {
		QueueOptions.requireIdLookup(this.indexes != null);
		return switch (operation) {
			case CHANGE_LEASE -> changeLease(queue, id, delivery, leaseMillis);
			case DISCARD -> discard(queue, id);
			case END_DELAY -> endDelay(queue, id);
		};
	}

	/**
	 * Leases are in the messages, and a walk grabs any message whose lease ended, so a
	 * change is the message's own, under write access of its queue as a completion.
	 */
	private ByIdOutcome changeLease(String queue, long id, int delivery, long leaseMillis) {
		long leaseEnd = this.clock.millis() + leaseMillis;
		return this.map.lookup(queue, Map::get, target -> (target != null) ? target.write(q -> {
			M message = q.index.get(id);
			return (message != null) ? message.changeLease(delivery, leaseEnd) : ByIdOutcome.NOT_FOUND;
		}) : ByIdOutcome.NOT_FOUND);
	}

	private Object completeIn(MessageQueue<M> queue, long id, int delivery) {
		M message = queue.index.get(id);
		if (message == null) {
			return Completion.NOT_FOUND;
		}
		Completion completion = message.complete(delivery);
		if (completion != Completion.COMPLETED) {
			return completion;
		}
		if (!queue.index.remove(id, message)) {
			// an at-least-once message completed twice at once: the other call won
			return Completion.NOT_FOUND;
		}
		return removed(queue, message, true);
	}

	/**
	 * Removes the message with that id whatever its state, under write access of its
	 * queue as a completion: the message's own discard decides between it and a racing
	 * completion, then the index as for a completion.
	 */
	private ByIdOutcome discard(String queue, long id) {
		Object completion = this.map.lookup(queue, Map::get,
				target -> (target != null) ? target.write(q -> discardIn(q, id)) : Completion.NOT_FOUND);
		if (completion == QUEUE_EMPTY) {
			removeIfEmpty(queue);
			return ByIdOutcome.DONE;
		}
		return ByIdOutcome.of((Completion) completion);
	}

	/** The message's own change, under write access of its queue as a lease change. */
	private ByIdOutcome endDelay(String queue, long id) {
		long now = this.clock.millis();
		return ByIdOutcome.doneIf(this.map.lookup(queue, Map::get, target -> (target != null) && target.write(q -> {
			M message = q.index.get(id);
			return message != null && message.endDelay(now);
		})));
	}

	private Object discardIn(MessageQueue<M> queue, long id) {
		M message = queue.index.get(id);
		if (message == null) {
			return Completion.NOT_FOUND;
		}
		int deliveries = message.discard();
		if (deliveries < 0 || !queue.index.remove(id, message)) {
			return Completion.NOT_FOUND;
		}
		return removed(queue, message, deliveries > 0);
	}

	/**
	 * A message just completed or discarded, and out of the index: counted out, and out
	 * of memory as the eviction says.
	 */
	private Object removed(MessageQueue<M> queue, M message, boolean delivered) {
		queue.completedOne(delivered);
		this.held.decrement();
		Deque<M> messages = queue.messages;
		if (this.lazyEviction) {
			dropCompletedHead(queue);
		}
		else if (messages.remove(message)) {
			// eager eviction: a scan from the head, as far as the message's position
			evicted(queue, message);
		}
		return messages.isEmpty() ? QUEUE_EMPTY : Completion.COMPLETED;
	}

	/**
	 * Evicts completed messages from the head of the queue, so that a queue that is not
	 * polled again does not keep them; completed messages behind one still in flight wait
	 * for the next walk, and stay charged to the caps until then.
	 */
	private void dropCompletedHead(MessageQueue<M> queue) {
		M head;
		while ((head = queue.messages.peekFirst()) != null && head.isCompleted()) {
			if (queue.messages.removeFirstOccurrence(head)) {
				evicted(queue, head);
			}
		}
	}

	/**
	 * Every queue with its ready and in-flight counts, by name: the queues' kept counts,
	 * read under read access of the map, so it costs one step per queue.
	 */
	public List<QueueStats> queues() {
		QueueOptions.requireIdLookup(this.indexes != null);
		List<QueueStats> stats = this.map.read(queues -> {
			List<QueueStats> all = new ArrayList<>(queues.size());
			long now = this.clock.millis();
			queues.values().forEach(target -> all.add(target.read(q -> q.stats(now))));
			return all;
		});
		stats.sort(Comparator.comparing(QueueStats::name));
		return stats;
	}

	/** The queue's ready and in-flight counts, or nothing if no such queue exists now. */
	public Optional<QueueStats> queue(String name) {
		QueueOptions.requireIdLookup(this.indexes != null);
		long now = this.clock.millis();
		return Optional.ofNullable(
				this.map.lookup(name, Map::get, target -> (target != null) ? target.read(q -> q.stats(now)) : null));
	}

	/**
	 * Whether a poll would find a message now: walks from the head under read access and
	 * stops at the first ready message.
	 */
	public boolean hasReady(String name) {
		long now = this.clock.millis();
		return this.map.lookup(name, Map::get, target -> target != null && target.read(q -> {
			for (M message : q.messages) {
				if (message.status(now) == AbstractMessage.Status.READY) {
					return true;
				}
			}
			return false;
		}));
	}

	/**
	 * Walks the queue from its head under read access, as {@link #hasReady} does, and
	 * stops after {@code max} messages not completed.
	 */
	@Override
	public List<Peeked> peek(String queue, int max) {
		long now = this.clock.millis();
		List<Peeked> seen = new ArrayList<>(Math.min(max, 16));
		this.map.lookup(queue, Map::get, target -> (target != null) ? target.read(q -> {
			for (M message : q.messages) {
				AbstractMessage.Status status = message.status(now);
				if (status != AbstractMessage.Status.COMPLETED) {
					seen.add(new Peeked(message, switch (status) {
						case READY -> Peeked.State.READY;
						case DELAYED -> Peeked.State.DELAYED;
						default -> Peeked.State.IN_FLIGHT;
					}, message.deliveries()));
					if (seen.size() == max) {
						break;
					}
				}
			}
			return null;
		}) : null);
		return seen;
	}

	/**
	 * How many queues exist, read without taking any lock so that metric scrapes never
	 * stall traffic. For a guarded {@code HashMap} this is a benign race: a single int
	 * field read that may be momentarily stale.
	 */
	public int queueCount() {
		return this.map.unsafe(Map::size);
	}

	@Override
	public long lastId() {
		return this.lastId.get();
	}

	/**
	 * How many messages are held (pushed and not yet completed), read without a lock; 0
	 * without id lookup.
	 */
	public long heldCount() {
		return (this.held != null) ? this.held.sum() : 0;
	}

	/** The caps and what they hold now, if this service has limits. */
	public Optional<Capacity> capacity() {
		return Optional.ofNullable(this.capacity);
	}

}
