package io.github.qsbench.core;

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
import java.util.function.Supplier;

/**
 * The queue service framework of the thesis (section 3.1.3): one map from queue name to
 * queue, queues that come and go, and messages that stay in their queue while in flight.
 * A subclass only chooses the building blocks ({@link QSConfiguration}); everything here
 * is the same for all.
 *
 * <p>
 * Thread safety comes entirely from the {@link Lockable} accesses. Queue accesses are
 * always nested inside a map access, and the index is never accessed while the map is, so
 * locks are taken in one order (map, then queue) and a strategy may leave queues
 * unguarded when its map access already serializes everything ({@code SynchronizedQS}).
 */
public abstract class AbstractQS<M extends AbstractMessage> implements QueueService {

	/**
	 * Marks a poll whose walk left the queue empty: a reason to try removing the queue.
	 */
	private static final Object QUEUE_EMPTY = new Object();

	private final AbstractMessage.Factory<M> messages;

	private final Lockable<Map<String, Lockable<Deque<M>>>> map;

	private final Supplier<Lockable<Deque<M>>> queues;

	/**
	 * Id to message for every message pushed and not yet completed; {@code null} without
	 * id lookup.
	 */
	private final Lockable<Map<Long, M>> index;

	/**
	 * Caps on what is held; {@code null} when unlimited, so the thesis's setting pays
	 * nothing.
	 */
	private final Capacity capacity;

	private final InstantSource clock;

	private final long leaseMillis;

	private final boolean lazyEviction;

	private final AtomicLong lastId = new AtomicLong();

	protected AbstractQS(QSConfiguration<M> configuration, QueueOptions options) {
		this.messages = configuration.messages();
		this.map = Objects.requireNonNull(configuration.map(), "map");
		this.queues = Objects.requireNonNull(configuration.queues(), "queues");
		this.index = options.idLookup() ? Objects.requireNonNull(configuration.index(), "index").get() : null;
		this.capacity = options.limits().equals(Capacity.Limits.UNLIMITED) ? null : new Capacity(options.limits());
		this.clock = options.clock();
		this.leaseMillis = options.leaseTimeout().toMillis();
		this.lazyEviction = options.eviction() == Eviction.LAZY;
	}

	/**
	 * Creates the message, makes it findable by id, then appends it inside one write
	 * access of the map ({@code compute}), so a queue being removed as empty cannot
	 * swallow it. Indexing before appending means no consumer can poll a message it could
	 * not then complete by id.
	 * @throws CapacityExceededException if a cap is reached; nothing was pushed
	 */
	@Override
	public Message push(String queue, String body) {
		if (this.capacity != null) {
			this.capacity.admit(queue, Capacity.charge(body));
		}
		M message = this.messages.create(this.lastId.incrementAndGet(), queue, body);
		if (this.index != null) {
			this.index.write(ids -> ids.put(message.id(), message));
		}
		this.map.write(queues -> queues.compute(queue, (name, existing) -> append(existing, message)));
		return message;
	}

	private Lockable<Deque<M>> append(Lockable<Deque<M>> existing, M message) {
		if (existing == null) {
			Lockable<Deque<M>> created = this.queues.get();
			// not yet visible to any other thread
			created.unsafe(messages -> messages.add(message));
			return created;
		}
		existing.write(messages -> messages.add(message));
		return existing;
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
		Object found = this.map.read(queues -> {
			Lockable<Deque<M>> messages = queues.get(queue);
			if (messages == null) {
				return null;
			}
			return this.lazyEviction ? messages.write(m -> walk(m, now)) : messages.read(m -> walk(m, now));
		});
		if (found == QUEUE_EMPTY) {
			removeIfEmpty(queue);
			return Optional.empty();
		}
		return Optional.ofNullable((M) found);
	}

	private Object walk(Deque<M> messages, long now) {
		for (Iterator<M> it = messages.iterator(); it.hasNext();) {
			M message = it.next();
			Grab grab = message.tryGrab(now, this.leaseMillis);
			if (grab == Grab.GRABBED) {
				return message;
			}
			if (grab == Grab.DECLINED_COMPLETED && this.lazyEviction) {
				it.remove();
			}
		}
		return messages.isEmpty() ? QUEUE_EMPTY : null;
	}

	/**
	 * One write access of the map; the queue goes only if a read access confirms it is
	 * still empty.
	 */
	private void removeIfEmpty(String queue) {
		this.map.write(queues -> queues.computeIfPresent(queue,
				(name, messages) -> messages.read(Deque::isEmpty) ? null : messages));
	}

	/**
	 * Completes a message this service delivered. With id lookup on, removing the id from
	 * the index is what decides which of two racing completions wins; the message itself
	 * is then marked under write access of its queue (and removed from it at once with
	 * eager eviction).
	 */
	@Override
	@SuppressWarnings("unchecked")
	public boolean complete(Message message) {
		M own = (M) message;
		if (this.index != null) {
			if (!this.index.write(ids -> ids.remove(own.id(), own))) {
				return false;
			}
			release(own);
		}
		return completeInQueue(own);
	}

	/**
	 * Completes the message with that id if it is held in that queue and was delivered.
	 * Never scans a queue: the id is looked up in the index, guarded by the strategy's
	 * own mechanism.
	 * @throws IllegalStateException if this service was built without id lookup
	 */
	public Completion complete(String queue, long id) {
		if (this.index == null) {
			throw new IllegalStateException("built without id lookup");
		}
		M message = this.index.read(ids -> ids.get(id));
		if (message == null || !message.queue().equals(queue)) {
			return Completion.NOT_FOUND;
		}
		// deliveries never go back to 0, so a message seen delivered stays delivered
		if (!delivered(message)) {
			return Completion.NOT_DELIVERED;
		}
		return complete(message) ? Completion.COMPLETED : Completion.NOT_FOUND;
	}

	/** Called once per message, by whoever removed it from the index. */
	private void release(M message) {
		if (this.capacity != null) {
			this.capacity.release(message.queue(), Capacity.charge(message.body()));
		}
	}

	private boolean delivered(M message) {
		return this.map.read(queues -> {
			Lockable<Deque<M>> messages = queues.get(message.queue());
			// no queue yet: the push that indexed the message has not appended it
			return messages != null && messages.read(m -> message.deliveries() > 0);
		});
	}

	private boolean completeInQueue(M message) {
		Marked marked = this.map.read(queues -> {
			Lockable<Deque<M>> messages = queues.get(message.queue());
			if (messages == null) {
				// the queue is gone, so the message was completed and evicted already
				return Marked.ALREADY_COMPLETED;
			}
			return messages.write(m -> mark(m, message));
		});
		if (marked == Marked.COMPLETED_QUEUE_EMPTIED) {
			removeIfEmpty(message.queue());
		}
		return marked != Marked.ALREADY_COMPLETED;
	}

	private Marked mark(Deque<M> messages, M message) {
		if (!message.complete()) {
			return Marked.ALREADY_COMPLETED;
		}
		if (this.lazyEviction) {
			return Marked.COMPLETED;
		}
		messages.remove(message);
		return messages.isEmpty() ? Marked.COMPLETED_QUEUE_EMPTIED : Marked.COMPLETED;
	}

	private enum Marked {

		ALREADY_COMPLETED, COMPLETED, COMPLETED_QUEUE_EMPTIED

	}

	/**
	 * Every queue with its ready and in-flight counts, by name; walks all queues under
	 * read access.
	 */
	public List<QueueStats> queues() {
		long now = this.clock.millis();
		List<QueueStats> stats = this.map.read(queues -> {
			List<QueueStats> all = new ArrayList<>(queues.size());
			queues.forEach((name, messages) -> all.add(messages.read(m -> count(name, m, now))));
			return all;
		});
		stats.sort(Comparator.comparing(QueueStats::name));
		return stats;
	}

	/** The queue's ready and in-flight counts, or nothing if no such queue exists now. */
	public Optional<QueueStats> queue(String name) {
		long now = this.clock.millis();
		return Optional.ofNullable(this.map.read(queues -> {
			Lockable<Deque<M>> messages = queues.get(name);
			return messages == null ? null : messages.read(m -> count(name, m, now));
		}));
	}

	private static QueueStats count(String name, Deque<? extends AbstractMessage> messages, long now) {
		int ready = 0;
		int inflight = 0;
		for (AbstractMessage message : messages) {
			switch (message.status(now)) {
				case READY -> ready++;
				case IN_FLIGHT -> inflight++;
				case COMPLETED -> {
				}
			}
		}
		return new QueueStats(name, ready, inflight);
	}

	/**
	 * How many queues exist, read without taking any lock so that metric scrapes never
	 * stall traffic. For a guarded {@code HashMap} this is a benign race: a single int
	 * field read that may be momentarily stale.
	 */
	public int queueCount() {
		return this.map.unsafe(Map::size);
	}

	/**
	 * How many messages are held (pushed and not yet completed), read like
	 * {@link #queueCount()} without a lock; 0 without id lookup.
	 */
	public int heldCount() {
		return (this.index != null) ? this.index.unsafe(Map::size) : 0;
	}

	/** The caps and what they hold now, if this service has limits. */
	public Optional<Capacity> capacity() {
		return Optional.ofNullable(this.capacity);
	}

}
