package io.github.qsbench.redis;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;

/**
 * A set of names in Redis, under one key of the namespace, that instances share: the
 * queues that may hold messages, the explicit queues, the fair queues, the sources with
 * an active move task. Each set is kept a superset of what it names: a writer adds a name
 * after what it names is written (or in the same script), and a name leaves only by
 * {@link #removeUnless}, which takes it out and then looks again, so a writer racing the
 * removal either adds the name after it or has its write seen and the name put back.
 */
final class RedisNameSet {

	private final RedisStore store;

	private final byte[] key;

	/** The set under {@link RedisStore#key}{@code (name)}. */
	RedisNameSet(RedisStore store, String name) {
		this.store = store;
		this.key = store.key(name);
	}

	/** The set's key, for the scripts that add or remove a name themselves. */
	byte[] key() {
		return this.key;
	}

	/** One round trip. */
	void add(String name) {
		this.store.call(redis -> redis.setCommands().sAdd(this.key, RedisStore.utf8(name)));
	}

	/**
	 * One round trip; only where nothing it names can be written again without adding it,
	 * else {@link #removeUnless}.
	 */
	void remove(String name) {
		this.store.call(redis -> redis.setCommands().sRem(this.key, RedisStore.utf8(name)));
	}

	/** The names, sorted: one round trip. */
	List<String> names() {
		Set<String> names = new TreeSet<>();
		Set<byte[]> members = this.store.call(redis -> redis.setCommands().sMembers(this.key));
		if (members != null) {
			for (byte[] member : members) {
				names.add(RedisStore.utf8(member));
			}
		}
		return List.copyOf(names);
	}

	/**
	 * Takes {@code name} out, then puts it back if {@code named} finds what it names (a
	 * look made after the removal): two or three round trips and the look's.
	 */
	void removeUnless(String name, BooleanSupplier named) {
		remove(name);
		if (named.getAsBoolean()) {
			add(name);
		}
	}

}
