package io.github.qsbench.application;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import io.github.qsbench.core.Capacity;
import io.github.qsbench.core.QueueServiceCore;

import org.springframework.stereotype.Component;

/**
 * Queues created explicitly (a {@code PUT} of their settings, the SQS face's
 * {@code CreateQueue}) and their own settings (lease, delay, retention, dead-letter
 * policy): such a queue exists while it is empty, where a queue created by its first push
 * is removed by the core when it empties, and keeps default settings. Only names and
 * settings are kept here, above the core: the messages live in the core's queue of the
 * same name, which comes and goes with them, so no strategy changes. A name goes when its
 * queue is deleted ({@link QueueOperations#deleteQueue}); at most
 * {@code qs.limits.max-queues} names are kept (read from the core's caps once, at
 * start-up: the core is called for nothing else here).
 *
 * <p>
 * Thread safe: one concurrent map; a name is added at most once, and the count may
 * overshoot the cap by the number of racing creators, which is harmless.
 */
@Component
public class ExplicitQueues {

	/** The settings of an explicit queue that has none of its own. */
	private static final Own NONE = new Own(null, null, null, null);

	private final Map<String, Own> queues = new ConcurrentHashMap<>();

	private final int maxQueues;

	public ExplicitQueues(QueueServiceCore service) {
		this.maxQueues = service.capacity()
			.map(Capacity::limits)
			.map(Capacity.Limits::maxQueues)
			.orElse(Integer.MAX_VALUE);
	}

	/**
	 * Records the queue as created explicitly, without a dead-letter policy if it is new.
	 * @return {@code false} if it was not, because {@code qs.limits.max-queues} names are
	 * kept already
	 */
	public boolean create(String queue) {
		if (this.queues.containsKey(queue)) {
			return true;
		}
		if (this.queues.size() >= this.maxQueues) {
			return false;
		}
		this.queues.putIfAbsent(queue, NONE);
		return true;
	}

	/**
	 * Sets (or, with {@code null}, removes) the dead-letter policy of an explicit queue.
	 */
	void deadLetters(String queue, DeadLetterPolicy policy) {
		this.queues.computeIfPresent(queue,
				(name, own) -> new Own(policy, own.leaseSeconds, own.delaySeconds, own.retentionSeconds));
	}

	/** The queue's dead-letter policy, {@code null} if it has none. */
	public DeadLetterPolicy deadLetters(String queue) {
		Own own = this.queues.get(queue);
		return (own != null) ? own.deadLetters : null;
	}

	/** Sets (or, with {@code null}, removes) the lease of an explicit queue. */
	void leaseSeconds(String queue, Long leaseSeconds) {
		this.queues.computeIfPresent(queue,
				(name, own) -> new Own(own.deadLetters, leaseSeconds, own.delaySeconds, own.retentionSeconds));
	}

	/**
	 * The queue's own lease, {@code null} if it has none (it leases for the service's).
	 */
	public Long leaseSeconds(String queue) {
		Own own = this.queues.get(queue);
		return (own != null) ? own.leaseSeconds : null;
	}

	/** Sets (or, with {@code null}, removes) the delay of an explicit queue. */
	void delaySeconds(String queue, Integer delaySeconds) {
		this.queues.computeIfPresent(queue,
				(name, own) -> new Own(own.deadLetters, own.leaseSeconds, delaySeconds, own.retentionSeconds));
	}

	/** The queue's own delay, {@code null} if it has none (no delay). */
	public Integer delaySeconds(String queue) {
		Own own = this.queues.get(queue);
		return (own != null) ? own.delaySeconds : null;
	}

	/** Sets (or, with {@code null}, removes) the retention of an explicit queue. */
	void retentionSeconds(String queue, Integer retentionSeconds) {
		this.queues.computeIfPresent(queue,
				(name, own) -> new Own(own.deadLetters, own.leaseSeconds, own.delaySeconds, retentionSeconds));
	}

	/**
	 * The queue's retention, {@code null} if it has none (messages stay until completed).
	 */
	public Integer retentionSeconds(String queue) {
		Own own = this.queues.get(queue);
		return (own != null) ? own.retentionSeconds : null;
	}

	/** The queues that have a retention, with it. */
	Map<String, Integer> retentions() {
		Map<String, Integer> retentions = new HashMap<>();
		this.queues.forEach((name, own) -> {
			if (own.retentionSeconds != null) {
				retentions.put(name, own.retentionSeconds);
			}
		});
		return retentions;
	}

	/** The queues whose dead-letter queue is {@code queue}, by name. */
	public SortedSet<String> sources(String queue) {
		SortedSet<String> sources = new TreeSet<>();
		this.queues.forEach((name, own) -> {
			if (own.deadLetters != null && own.deadLetters.queue().equals(queue)) {
				sources.add(name);
			}
		});
		return sources;
	}

	/**
	 * @return whether it was created explicitly
	 */
	public boolean remove(String queue) {
		return this.queues.remove(queue) != null;
	}

	public boolean contains(String queue) {
		return this.queues.containsKey(queue);
	}

	/** The names, in no order: a copy. */
	public Set<String> names() {
		return Set.copyOf(this.queues.keySet());
	}

	/** The cap on names, {@code qs.limits.max-queues}. */
	public int maxQueues() {
		return this.maxQueues;
	}

	/** What an explicit queue has of its own; {@code null}: the service's. */
	private record Own(DeadLetterPolicy deadLetters, Long leaseSeconds, Integer delaySeconds,
			Integer retentionSeconds) {
	}

}
