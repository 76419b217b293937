package io.github.qsbench.redis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.github.qsbench.application.queues.DeadLetterPolicy;
import io.github.qsbench.application.queues.ExplicitQueues;
import io.github.qsbench.application.queues.FifoSettings;
import io.github.qsbench.application.queues.QueueSettings;
import io.github.qsbench.application.queues.QueueTags;

import org.springframework.data.redis.connection.ReturnType;

/**
 * The explicit queues of the redis strategy, kept in Redis beside the queues' messages,
 * so that every instance on one namespace ({@code qs.redis.namespace}) serves the same
 * queues with the same settings. No cap of the service's own: Redis's {@code maxmemory}
 * is the cap, as for messages.
 *
 * <p>
 * Keys: a queue's hash {@code <ns>{queue}:settings}, on the queue's slot (its name is the
 * hash tag, as for its other keys), holds the field {@code explicit} while the queue
 * exists, a field per setting of its own, one per tag ({@code tag:<key>}) and one per
 * recorded setting ({@code recorded:<name>}); the set {@code <ns>explicit} names them,
 * for the listing, the dead-letter sources and the retention sweep. A change and a
 * deletion are each one script, which writes the hash (and the set, standalone) and
 * publishes the queue's name on the channel {@code <ns>settings}. On a cluster the set
 * lives on a slot of its own and takes one more round trip, so the hash decides: a name
 * is listed only while its hash exists.
 *
 * <p>
 * Each instance caches what it read, queues not created explicitly included, so a push or
 * a lease finds its queue's delay or lease in memory and asks Redis only on a miss. The
 * channel keeps the cache true: a message drops the queue's entry (a change through this
 * instance drops it at once, so it reads its own writes), and each subscription, the
 * first and any after a lost connection (whose messages were lost with it), drops every
 * entry. An entry dropped must not come back from a load that read Redis before the
 * change: a load notes the count of drops before it reads, and caches its answer only if
 * the count is the same, checked under the map's lock on the queue, while a drop counts
 * first and removes after. So a change through another instance is seen once its message
 * arrives, and a stale entry never outlives it.
 */
public final class RedisExplicitQueues implements ExplicitQueues, AutoCloseable {

	private static final LuaScript CONFIGURE = LuaScript.of(RedisExplicitQueues.class, "explicit-configure",
			ReturnType.INTEGER);

	private static final LuaScript REMOVE = LuaScript.of(RedisExplicitQueues.class, "explicit-remove",
			ReturnType.INTEGER);

	/**
	 * Queues cached at most: clients choose the names, so past this many the cache starts
	 * again empty rather than grow.
	 */
	private static final int MAX_CACHED = 10_000;

	/**
	 * What the cache holds for a queue not created explicitly, told apart by identity
	 * from an explicit queue without settings of its own.
	 */
	private static final Own NOT_EXPLICIT = new Own(null, null, null, null);

	private static final List<String> SETTINGS = List.of("settings");

	/** The name of the set of explicit queues' names ({@link RedisStore#key}). */
	private static final String REGISTRY = "explicit";

	private static final String LEASE = "leaseSeconds";

	private static final String DELAY = "delaySeconds";

	private static final String RETENTION = "retentionSeconds";

	private static final String DEAD_LETTER_QUEUE = "deadLetterQueue";

	private static final String MAX_DELIVERIES = "maxDeliveries";

	/** Present for a FIFO queue, whose settings are the defaults and the fields set. */
	private static final String FIFO = "fifo";

	private static final String CONTENT_BASED_DEDUPLICATION = "fifo.contentBasedDeduplication";

	private static final String DEDUPLICATION_SCOPE = "fifo.deduplicationScope";

	private static final String THROUGHPUT_LIMIT = "fifo.throughputLimit";

	private static final String MAX_MESSAGE_BYTES = "maxMessageBytes";

	/** The prefix of a tag's field: {@code tag:<key>} holds its value. */
	private static final String TAG = "tag:";

	/**
	 * The prefix of a recorded setting's field: {@code recorded:<name>} holds its value.
	 */
	private static final String RECORDED = "recorded:";

	/** Set once, by the change that creates the queue (see {@link #SET_IF_ABSENT}). */
	private static final String CREATED = "createdSeconds";

	private static final String MODIFIED = "modifiedSeconds";

	/** A script's operation: set a field to its value. */
	private static final String SET = "S";

	/** A script's operation: remove a field. */
	private static final String DELETE = "D";

	/** A script's operation: set a field to its value unless it has one. */
	private static final String SET_IF_ABSENT = "N";

	/**
	 * A script's operation: the field must have the value ({@code ""}: be absent), else
	 * nothing changes ({@link QueueSettings.Change#expected}).
	 */
	private static final String EXPECT = "E";

	/** What the script answers when an expected value did not hold. */
	private static final long CONFLICT = 2;

	/** The channel on which changes are announced. */
	private static final String CHANGED = "settings";

	private final RedisStore store;

	/** The explicit queues' names. */
	private final RedisNameSet registry;

	private final Map<String, Own> cache = new ConcurrentHashMap<>();

	/**
	 * Entries dropped so far; a load caches its answer only if none was since it began.
	 */
	private final AtomicLong drops = new AtomicLong();

	/** The subscription to the channel. */
	private final AutoCloseable subscription;

	/**
	 * Subscribes to the channel, so that nothing is cached before changes are heard.
	 * Instances on one store's namespace share their explicit queues.
	 */
	RedisExplicitQueues(RedisStore store) {
		this.store = store;
		this.registry = new RedisNameSet(store, REGISTRY);
		this.subscription = store.subscribe(CHANGED, new Drops());
	}

	@Override
	public boolean inMemory(String queue) {
		return this.cache.containsKey(queue);
	}

	@Override
	public Own own(String queue) {
		Own own = this.cache.get(queue);
		if (own == null) {
			own = load(queue);
		}
		return (own != NOT_EXPLICIT) ? own : null;
	}

	/**
	 * One script, which counts the tags the change would leave and refuses it whole past
	 * {@value QueueTags#MAX_TAGS}; on a cluster one more round trip, the name's
	 * {@code SADD}. Answered once the replicas asked for have the change
	 * ({@link RedisStore#replicatedBy}).
	 */
	@Override
	public boolean configure(String queue, QueueSettings.Change change) {
		byte[] name = RedisStore.utf8(queue);
		List<byte[]> args = new ArrayList<>(
				List.of(name, this.store.key(CHANGED), RedisStore.utf8(Integer.toString(QueueTags.MAX_TAGS))));
		set(args, LEASE, change.leaseSeconds());
		set(args, DELAY, change.delaySeconds());
		set(args, RETENTION, change.retentionSeconds());
		set(args, MAX_MESSAGE_BYTES, change.maxMessageBytes());
		DeadLetterPolicy policy = change.deadLetters();
		if (policy == QueueSettings.Change.REMOVE) {
			remove(args, DEAD_LETTER_QUEUE);
			remove(args, MAX_DELIVERIES);
		}
		else if (policy != null) {
			set(args, DEAD_LETTER_QUEUE, policy.queue());
			set(args, MAX_DELIVERIES, policy.maxDeliveries());
		}
		QueueTags.Change tags = change.tags();
		if (tags != null) {
			tags.untag().forEach(key -> remove(args, TAG + key));
			tags.tag().forEach((key, value) -> set(args, TAG + key, value));
		}
		change.recorded().forEach((key, value) -> {
			if (value.isEmpty()) {
				remove(args, RECORDED + key);
			}
			else {
				set(args, RECORDED + key, value);
			}
		});
		if (change.atSeconds() != null) {
			Collections.addAll(args, RedisStore.utf8(SET_IF_ABSENT), RedisStore.utf8(CREATED),
					RedisStore.utf8(change.atSeconds().toString()));
			Collections.addAll(args, RedisStore.utf8(change.changesSettings() ? SET : SET_IF_ABSENT),
					RedisStore.utf8(MODIFIED), RedisStore.utf8(change.atSeconds().toString()));
		}
		FifoSettings fifo = change.fifo();
		if (fifo != null) {
			set(args, FIFO, true);
			set(args, CONTENT_BASED_DEDUPLICATION, fifo.contentBasedDeduplication());
			set(args, DEDUPLICATION_SCOPE, fifo.deduplicationScope());
			set(args, THROUGHPUT_LIMIT, fifo.throughputLimit());
		}
		change.expected()
			.forEach((field, value) -> Collections.addAll(args, RedisStore.utf8(EXPECT),
					RedisStore.utf8(RECORDED + field), RedisStore.utf8(value)));
		long created = this.store.<Long>run(CONFIGURE, keys(queue), args.toArray(byte[][]::new));
		if (created < 0) {
			throw QueueTags.tooMany((int) -created);
		}
		if (created == CONFLICT) {
			drop(queue); // the next read sees the change that came between
			throw new QueueSettings.Conflict(queue);
		}
		if (this.store.cluster()) {
			this.registry.add(queue);
		}
		drop(queue);
		return replicated(queue, created == 1);
	}

	/**
	 * One script; on a cluster up to three more round trips, see {@link #unregister}.
	 * Answered once the replicas asked for have it ({@link RedisStore#replicatedBy}).
	 */
	@Override
	public boolean remove(String queue) {
		long existed = this.store.<Long>run(REMOVE, keys(queue), RedisStore.utf8(queue), this.store.key(CHANGED));
		if (this.store.cluster()) {
			unregister(queue);
		}
		drop(queue);
		return replicated(queue, existed == 1);
	}

	/**
	 * {@code answer} once the replicas asked for have the queue's settings and, on a
	 * cluster, the set of names: a failover that lost them would undo a creation, a
	 * change (a dead-letter policy, a queue policy) or a deletion that was answered.
	 */
	private boolean replicated(String queue, boolean answer) {
		return this.store.acknowledged()
			.namespaceReplicated(REGISTRY, this.store.acknowledged().replicated(queue, answer));
	}

	/**
	 * The set's names whose queue exists: one round trip, and one per name not cached.
	 */
	@Override
	public Set<String> names() {
		Set<String> names = new HashSet<>();
		for (String name : this.registry.names()) {
			if (contains(name)) {
				names.add(name);
			}
		}
		return names;
	}

	/** Ends the subscription. */
	@Override
	public void close() {
		try {
			this.subscription.close();
		}
		catch (Exception ex) {
			throw new IllegalStateException("closing the subscription", ex);
		}
	}

	/**
	 * Reads the queue's settings from Redis and caches them, unless an entry was dropped
	 * while it read: then its answer may predate a change, and the next call reads again.
	 * Past {@link #MAX_CACHED} entries, the cache is emptied first.
	 */
	private Own load(String queue) {
		long dropsBefore = this.drops.get();
		Own own = read(queue);
		if (this.cache.size() >= MAX_CACHED) {
			dropAll();
		}
		this.cache.compute(queue,
				(name, cached) -> (cached != null) ? cached : (this.drops.get() == dropsBefore) ? own : null);
		return own;
	}

	/** Counts, then removes: a load that checks after the count caches nothing. */
	private void drop(String queue) {
		this.drops.incrementAndGet();
		this.cache.remove(queue);
	}

	private void dropAll() {
		this.drops.incrementAndGet();
		this.cache.clear();
	}

	private Own read(String queue) {
		Map<byte[], byte[]> hash = this.store.call(redis -> redis.hashCommands().hGetAll(settings(queue)));
		if (hash == null || hash.isEmpty()) {
			return NOT_EXPLICIT;
		}
		Map<String, String> fields = new HashMap<>();
		SortedMap<String, String> tags = new TreeMap<>();
		SortedMap<String, String> recorded = new TreeMap<>();
		hash.forEach((field, value) -> {
			String name = new String(field, StandardCharsets.UTF_8);
			String text = new String(value, StandardCharsets.UTF_8);
			if (name.startsWith(TAG)) {
				tags.put(name.substring(TAG.length()), text);
			}
			else if (name.startsWith(RECORDED)) {
				recorded.put(name.substring(RECORDED.length()), text);
			}
			else {
				fields.put(name, text);
			}
		});
		String deadLetterQueue = fields.get(DEAD_LETTER_QUEUE);
		return new Own(
				(deadLetterQueue != null)
						? new DeadLetterPolicy(deadLetterQueue, Integer.parseInt(fields.get(MAX_DELIVERIES))) : null,
				fields.containsKey(LEASE) ? Long.valueOf(fields.get(LEASE)) : null,
				fields.containsKey(DELAY) ? Integer.valueOf(fields.get(DELAY)) : null,
				fields.containsKey(RETENTION) ? Integer.valueOf(fields.get(RETENTION)) : null,
				fields.containsKey(MAX_MESSAGE_BYTES) ? Integer.valueOf(fields.get(MAX_MESSAGE_BYTES)) : null,
				Collections.unmodifiableSortedMap(tags),

				fields.containsKey(FIFO) ? FifoSettings.DEFAULTS.with(new FifoSettings(
						fields.containsKey(CONTENT_BASED_DEDUPLICATION)
								? Boolean.valueOf(fields.get(CONTENT_BASED_DEDUPLICATION)) : null,
						fields.get(DEDUPLICATION_SCOPE), fields.get(THROUGHPUT_LIMIT))) : null,
				Collections.unmodifiableSortedMap(recorded),
				fields.containsKey(CREATED) ? Long.valueOf(fields.get(CREATED)) : null,
				fields.containsKey(MODIFIED) ? Long.valueOf(fields.get(MODIFIED)) : null);
	}

	/**
	 * Removes a name from the set of a cluster unless its hash is seen after the removal:
	 * a creation that raced the deletion wrote its hash before it added the name.
	 */
	private void unregister(String queue) {
		byte[] settings = settings(queue);
		this.registry.removeUnless(queue,
				() -> Boolean.TRUE.equals(this.store.call(redis -> redis.keyCommands().exists(settings))));
	}

	/** The queue's settings hash, then the set of names where a script reaches it. */
	private List<byte[]> keys(String queue) {
		return this.store.queueKeys(queue, SETTINGS, this.registry.key());
	}

	private byte[] settings(String queue) {
		return this.store.queueKeys(queue, SETTINGS).get(0);
	}

	/**
	 * Adds to a script's arguments that a field is set to {@code value}, unless it is
	 * null (the setting stays as it is).
	 */
	private static void set(List<byte[]> args, String field, Object value) {
		if (value != null) {
			Collections.addAll(args, RedisStore.utf8(SET), RedisStore.utf8(field), RedisStore.utf8(value.toString()));
		}
	}

	/** Adds to a script's arguments that a field is removed. */
	private static void remove(List<byte[]> args, String field) {
		Collections.addAll(args, RedisStore.utf8(DELETE), RedisStore.utf8(field), RedisStore.utf8(""));
	}

	/**
	 * Drops cached entries as the channel says, on the subscription's thread: the queue a
	 * message names, or every entry when the subscription is made (again).
	 */
	private final class Drops implements RedisChannels.ChannelListener {

		@Override
		public void message(byte[] body) {
			drop(RedisStore.utf8(body));
		}

		@Override
		public void subscribed() {
			dropAll();
		}

	}

}
