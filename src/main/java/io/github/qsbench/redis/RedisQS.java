package io.github.qsbench.redis;

import java.nio.charset.StandardCharsets;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

import io.github.qsbench.core.Capacity;
import io.github.qsbench.core.CapacityExceededException;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.Lease;
import io.github.qsbench.core.LeaseChange;
import io.github.qsbench.core.Message;
import io.github.qsbench.core.Peeked;
import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.QueueStats;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.ReturnType;

/**
 * The queue service kept in Redis: every operation is one Lua script that Redis runs
 * alone, so Redis's one command at a time is the whole of its thread safety, and any
 * number of service instances on one Redis serve the same queues. Time is the service's
 * clock ({@link QueueOptions#clock()}), passed to every script. Its keys, round trips and
 * caps: docs/design/redis-strategy.md.
 */
public final class RedisQS implements QueueServiceCore {

	private static final LuaScript PUSH = LuaScript.of(RedisQS.class, "push", ReturnType.MULTI);

	private static final LuaScript LEASE = LuaScript.of(RedisQS.class, "lease", ReturnType.MULTI);

	private static final LuaScript COMPLETE = LuaScript.of(RedisQS.class, "complete", ReturnType.MULTI);

	private static final LuaScript END_DELAY = LuaScript.of(RedisQS.class, "end-delay", ReturnType.INTEGER);

	private static final LuaScript STATS = LuaScript.of(RedisQS.class, "stats", ReturnType.MULTI);

	private static final LuaScript PEEK = LuaScript.of(RedisQS.class, "peek", ReturnType.MULTI);

	/**
	 * A queue's keys, in the order every script takes them: KEYS[1] ready, KEYS[2]
	 * leased, KEYS[3] delayed, KEYS[4] bodies, KEYS[5] deliveries.
	 */
	private static final String[] QUEUE_KEYS = { "ready", "leased", "delayed", "bodies", "deliveries" };

	private static final List<String> QUEUE_KEY_NAMES = List.of(QUEUE_KEYS);

	/** The channel on which pushes are announced. */
	private static final String PUSHED = "pushed";

	private static final byte[] COMPLETE_OPERATION = ascii("complete");

	private static final byte[] CHANGE_OPERATION = ascii("change");

	private static final byte[] DISCARD_OPERATION = ascii("discard");

	private final RedisStore store;

	private final InstantSource clock;

	private final long leaseMillis;

	private final byte[] maxPerQueue;

	private final boolean idLookup;

	private final byte[] ids;

	private final byte[] registry;

	/** Where pushes are announced to every instance, see {@link #onPushes}. */
	private final byte[] channel;

	/** The subscription to the {@link #channel}, once {@link #onPushes} was called. */
	private AutoCloseable subscription;

	private volatile PushListener listener;

	/**
	 * The most calls one group commit runs as one script: concurrent pushes, polls or
	 * completions on one queue through this instance.
	 */
	static final int GROUP_COMMIT_MAX = 64;

	/** Concurrent pushes to one queue with one delay, as one push script; or none. */
	private final GroupCommit<PushKey, List<byte[]>, List<Message>> pushes;

	/**
	 * Concurrent leases of one queue with one lease time, as one lease script; or none.
	 */
	private final GroupCommit<LeaseKey, Integer, List<Lease>> leases;

	/** Concurrent completions on one queue, as one completion script; or none. */
	private final GroupCommit<String, long[], Completion> completions;

	RedisQS(QueueOptions options, RedisStore store) {
		this.store = store;
		this.clock = options.clock();
		this.leaseMillis = options.leaseTimeout().toMillis();
		this.maxPerQueue = ascii(options.limits().maxMessagesPerQueue());
		this.idLookup = options.idLookup();
		this.ids = store.key("ids");
		this.registry = store.key("queues");
		this.channel = store.key(PUSHED);
		if (store.groupCommit()) {
			this.pushes = new GroupCommit<>(GROUP_COMMIT_MAX, this::pushGroup);
			this.leases = new GroupCommit<>(GROUP_COMMIT_MAX, this::leaseGroup);
			this.completions = new GroupCommit<>(GROUP_COMMIT_MAX, this::completeGroup);
		}
		else {
			this.pushes = null;
			this.leases = null;
			this.completions = null;
		}
	}

	/**
	 * The pushes of one group commit as one script (all or none: each alone if refused).
	 */
	private List<List<Message>> pushGroup(PushKey key, List<List<byte[]>> calls) {
		if (calls.size() == 1) {
			return List.of(pushNow(key.queue(), calls.get(0), key.delayMillis()));
		}
		List<byte[]> bodies = new ArrayList<>();
		for (List<byte[]> call : calls) {
			bodies.addAll(call);
		}
		List<Message> pushed = pushNow(key.queue(), bodies, key.delayMillis());
		List<List<Message>> answers = new ArrayList<>(calls.size());
		int from = 0;
		for (List<byte[]> call : calls) {
			answers.add(pushed.subList(from, from + call.size()));
			from += call.size();
		}
		return answers;
	}

	/** The leases of one group commit as one script: each call's share in order. */
	private List<List<Lease>> leaseGroup(LeaseKey key, List<Integer> calls) {
		int total = 0;
		for (int max : calls) {
			total += max;
		}
		List<Lease> leased = leaseNow(key.queue(), total, key.leaseMillis());
		List<List<Lease>> answers = new ArrayList<>(calls.size());
		int from = 0;
		for (int max : calls) {
			int to = Math.min(from + max, leased.size());
			answers.add((from < to) ? leased.subList(from, to) : List.of());
			from = Math.max(from, to);
		}
		return answers;
	}

	/** The completions of one group commit as one script: each its own outcome. */
	private List<Completion> completeGroup(String queue, List<long[]> calls) {
		long[] ids = new long[calls.size()];
		int[] deliveries = new int[calls.size()];
		for (int i = 0; i < ids.length; i++) {
			ids[i] = calls.get(i)[0];
			deliveries[i] = (int) calls.get(i)[1];
		}
		return decide(queue, ids, deliveries, COMPLETE_OPERATION, 0);
	}

	@Override
	public Message push(String queue, byte[] body) {
		return pushAll(queue, List.of(body), 0).get(0);
	}

	@Override
	public List<Message> pushAll(String queue, List<byte[]> bodies) {
		return pushAll(queue, bodies, 0);
	}

	@Override
	public List<Message> pushAll(String queue, List<byte[]> bodies, long delayMillis) {
		if (bodies.isEmpty()) {
			return List.of();
		}
		if (this.pushes != null) {
			return this.pushes.run(new PushKey(queue, delayMillis), bodies);
		}
		return pushNow(queue, bodies, delayMillis);
	}

	/** One run of the push script. */
	private List<Message> pushNow(String queue, List<byte[]> bodies, long delayMillis) {
		long first = this.store.cluster()
				? redis(redis -> redis.stringCommands().incrBy(this.ids, bodies.size())) - bodies.size() + 1 : 0;
		byte[][] args = new byte[6 + bodies.size()][];
		args[0] = ascii(now());
		args[1] = ascii(delayMillis);
		args[2] = ascii(first);
		args[3] = this.maxPerQueue;
		args[4] = ascii(queue);
		args[5] = this.channel;
		for (int i = 0; i < bodies.size(); i++) {
			args[6 + i] = bodies.get(i);
		}
		List<?> answer = run(PUSH, keys(queue, this.ids, this.registry), args);
		first = (Long) answer.get(0);
		if ((Long) answer.get(1) == 1) {
			redis(redis -> redis.setCommands().sAdd(this.registry, ascii(queue)));
		}
		List<Message> pushed = new ArrayList<>(bodies.size());
		for (int i = 0; i < bodies.size(); i++) {
			pushed.add(new RedisMessage(first + i, bodies.get(i), 0));
		}
		return pushed;
	}

	@Override
	public Optional<Message> poll(String queue) {
		List<Lease> leases = leaseMessages(queue, 1, this.leaseMillis);
		return leases.isEmpty() ? Optional.empty() : Optional.of(leases.get(0).message());
	}

	@Override
	public List<Lease> lease(String queue, int max) {
		return lease(queue, max, this.leaseMillis);
	}

	@Override
	public List<Lease> lease(String queue, int max, long leaseMillis) {
		requireIdLookup();
		return leaseMessages(queue, max, leaseMillis);
	}

	private List<Lease> leaseMessages(String queue, int max, long leaseMillis) {
		if (this.leases != null) {
			return this.leases.run(new LeaseKey(queue, leaseMillis), max);
		}
		return leaseNow(queue, max, leaseMillis);
	}

	/** One run of the lease script. */
	private List<Lease> leaseNow(String queue, int max, long leaseMillis) {
		List<?> answer = run(LEASE, keys(queue), ascii(now()), ascii(max), ascii(leaseMillis));
		List<Lease> leases = new ArrayList<>(answer.size() / 3);
		for (int i = 0; i < answer.size(); i += 3) {
			int delivery = ((Long) answer.get(i + 1)).intValue();
			leases
				.add(new Lease(new RedisMessage((Long) answer.get(i), (byte[]) answer.get(i + 2), delivery), delivery));
		}
		return leases;
	}

	@Override
	public boolean complete(String queue, Message message) {
		return completeOne(queue, message.id(), ANY_DELIVERY) == Completion.COMPLETED;
	}

	@Override
	public Completion complete(String queue, long id, int delivery) {
		requireIdLookup();
		return completeOne(queue, id, delivery);
	}

	private Completion completeOne(String queue, long id, int delivery) {
		if (this.completions != null) {
			return this.completions.run(queue, new long[] { id, delivery });
		}
		return decide(queue, id, delivery, COMPLETE_OPERATION, 0);
	}

	@Override
	public LeaseChange changeLease(String queue, long id, int delivery, long leaseMillis) {
		requireIdLookup();
		return LeaseChange.of(decide(queue, id, delivery, CHANGE_OPERATION, leaseMillis));
	}

	@Override
	public Completion discard(String queue, long id) {
		requireIdLookup();
		return decide(queue, id, ANY_DELIVERY, DISCARD_OPERATION, 0);
	}

	/**
	 * Completes them all in one run of the completion script, one round trip whatever
	 * their number.
	 */
	@Override
	public List<Completion> completeAll(String queue, long[] ids, int[] deliveries) {
		requireIdLookup();
		if (ids.length == 0) {
			return List.of();
		}
		return decide(queue, ids, deliveries, COMPLETE_OPERATION, 0);
	}

	private Completion decide(String queue, long id, int delivery, byte[] operation, long leaseMillis) {
		return decide(queue, new long[] { id }, new int[] { delivery }, operation, leaseMillis).get(0);
	}

	/** One run of the completion script, which decides as {@code Completion.decide}. */
	private List<Completion> decide(String queue, long[] ids, int[] deliveries, byte[] operation, long leaseMillis) {
		byte[] name = ascii(queue);
		byte[][] args = new byte[4 + 2 * ids.length][];
		args[0] = operation;
		args[1] = ascii(now());
		args[2] = ascii(leaseMillis);
		args[3] = name;
		for (int i = 0; i < ids.length; i++) {
			args[4 + 2 * i] = ascii(ids[i]);
			args[5 + 2 * i] = ascii(deliveries[i]);
		}
		// an emptied queue's name stays in the registry until the next listing (queues())
		// tidies it: no HLEN per completion
		List<?> answer = run(COMPLETE, keys(queue), args);
		List<Completion> completions = new ArrayList<>(ids.length);
		for (int i = 0; i < ids.length; i++) {
			completions.add(RedisCodes.completion((Long) answer.get(i)));
		}
		return completions;
	}

	/**
	 * Removes an emptied queue from the registry of a cluster, then looks again: a push
	 * that refilled it in between registered it before or after this removal, and in the
	 * second case it is put back here, so a queue holding messages is never left out.
	 */
	private void unregisterIfEmpty(String queue, byte[] name) {
		redis(redis -> redis.setCommands().sRem(this.registry, name));
		if (stats(queue).held() > 0) {
			redis(redis -> redis.setCommands().sAdd(this.registry, name));
		}
	}

	@Override
	public boolean endDelay(String queue, long id) {
		requireIdLookup();
		return (Long) run(END_DELAY, keys(queue), ascii(id), ascii(queue), this.channel) == 1;
	}

	@Override
	public List<QueueStats> queues() {
		List<QueueStats> queues = new ArrayList<>();
		for (String name : registered()) {
			Counts counts = stats(name);
			if (counts.held() > 0) {
				queues.add(counts.of(name));
			}
			else {
				unregisterIfEmpty(name, ascii(name));
			}
		}
		return queues;
	}

	@Override
	public Optional<QueueStats> queue(String name) {
		Counts counts = stats(name);
		return (counts.held() > 0) ? Optional.of(counts.of(name)) : Optional.empty();
	}

	@Override
	public boolean hasReady(String name) {
		Counts counts = stats(name);
		return counts.ready() > 0 || counts.lapsed() > 0;
	}

	@Override
	public List<Peeked> peek(String queue, int max) {
		List<?> answer = run(PEEK, keys(queue), ascii(now()), ascii(max));
		List<Peeked> seen = new ArrayList<>(answer.size() / 4);
		for (int i = 0; i < answer.size(); i += 4) {
			int deliveries = ((Long) answer.get(i + 2)).intValue();
			seen.add(new Peeked(new RedisMessage((Long) answer.get(i), (byte[]) answer.get(i + 3), deliveries),
					RedisCodes.state((Long) answer.get(i + 1)), deliveries));
		}
		seen.sort(Comparator.comparingLong(peeked -> peeked.message().id()));
		return (seen.size() > max) ? List.copyOf(seen.subList(0, max)) : seen;
	}

	@Override
	public long lastId() {
		byte[] last = redis(redis -> redis.stringCommands().get(this.ids));
		return (last != null) ? Long.parseLong(new String(last, StandardCharsets.US_ASCII)) : 0;
	}

	@Override
	public int queueCount() {
		return queues().size();
	}

	@Override
	public long heldCount() {
		long held = 0;
		for (String name : registered()) {
			held += stats(name).held();
		}
		return held;
	}

	/** No caps of the service's own: Redis's {@code maxmemory} is the cap. */
	@Override
	public Optional<Capacity> capacity() {
		return Optional.empty();
	}

	/**
	 * Calls {@code listener} with each queue that messages were pushed to through any
	 * instance on this namespace (this one included), when its ready list was empty or
	 * the messages are delayed, with their delay: what a long poll waits for. One Redis
	 * subscription for all queues, made on the first call; a later call replaces the
	 * listener (the application registers again when it is started again).
	 */
	@Override
	public synchronized void onPushes(PushListener listener) {
		this.listener = listener;
		if (this.subscription == null) {
			this.subscription = this.store.subscribe(PUSHED, this::pushed);
		}
	}

	/** A push announced on the channel: {@code "<delay> <queue>"}. */
	private void pushed(byte[] message) {
		String pushed = new String(message, StandardCharsets.UTF_8);
		int space = pushed.indexOf(' ');
		this.listener.pushed(pushed.substring(space + 1), Long.parseLong(pushed, 0, space, 10));
	}

	@Override
	public synchronized void close() {
		if (this.subscription != null) {
			try {
				this.subscription.close();
			}
			catch (Exception ex) {
				throw new IllegalStateException("closing the subscription", ex);
			}
			this.subscription = null;
		}
	}

	/** The store this service is kept in. */
	public RedisStore store() {
		return this.store;
	}

	/** The namespace this service's keys and channel start with. */
	public String namespace() {
		return this.store.namespace();
	}

	private Set<String> registered() {
		Set<String> names = new TreeSet<>();
		Set<byte[]> members = redis(redis -> redis.setCommands().sMembers(this.registry));
		if (members != null) {
			for (byte[] member : members) {
				names.add(new String(member, StandardCharsets.UTF_8));
			}
		}
		return names;
	}

	private Counts stats(String queue) {
		List<?> answer = run(STATS, keys(queue), ascii(now()));
		return new Counts(((Long) answer.get(0)).intValue(), ((Long) answer.get(1)).intValue(),
				((Long) answer.get(2)).intValue(), (Long) answer.get(3), (Long) answer.get(4));
	}

	private <T> T run(LuaScript script, List<byte[]> keys, byte[]... args) {
		return redis(redis -> script.run(redis, keys, args));
	}

	/**
	 * {@link RedisStore#call}, with the push script's refusal ("CAP": the queue's cap
	 * reached) answered as that cap.
	 */
	private <T> T redis(Function<RedisConnection, T> call) {
		try {
			return this.store.call(call);
		}
		catch (DataAccessException ex) {
			if (LuaScript.said(ex, "CAP")) {
				throw new CapacityExceededException(Capacity.Limit.MESSAGES_PER_QUEUE,
						Long.parseLong(new String(this.maxPerQueue, StandardCharsets.US_ASCII)));
			}
			throw ex;
		}
	}

	/** The queue's keys, then {@code shared} keys where a script may reach them. */
	private List<byte[]> keys(String queue, byte[]... shared) {
		return this.store.queueKeys(queue, QUEUE_KEY_NAMES, shared);
	}

	private long now() {
		return this.clock.millis();
	}

	private void requireIdLookup() {
		if (!this.idLookup) {
			throw new IllegalStateException("built without id lookup (the thesis's setting)");
		}
	}

	private static byte[] ascii(long number) {
		return ascii(Long.toString(number));
	}

	private static byte[] ascii(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	private record Counts(int ready, int inflight, int delayed, long held, long lapsed) {

		QueueStats of(String name) {
			return new QueueStats(name, this.ready, this.inflight, this.delayed);
		}

	}

	private record RedisMessage(long id, byte[] body, int deliveries) implements Message {
	}

	private record PushKey(String queue, long delayMillis) {
	}

	private record LeaseKey(String queue, long leaseMillis) {
	}

}
