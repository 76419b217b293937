package io.github.qsbench.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;

import io.github.qsbench.core.TestCores;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A set of names shared in Redis: names sorted and UTF-8 as given, and a removal that
 * looks again after it, so a name whose thing a racing writer made stays.
 */
@Timeout(30)
class RedisNameSetTests {

	private final RedisStore store = TestCores.store(TestCores.newNamespace());

	private final RedisNameSet names = new RedisNameSet(this.store, "names");

	@Test
	void names_sortedAsGiven() {
		this.names.add("b");
		this.names.add("é-queue");
		this.names.add("a");
		this.names.add("b");

		assertThat(this.names.names()).containsExactly("a", "b", "é-queue");
		assertThat(new RedisNameSet(this.store, "other").names()).as("a set of its own key").isEmpty();
	}

	@Test
	void removeUnless_looksAfterTheRemoval_andPutsBackANameWhoseThingIsSeen() {
		this.names.add("kept");
		this.names.add("gone");
		AtomicInteger looks = new AtomicInteger();

		this.names.removeUnless("kept", () -> {
			looks.incrementAndGet();
			assertThat(this.names.names()).as("looked at after the removal").doesNotContain("kept");
			return true;
		});
		this.names.removeUnless("gone", () -> false);

		assertThat(looks).hasValue(1);
		assertThat(this.names.names()).containsExactly("kept");
		this.names.remove("kept");
		assertThat(this.names.names()).isEmpty();
	}

}
