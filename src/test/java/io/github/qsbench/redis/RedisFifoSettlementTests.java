package io.github.qsbench.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;

import io.github.qsbench.application.fifo.FifoHeads;
import io.github.qsbench.application.Sent;
import io.github.qsbench.application.fifo.FifoSends;
import io.github.qsbench.application.fifo.FifoState;
import io.github.qsbench.core.Eviction;
import io.github.qsbench.core.MutableClock;
import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.TestCores;

import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The FIFO settlement's reads over many queues at once ({@link FifoSends#take},
 * {@link FifoHeads#heal}), whose scripts go out a window at a time
 * ({@link RedisStore#runEach}): over more queues than one window, on standalone Redis and
 * on a cluster of three masters (whose scripts Lettuce sends to each queue's shard), each
 * queue's answer is its own, in the queues' order.
 */
@Timeout(60)
class RedisFifoSettlementTests {

	private static final int QUEUES = RedisStore.WINDOW + 4;

	private final MutableClock clock = new MutableClock();

	private LettuceConnectionFactory connections;

	private RedisQS core;

	@AfterEach
	void close() {
		this.core.close();
		this.connections.destroy();
	}

	private RedisStore store(boolean cluster) {
		this.connections = cluster ? LocalRedisConnections.cluster(LocalRedisCluster.shared3())
				: LocalRedisConnections.standalone(LocalRedis.shared());
		RedisStore store = new RedisStore(this.connections, cluster, TestCores.newNamespace());
		this.core = (RedisQS) store.open(new QueueOptions(Duration.ofSeconds(30), Eviction.LAZY, this.clock, true));
		return store;
	}

	/**
	 * Queue {@code i} claims {@code i % 3} keys, recording as many cut messages: a take
	 * past the bound answers each queue its own ids, and a second take nothing until the
	 * bound has passed again for the records taken and not forgotten.
	 */
	@ParameterizedTest(name = "cluster {0}")
	@ValueSource(booleans = { false, true })
	void take_moreQueuesThanOneWindow_eachQueueItsOwnRecords(boolean cluster) {
		FifoSends sends = new RedisFifoSends(store(cluster));
		List<String> queues = names();
		long[] firstIds = new long[QUEUES];
		for (int i = 0; i < QUEUES; i++) {
			List<String> keys = IntStream.range(0, i % 3).mapToObj(n -> "key-" + n).toList();
			firstIds[i] = sends.claim(queues.get(i), keys, this.clock.millis()).firstId();
		}

		assertThat(sends.take(queues, this.clock.millis())).as("within the bound")
			.isEqualTo(Collections.nCopies(QUEUES, List.of()));
		this.clock.advance(Duration.ofMillis(sends.boundMillis()));
		List<List<Long>> taken = sends.take(queues, this.clock.millis());

		assertThat(taken).hasSize(QUEUES);
		for (int i = 0; i < QUEUES; i++) {
			long first = firstIds[i];
			assertThat(taken.get(i)).as(queues.get(i))
				.containsExactlyInAnyOrderElementsOf(IntStream.range(0, i % 3).mapToObj(n -> first + n).toList());
		}
		assertThat(sends.take(queues, this.clock.millis())).as("taken, stamped now")
			.isEqualTo(Collections.nCopies(QUEUES, List.of()));
		for (int i = 0; i < QUEUES; i++) {
			sends.forget(queues.get(i), taken.get(i));
		}
		this.clock.advance(Duration.ofMillis(sends.boundMillis()));
		assertThat(sends.take(queues, this.clock.millis())).as("forgotten")
			.isEqualTo(Collections.nCopies(QUEUES, List.of()));
	}

	/**
	 * A send's claim records the messages of the keys it claims, under ids from the
	 * core's counter, and only those: none while a key is pending, none for a key already
	 * answered; so a settlement discards no id a send did not push, and a push takes no
	 * id a claim recorded.
	 */
	@ParameterizedTest(name = "cluster {0}")
	@ValueSource(booleans = { false, true })
	void claim_recordsOnlyTheKeysItClaims(boolean cluster) {
		RedisStore store = store(cluster);
		FifoSends sends = new RedisFifoSends(store);
		FifoState state = new RedisFifoState(store);
		String queue = names().get(0);
		long now = this.clock.millis();

		FifoSends.Claimed first = sends.claim(queue, List.of("a", "b"), now);
		FifoSends.Claimed blocked = sends.claim(queue, List.of("b", "c"), now);
		Sent original = new Sent(first.firstId(), first.claim().firstSequence());
		state.settle(queue, List.of("a"), List.of(original), now);
		FifoSends.Claimed again = sends.claim(queue, List.of("a", "d"), now);
		long pushedAfter = this.core.push(queue, new byte[] { 1 }).id();
		this.clock.advance(Duration.ofMillis(sends.boundMillis()));

		assertThat(first.claim().found()).containsExactly(null, null);
		assertThat(blocked.claim().found()).containsExactly(FifoState.PENDING, null);
		assertThat(blocked.firstId()).isZero();
		assertThat(again.claim().found()).containsExactly(original, null);
		assertThat(again.firstId()).isGreaterThan(first.firstId() + 1);
		assertThat(pushedAfter).isGreaterThan(again.firstId());
		assertThat(sends.take(List.of(queue), this.clock.millis())).singleElement()
			.asInstanceOf(InstanceOfAssertFactories.list(Long.class))
			.containsExactlyInAnyOrder(first.firstId(), first.firstId() + 1, again.firstId());
	}

	/**
	 * Every queue has one group: in the even queues headed by a message the core no
	 * longer holds (its instance killed between the completion and the removal), in the
	 * odd ones by a message the core holds. A pass takes out exactly the even queues'
	 * heads and answers each queue's cursor.
	 */
	@ParameterizedTest(name = "cluster {0}")
	@ValueSource(booleans = { false, true })
	void heal_moreQueuesThanOneWindow_eachQueueHealedByItself(boolean cluster) {
		store(cluster);
		RedisFifoGroups groups = new RedisFifoGroups(this.core);
		List<String> queues = names();
		List<Long> heads = new ArrayList<>();
		for (int i = 0; i < QUEUES; i++) {
			long held = this.core.push(queues.get(i), "m".getBytes(StandardCharsets.UTF_8)).id();
			long head = (i % 2 == 0) ? held + 1_000_000 : held;
			groups.append(queues.get(i), "g", head);
			heads.add(head);
		}

		List<String> next = groups.heal(queues, this.clock.millis(), Collections.nCopies(QUEUES, FifoHeads.HEAL_START));

		assertThat(next).as("one group a queue: each cycle ends in its first pass")
			.isEqualTo(Collections.nCopies(QUEUES, FifoHeads.HEAL_START));
		for (int i = 0; i < QUEUES; i++) {
			long removed = groups.remove(queues.get(i), heads.get(i));
			assertThat(removed).as(queues.get(i) + ": -1 where the pass took the head out")
				.isEqualTo((i % 2 == 0) ? -1 : 0);
		}
	}

	private static List<String> names() {
		return IntStream.range(0, QUEUES).mapToObj(i -> String.format("q%04d.fifo", i)).toList();
	}

}
