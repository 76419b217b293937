package io.github.qsbench.redis;

import static io.github.qsbench.redis.RedisMessageScripts.CHANGE_OPERATION;
import static io.github.qsbench.redis.RedisMessageScripts.COMPLETE;
import static io.github.qsbench.redis.RedisMessageScripts.COMPLETE_OPERATION;
import static io.github.qsbench.redis.RedisMessageScripts.DISCARD_OPERATION;
import static io.github.qsbench.redis.RedisMessageScripts.LEASE;
import static io.github.qsbench.redis.RedisMessageScripts.PUSH;
import static io.github.qsbench.redis.RedisQueueCalls.ascii;

import java.nio.charset.StandardCharsets;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import io.github.qsbench.core.AsyncCore;
import io.github.qsbench.core.ByIdOperation;
import io.github.qsbench.core.ByIdOutcome;
import io.github.qsbench.core.Capacity;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.CompletionFence;
import io.github.qsbench.core.Lease;
import io.github.qsbench.core.Message;
import io.github.qsbench.core.Peeked;
import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.QueueStats;

import org.springframework.data.redis.connection.ReturnType;

/**
 * The queue service kept in Redis: every operation is one Lua script that Redis runs
 * alone, so Redis's one command at a time is the whole of its thread safety, and any
 * number of service instances on one Redis serve the same queues. Time is the service's
 * clock ({@link QueueOptions#clock()}), passed to every script. Its keys, round trips and
 * caps: docs/design/redis-strategy.md.
 */
public final class RedisQS implements QueueServiceCore {

	private static final LuaScript COMPLETE_FENCED = LuaScript.composed(RedisQS.class, "move-complete",
			ReturnType.INTEGER, "complete");

	private static final LuaScript END_DELAY = LuaScript.of(RedisQS.class, "end-delay", ReturnType.INTEGER);

	private static final LuaScript PEEK = LuaScript.of(RedisQS.class, "peek", ReturnType.MULTI);

	private final RedisStore store;

	private final RedisQueueCalls calls;

	private final InstantSource clock;

	private final long leaseMillis;

	/** The push, lease and completion scripts' arguments and answers. */
	private final RedisMessageScripts scripts;

	private final boolean idLookup;

	private final byte[] ids;

	/** The queues that may hold messages. */
	private final RedisNameSet registry;

	/** Where pushes are announced to every instance, see {@link #onPushes}. */
	private final RedisPushAnnouncements announcements;

	/** Concurrent calls on one queue run as one script each, or none (the default). */
	private final RedisGroupCommits groups;

	/** What the queues hold, as listings, a queue's stats and the gauges read it. */
	private final RedisQueueStats stats;

	/** {@link #async()}'s, or {@code null}. */
	private final RedisAsyncCore async;

	RedisQS(QueueOptions options, RedisStore store) {
		this.store = store;
		this.calls = new RedisQueueCalls(store, options.limits().maxMessagesPerQueue());
		this.clock = options.clock();
		this.leaseMillis = options.leaseTimeout().toMillis();
		this.idLookup = options.idLookup();
		this.ids = store.idsKey();
		this.registry = new RedisNameSet(store, "queues");
		this.announcements = new RedisPushAnnouncements(store);
		this.scripts = new RedisMessageScripts(this.clock, options.limits().maxMessagesPerQueue(),
				this.announcements.channel());
		this.stats = new RedisQueueStats(store, this.calls, this.registry, this.clock);
		this.groups = store.groupCommit() ? new RedisGroupCommits(this) : null;
		this.async = (store.runsAsync() && this.groups == null) ? new RedisAsyncCore(this.calls, this.scripts,
				store.cluster(), this.idLookup, this.ids, this.registry.key()) : null;
	}

	/**
	 * The push, lease and completion scripts sent without waiting, through Lettuce; none
	 * with group commits, whose followers wait for their leader's call.
	 */
	@Override
	public Optional<AsyncCore> async() {
		return Optional.ofNullable(this.async);
	}

	/** {@link #async()}'s, as the fair groups send their scripts; or {@code null}. */
	RedisAsyncCore asyncCalls() {
		return this.async;
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
		if (this.groups != null) {
			return this.groups.push(queue, bodies, delayMillis);
		}
		return pushNow(queue, bodies, delayMillis);
	}

	/** Ids from the counter, a block at a time ({@link RedisStore#reserveIds(int)}). */
	@Override
	public long reserveIds(int count) {
		return this.store.reserveIds(count);
	}

	/** One run of the push script, outside any group commit. */
	@Override
	public List<Message> pushAs(String queue, long firstId, List<byte[]> bodies, long delayMillis) {
		return pushNow(queue, bodies, delayMillis, firstId);
	}

	/** One run of the push script. */
	List<Message> pushNow(String queue, List<byte[]> bodies, long delayMillis) {
		return pushNow(queue, bodies, delayMillis, this.store.cluster() ? reserveIds(bodies.size()) : 0);
	}

	/**
	 * One run of the push script, the messages' ids from {@code first} on (0: the script
	 * takes them from the counter, which only a standalone Redis reaches from a queue's
	 * slot); answered once the replicas asked for have it
	 * ({@link RedisStore#replicatedBy}).
	 */
	private List<Message> pushNow(String queue, List<byte[]> bodies, long delayMillis, long first) {
		List<?> answer = this.calls.run(PUSH, this.calls.keys(queue, this.ids, this.registry.key()),
				this.scripts.pushArgs(queue, bodies, delayMillis, first));
		return this.calls.acknowledged().replicated(queue, RedisMessageScripts.pushed(pushed(queue, answer), bodies));
	}

	/**
	 * A push and a script that follows it in the same step, as one script that
	 * {@link LuaScript#composed composes} push.lua with it (fair-push.lua: a fair queue's
	 * push, {@link RedisFairGroups#push}). The script gets the number of push.lua's keys
	 * and the number of messages, then push.lua's arguments, then {@code more};
	 * push.lua's keys, then {@code moreKeys}. Its answer begins as push.lua's; answered
	 * once the replicas asked for have it ({@link RedisStore#replicatedBy}).
	 */
	List<?> pushThen(LuaScript composed, String queue, List<byte[]> bodies, long delayMillis, List<byte[]> moreKeys,
			byte[]... more) {
		List<byte[]> pushKeys = this.calls.keys(queue, this.ids, this.registry.key());
		byte[][] pushArgs = this.scripts.pushArgs(queue, bodies, delayMillis,
				this.store.cluster() ? reserveIds(bodies.size()) : 0);
		return this.calls.acknowledged()
			.replicated(queue,
					pushed(queue, this.calls.run(composed, RedisMessageScripts.composedKeys(pushKeys, moreKeys),
							RedisMessageScripts.composedArgs(pushKeys.size(), bodies.size(), pushArgs, more))));
	}

	/**
	 * A completion of messages and a script that follows it in the same step, as one
	 * script that {@link LuaScript#composed composes} complete.lua with it
	 * (fair-complete.lua: a fair queue's completion, {@link RedisFairGroups#complete}),
	 * in the shape {@link #pushThen} gives its script, complete.lua's arguments where
	 * push.lua's are. Its answer is complete.lua's; answered once the replicas asked for
	 * have it, as a completion is.
	 */
	List<Completion> completeThen(LuaScript composed, String queue, long[] ids, int[] deliveries, List<byte[]> moreKeys,
			byte[]... more) {
		QueueOptions.requireIdLookup(this.idLookup);
		List<byte[]> completeKeys = this.calls.keys(queue);
		byte[][] args = this.scripts.completeThenArgs(completeKeys.size(), ids, deliveries, more);
		return this.calls.acknowledged()
			.changeReplicated(queue,
					RedisMessageScripts.completions(
							this.calls.run(composed, RedisMessageScripts.composedKeys(completeKeys, moreKeys), args),
							ids.length));
	}

	/** A push script's answer, once a queue it created is in the registry. */
	private List<?> pushed(String queue, List<?> answer) {
		if (RedisMessageScripts.created(answer)) {
			this.registry.add(queue);
		}
		return answer;
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
		QueueOptions.requireIdLookup(this.idLookup);
		return leaseMessages(queue, max, leaseMillis);
	}

	private List<Lease> leaseMessages(String queue, int max, long leaseMillis) {
		if (this.groups != null) {
			return this.groups.lease(queue, max, leaseMillis);
		}
		return leaseNow(queue, max, leaseMillis);
	}

	/**
	 * One run of the lease script, answered once the replicas asked for have the leases
	 * ({@link RedisStore#replicatedBy}): a failover that lost one would deliver its
	 * message again while the lease runs.
	 */
	List<Lease> leaseNow(String queue, int max, long leaseMillis) {
		List<Lease> leases = RedisMessageScripts
			.leases(this.calls.run(LEASE, this.calls.keys(queue), this.scripts.leaseArgs(max, leaseMillis)));
		return leases.isEmpty() ? leases : this.calls.acknowledged().changeReplicated(queue, leases);
	}

	@Override
	public boolean complete(String queue, Message message) {
		return completeOne(queue, message.id(), ANY_DELIVERY) == Completion.COMPLETED;
	}

	@Override
	public Completion complete(String queue, long id, int delivery) {
		QueueOptions.requireIdLookup(this.idLookup);
		return completeOne(queue, id, delivery);
	}

	/**
	 * One run of {@code move-complete.lua}, outside any group commit: the fences this
	 * core is given are a move task's ({@link RedisMoveTasks#fence}), whose record, the
	 * task's hash, is on the source's slot, so the script reads it beside the message.
	 * @throws IllegalArgumentException for a fence made elsewhere, or for another queue
	 */
	@Override
	public Optional<Completion> completeFenced(String queue, long id, int delivery, CompletionFence fence) {
		QueueOptions.requireIdLookup(this.idLookup);
		if (!(fence instanceof RedisMoveTasks.Fence move) || !move.source().equals(queue)) {
			throw new IllegalArgumentException("not a fence of a move task on " + queue + " made in Redis: " + fence);
		}
		List<byte[]> keys = new ArrayList<>(this.calls.keys(queue));
		keys.add(move.tasks());
		long answer = this.calls.acknowledged()
			.changeReplicated(queue, this.calls.<Long>run(COMPLETE_FENCED, keys, ascii(id), ascii(delivery),
					ascii(move.handle()), ascii(move.owner()), ascii(move.line())));
		return (answer == RedisCodes.FENCED) ? Optional.empty() : Optional.of(RedisCodes.completion(answer));
	}

	private Completion completeOne(String queue, long id, int delivery) {
		if (this.groups != null) {
			return this.groups.complete(queue, id, delivery);
		}
		return decide(queue, id, delivery, COMPLETE_OPERATION, 0);
	}

	/**
	 * One run of a script each: a lease change and a discard are branches of the
	 * completion script, the end of a delay a script of its own. The end of a delay waits
	 * for the replicas asked for even when only pushes do
	 * ({@link RedisStore#replicatedBy}): it is the second half of a push held until
	 * released (a fair queue's, a FIFO group's head, a dead-letter copy), and a failover
	 * that undid it would hold that message for a year.
	 */
	@Override
	public ByIdOutcome byId(String queue, long id, ByIdOperation operation, int delivery, long leaseMillis) {
		QueueOptions.requireIdLookup(this.idLookup);
		return switch (operation) {
			case CHANGE_LEASE -> ByIdOutcome.of(decide(queue, id, delivery, CHANGE_OPERATION, leaseMillis));
			case DISCARD -> ByIdOutcome.of(decide(queue, id, ANY_DELIVERY, DISCARD_OPERATION, 0));
			case END_DELAY -> ByIdOutcome.doneIf(this.calls.acknowledged()
				.replicated(queue, this.calls.<Long>run(END_DELAY, this.calls.keys(queue), ascii(id), ascii(queue),
						this.announcements.channel())) == 1);
		};
	}

	/**
	 * Completes them all in one run of the completion script, one round trip whatever
	 * their number.
	 */
	@Override
	public List<Completion> completeAll(String queue, long[] ids, int[] deliveries) {
		QueueOptions.requireIdLookup(this.idLookup);
		if (ids.length == 0) {
			return List.of();
		}
		return completeNow(queue, ids, deliveries);
	}

	/** Discards them all in one run of the completion script, as {@link #completeAll}. */
	@Override
	public List<ByIdOutcome> discardAll(String queue, long[] ids) {
		QueueOptions.requireIdLookup(this.idLookup);
		if (ids.length == 0) {
			return List.of();
		}
		return outcomes(decide(queue, ids, new int[ids.length], DISCARD_OPERATION, 0));
	}

	/**
	 * Changes their leases in one run of the completion script, as {@link #completeAll}.
	 */
	@Override
	public List<ByIdOutcome> changeLeaseAll(String queue, long[] ids, int[] deliveries, long leaseMillis) {
		QueueOptions.requireIdLookup(this.idLookup);
		if (ids.length == 0) {
			return List.of();
		}
		return outcomes(decide(queue, ids, deliveries, CHANGE_OPERATION, leaseMillis));
	}

	private static List<ByIdOutcome> outcomes(List<Completion> verdicts) {
		List<ByIdOutcome> outcomes = new ArrayList<>(verdicts.size());
		for (Completion verdict : verdicts) {
			outcomes.add(ByIdOutcome.of(verdict));
		}
		return outcomes;
	}

	/** One run of the completion script, completing them all. */
	List<Completion> completeNow(String queue, long[] ids, int[] deliveries) {
		return decide(queue, ids, deliveries, COMPLETE_OPERATION, 0);
	}

	private Completion decide(String queue, long id, int delivery, byte[] operation, long leaseMillis) {
		return decide(queue, new long[] { id }, new int[] { delivery }, operation, leaseMillis).get(0);
	}

	/**
	 * One run of the completion script, which decides as {@code Completion.decide};
	 * answered once the replicas asked for have it ({@link RedisStore#replicatedBy}): a
	 * failover that lost a completion would deliver its message again.
	 */
	private List<Completion> decide(String queue, long[] ids, int[] deliveries, byte[] operation, long leaseMillis) {
		// an emptied queue's name stays in the registry until the next listing (queues())
		// tidies it: no HLEN per completion
		return this.calls.acknowledged()
			.changeReplicated(queue, RedisMessageScripts.completions(this.calls.run(COMPLETE, this.calls.keys(queue),
					this.scripts.decideArgs(ids, deliveries, operation, leaseMillis)), ids.length));
	}

	@Override
	public List<QueueStats> queues() {
		return this.stats.queues();
	}

	@Override
	public Optional<QueueStats> queue(String name) {
		return this.stats.queue(name);
	}

	@Override
	public boolean hasReady(String name) {
		return this.stats.hasReady(name);
	}

	@Override
	public List<Peeked> peek(String queue, int max) {
		List<?> answer = this.calls.run(PEEK, this.calls.keys(queue), ascii(now()), ascii(max));
		List<Peeked> seen = new ArrayList<>(answer.size() / 4);
		for (int i = 0; i < answer.size(); i += 4) {
			int deliveries = ((Long) answer.get(i + 2)).intValue();
			seen.add(new Peeked(
					new RedisMessageScripts.RedisMessage((Long) answer.get(i), (byte[]) answer.get(i + 3), deliveries),
					RedisCodes.state((Long) answer.get(i + 1)), deliveries));
		}
		seen.sort(Comparator.comparingLong(peeked -> peeked.message().id()));
		return (seen.size() > max) ? List.copyOf(seen.subList(0, max)) : seen;
	}

	@Override
	public long lastId() {
		byte[] last = this.calls.call(redis -> redis.stringCommands().get(this.ids));
		return (last != null) ? Long.parseLong(new String(last, StandardCharsets.US_ASCII)) : 0;
	}

	/**
	 * How long a block of ids serves ({@link IdBlocks}): a cluster's pushes, and move
	 * tasks' copies everywhere, take their ids from one.
	 */
	@Override
	public long lastIdLagMillis() {
		return TimeUnit.NANOSECONDS.toMillis(IdBlocks.MAX_AGE_NANOS);
	}

	@Override
	public int queueCount() {
		return this.stats.totals().queues();
	}

	@Override
	public long heldCount() {
		return this.stats.totals().held();
	}

	/** {@link RedisQueueStats#totals}, for the gauges. */
	RedisQueueStats.Totals totals() {
		return this.stats.totals();
	}

	@Override
	public boolean external() {
		return true;
	}

	/** No caps of the service's own: Redis's {@code maxmemory} is the cap. */
	@Override
	public Optional<Capacity> capacity() {
		return Optional.empty();
	}

	/** See {@link RedisPushAnnouncements#listen}. */
	@Override
	public void onPushes(PushListener listener) {
		this.announcements.listen(listener);
	}

	@Override
	public void close() {
		this.announcements.close();
	}

	/** The store this service is kept in. */
	public RedisStore store() {
		return this.store;
	}

	/** The namespace this service's keys and channel start with. */
	public String namespace() {
		return this.store.namespace();
	}

	private long now() {
		return this.clock.millis();
	}

}
