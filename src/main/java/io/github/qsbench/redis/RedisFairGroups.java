package io.github.qsbench.redis;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

import io.github.qsbench.application.fair.AsyncFairGroups;
import io.github.qsbench.application.fair.FairGroups;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.Message;

import org.springframework.data.redis.connection.ReturnType;

/**
 * Fair-queue groups kept in Redis (see {@link FairGroups}), so that every instance on one
 * Redis counts one set of groups and releases each held message once. Per queue, on its
 * slot: hashes of each released and held id's group ({@code fair:released},
 * {@code fair:heldOf}), each group's released count ({@code fair:count}) and held count
 * ({@code fair:holds}), the queue's released total ({@code fair:total}), the groups
 * holding messages in round-robin order ({@code fair:round}), and a list of held ids per
 * group ({@code fair:list:<group>}); each call is one script, atomic. The queues with
 * groups are a set of the namespace ({@code fair:queues}), for instances to learn them.
 */
final class RedisFairGroups implements FairGroups {

	private static final LuaScript APPEND = LuaScript.of(RedisFairGroups.class, "fair-append", ReturnType.MULTI);

	/** push.lua, then fair-append.lua, in one step. */
	private static final LuaScript PUSH = LuaScript.composed(RedisFairGroups.class, "fair-push", ReturnType.MULTI,
			"push", "fair-append");

	/** complete.lua, then fair-remove.lua for each message completed, in one step. */
	private static final LuaScript COMPLETE = LuaScript.composed(RedisFairGroups.class, "fair-complete",
			ReturnType.MULTI, "complete", "fair-remove");

	private static final LuaScript REMOVE = LuaScript.of(RedisFairGroups.class, "fair-remove", ReturnType.INTEGER);

	private static final LuaScript RELEASE = LuaScript.of(RedisFairGroups.class, "fair-release", ReturnType.MULTI);

	private static final LuaScript COUNTS = LuaScript.of(RedisFairGroups.class, "fair-counts", ReturnType.MULTI);

	private static final LuaScript FORGET = LuaScript.of(RedisFairGroups.class, "fair-forget", ReturnType.INTEGER);

	private static final List<String> QUEUE_KEYS = List.of("fair:released", "fair:heldOf", "fair:count", "fair:total",
			"fair:round", "fair:holds");

	private static final List<String> HOLDING_KEYS = Stream
		.concat(QUEUE_KEYS.stream(), Stream.of(RedisQueueCalls.READY, RedisQueueCalls.DELAYED))
		.toList();

	/**
	 * The groups' keys, then the core's ready list and delayed set, whose holds end here,
	 * and its bodies hash, where a release looks for messages gone.
	 */
	private static final List<String> RELEASE_KEYS = Stream
		.concat(HOLDING_KEYS.stream(), Stream.of(RedisQueueCalls.BODIES))
		.toList();

	/**
	 * How many released ids a release looks at for messages gone whose removal from their
	 * group never came (fair-release.lua): a few, drawn at random, so that its cost stays
	 * bounded and, over releases, every one is looked at.
	 */
	private static final byte[] HEAL_SAMPLE = ascii(3);

	private static final String LIST = "fair:list:";

	private final RedisQS core;

	private final RedisStore store;

	/** The fair queues' names. */
	private final RedisNameSet registry;

	/** {@link #async()}'s, or {@code null}. */
	private final Async async;

	RedisFairGroups(RedisQS core) {
		this.core = core;
		this.store = core.store();
		this.registry = new RedisNameSet(this.store, "fair:queues");
		this.async = (core.asyncCalls() != null) ? new Async(core.asyncCalls()) : null;
	}

	/**
	 * One script for the whole push (fair-push.lua): the core's push, held
	 * {@link #PUSH_HOLD_MILLIS}, then {@link #append}'s in the same step, so that an
	 * instance killed between them cannot leave the messages in no group.
	 */
	@Override
	public List<Message> push(String queue, List<byte[]> bodies, List<String> groups) {
		List<?> answer = this.core.pushThen(PUSH, queue, bodies, PUSH_HOLD_MILLIS, holdingKeys(queue),
				pushArgs(queue, groups));
		return RedisMessageScripts.pushed(answer, bodies);
	}

	/** fair-append.lua's arguments in a push: each message's group. */
	private byte[][] pushArgs(String queue, List<String> groups) {
		byte[][] args = appendArgs(queue, groups.size());
		for (int i = 0; i < groups.size(); i++) {
			args[6 + i] = group(groups.get(i));
		}
		return args;
	}

	/**
	 * One script for the whole push, which also ends the holds of the messages it
	 * releases, or makes the holds of those it holds {@link #HOLD_MILLIS} longer.
	 * Answered once the replicas asked for have it ({@link RedisStore#replicatedBy}): it
	 * is part of a push, so a failover that kept the push and lost this would deliver the
	 * messages in no group.
	 */
	@Override
	public boolean[] append(String queue, List<String> groups, long[] ids) {
		byte[][] args = appendArgs(queue, 2 * ids.length);
		for (int i = 0; i < ids.length; i++) {
			args[6 + 2 * i] = ascii(ids[i]);
			args[7 + 2 * i] = group(groups.get(i));
		}
		List<?> answer = this.store.acknowledged()
			.replicated(queue, this.store.<List<?>>run(APPEND, holdingKeys(queue), args));
		boolean[] released = new boolean[ids.length];
		for (int i = 0; i < released.length; i++) {
			released[i] = number(answer.get(i)) == 1;
		}
		return released;
	}

	/**
	 * One script, answered as the completion (or discard) it follows is
	 * ({@link AcknowledgedWrites#changeReplicated}): a failover that kept the completion
	 * and lost this would count the message released in its group for good, so the group
	 * would be judged noisy sooner.
	 */
	@Override
	public boolean remove(String queue, long id) {
		return this.store.acknowledged()
			.changeReplicated(queue, this.store.<Long>run(REMOVE, keys(queue), ascii(id), listPrefix(queue))) == 1;
	}

	/**
	 * One script for the whole completion (fair-complete.lua): the core's completion,
	 * then {@link #remove}'s for each message completed, so that an instance killed
	 * between them cannot leave a completed message counted in its group.
	 */
	@Override
	public List<Completion> complete(String queue, long[] ids, int[] deliveries) {
		return this.core.completeThen(COMPLETE, queue, ids, deliveries, keys(queue), listPrefix(queue));
	}

	/**
	 * One script, which also ends the holds of the messages it releases, and first takes
	 * out of their groups a few released messages gone whose removal never came (an
	 * instance killed between a completion and {@link #remove}).
	 */
	@Override
	public long[] release(String queue, int max) {
		return released(this.store.run(RELEASE, this.store.queueKeys(queue, RELEASE_KEYS), releaseArgs(queue, max)));
	}

	private byte[][] releaseArgs(String queue, int max) {
		return new byte[][] { ascii(max), listPrefix(queue), RedisStore.utf8(queue),
				this.store.key(RedisPushAnnouncements.PUSHED), HEAL_SAMPLE };
	}

	private static long[] released(List<?> ids) {
		long[] released = new long[ids.size()];
		for (int i = 0; i < released.length; i++) {
			released[i] = number(ids.get(i));
		}
		return released;
	}

	/**
	 * The same scripts sent through Lettuce without waiting, answered on its event loop,
	 * where the core sends its own so ({@link RedisQS#async()}).
	 */
	@Override
	public Optional<AsyncFairGroups> async() {
		return Optional.ofNullable(this.async);
	}

	/** {@link #async()}'s: each call the blocking one's script, keys and arguments. */
	private final class Async implements AsyncFairGroups {

		private final RedisAsyncCore calls;

		Async(RedisAsyncCore calls) {
			this.calls = calls;
		}

		@Override
		public CompletableFuture<List<Message>> push(String queue, List<byte[]> stored, List<String> groups) {
			return this.calls.pushThen(PUSH, queue, stored, PUSH_HOLD_MILLIS, holdingKeys(queue),
					pushArgs(queue, groups));
		}

		@Override
		public CompletableFuture<List<Completion>> complete(String queue, long[] ids, int[] deliveries) {
			return this.calls.completeThen(COMPLETE, queue, ids, deliveries, keys(queue), listPrefix(queue));
		}

		@Override
		public CompletableFuture<long[]> release(String queue, int max) {
			List<byte[]> keys = RedisFairGroups.this.store.queueKeys(queue, RELEASE_KEYS);
			byte[][] args = releaseArgs(queue, max);
			return RedisFairGroups.this.store.<List<?>>callAsync(redis -> RELEASE.runAsync(redis, keys, args))
				.thenApply(RedisFairGroups::released);
		}

	}

	@Override
	public Counts counts(String queue) {
		List<?> answer = this.store.run(COUNTS, keys(queue));
		long total = number(answer.get(0));
		Map<String, Long> released = pairs((List<?>) answer.get(1));
		Map<String, Long> held = pairs((List<?>) answer.get(2));
		Set<String> groups = new HashSet<>(released.keySet());
		groups.addAll(held.keySet());
		Set<String> noisy = new HashSet<>();
		long releasedNoisy = 0;
		long heldTotal = 0;
		for (String group : groups) {
			long count = released.getOrDefault(group, 0L);
			long holds = held.getOrDefault(group, 0L);
			heldTotal += holds;
			if (holds > 0 || FairGroups.noisy(count, total)) {
				noisy.add(group);
				releasedNoisy += count;
			}
		}
		return new Counts(groups.size(), noisy, total, releasedNoisy, heldTotal);
	}

	@Override
	public void forget(String queue) {
		this.store.run(FORGET, keys(queue), listPrefix(queue));
		this.registry.remove(queue);
	}

	@Override
	public void announce(String queue) {
		this.registry.add(queue);
	}

	@Override
	public Set<String> queues() {
		return Set.copyOf(this.registry.names());
	}

	@Override
	public boolean shared() {
		return true;
	}

	/** Its scripts end the holds themselves, with the groups' records: one step. */
	@Override
	public boolean endsHolds() {
		return true;
	}

	/** fair-append.lua's first six arguments, then room for {@code more}. */
	private byte[][] appendArgs(String queue, int more) {
		byte[][] args = new byte[6 + more][];
		args[0] = listPrefix(queue);
		args[1] = ascii(NOISY_MIN);
		args[2] = ascii(NOISY_PERCENT);
		args[3] = RedisStore.utf8(queue);
		args[4] = this.store.key(RedisPushAnnouncements.PUSHED);
		args[5] = ascii(HOLD_MILLIS);
		return args;
	}

	private static byte[] group(String group) {
		return RedisStore.utf8((group != null) ? group : "");
	}

	private List<byte[]> keys(String queue) {
		return this.store.queueKeys(queue, QUEUE_KEYS);
	}

	/**
	 * The groups' keys, then the core's ready list and delayed set, whose holds end here.
	 */
	private List<byte[]> holdingKeys(String queue) {
		return this.store.queueKeys(queue, HOLDING_KEYS);
	}

	/** The prefix of the queue's held lists' keys, on its slot. */
	private byte[] listPrefix(String queue) {
		return this.store.queueKeys(queue, List.of(LIST)).get(0);
	}

	private static Map<String, Long> pairs(List<?> flat) {
		Map<String, Long> pairs = new HashMap<>();
		for (int i = 0; i + 1 < flat.size(); i += 2) {
			pairs.put(text(flat.get(i)), number(flat.get(i + 1)));
		}
		return pairs;
	}

	private static String text(Object value) {
		return (value instanceof byte[] bytes) ? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(value);
	}

	private static long number(Object value) {
		return (value instanceof Number number) ? number.longValue() : Long.parseLong(text(value));
	}

	private static byte[] ascii(long number) {
		return Long.toString(number).getBytes(StandardCharsets.US_ASCII);
	}

}
