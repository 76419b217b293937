package io.github.qsbench.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.regex.Pattern;

import io.github.qsbench.application.fair.AsyncFairGroups;
import io.github.qsbench.application.fair.FairGroups;
import io.github.qsbench.core.ByIdOperation;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.Eviction;
import io.github.qsbench.core.Lease;
import io.github.qsbench.core.Message;
import io.github.qsbench.core.MutableClock;
import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.QueueStats;
import io.github.qsbench.core.TestBodies;
import io.github.qsbench.core.TestCores;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The fair-queue groups' scripts end the holds of the messages they release in the same
 * step as their records ({@link FairGroups#endsHolds}): nothing is left for a caller to
 * do, so an instance killed right after a release or an append strands no message counted
 * released and held for a year. A push and its append are one script
 * ({@link FairGroups#push}); and a message whose append never came is held only a moment
 * (the append starts a noisy group's long hold), so none is stranded either way.
 */
class RedisFairGroupsTests {

	private final RedisStore store = TestCores.store(TestCores.newNamespace());

	private final MutableClock clock = new MutableClock();

	private final RedisQS core = (RedisQS) this.store
		.open(new QueueOptions(Duration.ofSeconds(30), Eviction.LAZY, this.clock, true));

	private final FairGroups groups = this.store.fifoGroups(this.core).fair();

	@AfterEach
	void close() {
		this.core.close();
	}

	@Test
	void appendOfAQuietGroup_endsTheHoldItself() {
		long id = held("quiet");
		assertThat(this.groups.endsHolds()).isTrue();
		assertThat(appended("tenant", id)).isTrue();
		assertThat(stats()).as("ready with no end of delay asked").isEqualTo(new QueueStats("q", 1, 0, 0));
	}

	@Test
	void releaseOfANoisyGroupsMessage_endsTheHoldItself_skipsOneGoneMeanwhile() {
		for (int i = 0; i < FairGroups.NOISY_MIN; i++) {
			assertThat(appended("noisy", held("released-" + i))).isTrue();
		}
		long gone = held("gone");
		long kept = held("kept");
		assertThat(appended("noisy", gone)).as("held: the group is noisy").isFalse();
		assertThat(appended("noisy", kept)).isFalse();
		assertThat(this.core.byId("q", gone, ByIdOperation.DISCARD).done()).isTrue();

		assertThat(this.groups.release("q", 2)).as("the one gone left out").containsExactly(kept);
		assertThat(stats()).as("ready with no end of delay asked")
			.isEqualTo(new QueueStats("q", FairGroups.NOISY_MIN + 1, 0, 0));
		FairGroups.Counts counts = this.groups.counts("q");
		assertThat(counts.held()).isZero();
		assertThat(counts.released()).isEqualTo(FairGroups.NOISY_MIN + 1);
	}

	@Test
	void appendOfANoisyGroup_holdsItUntilReleased() {
		for (int i = 0; i < FairGroups.NOISY_MIN; i++) {
			assertThat(appended("noisy", held("released-" + i))).isTrue();
		}
		long noisy = held("noisy");
		assertThat(appended("noisy", noisy)).isFalse();
		assertThat(this.core.lease("q", 100, TimeUnit.HOURS.toMillis(1))).as("the released ones, leased an hour")
			.hasSize(FairGroups.NOISY_MIN);

		this.clock.advance(Duration.ofMillis(FairGroups.PUSH_HOLD_MILLIS + 1));
		assertThat(this.core.lease("q", 100)).as("still held after its push's moment").isEmpty();
		assertThat(this.groups.release("q", 1)).containsExactly(noisy);
		assertThat(this.core.lease("q", 100)).extracting((lease) -> lease.message().id()).containsExactly(noisy);
	}

	@Test
	void aPushWhoseAppendNeverCame_isDeliveredAfterItsMoment() {
		long stranded = held("pusher killed before its append");
		assertThat(this.core.lease("q", 1)).isEmpty();

		this.clock.advance(Duration.ofMillis(FairGroups.PUSH_HOLD_MILLIS + 1));
		assertThat(this.core.lease("q", 1)).extracting((lease) -> lease.message().id()).containsExactly(stranded);
		assertThat(appended("late", stranded)).as("no longer held: left in no group").isFalse();
		assertThat(this.groups.counts("q")).isEqualTo(FairGroups.Counts.NONE);
	}

	@Test
	void aRelease_takesOutOfItsGroupAMessageGoneWhoseRemovalNeverCame() {
		long completed = held("completed, its instance killed before the removal");
		assertThat(appended("tenant", completed)).isTrue();
		assertThat(this.core.complete("q", this.core.lease("q", 1).get(0).message())).isTrue();
		long ready = held("ready");
		assertThat(appended("tenant", ready)).isTrue();
		assertThat(this.groups.counts("q").released()).as("the completed one still counted").isEqualTo(2);

		assertThat(this.groups.release("q", 1)).as("nothing held").isEmpty();
		FairGroups.Counts counts = this.groups.counts("q");
		assertThat(counts.released()).as("the one the core still holds").isEqualTo(1);
		assertThat(counts.groups()).isEqualTo(1);
		assertThat(this.groups.remove("q", ready)).isTrue();
		assertThat(this.groups.remove("q", completed)).as("taken out once").isFalse();
		assertThat(this.groups.counts("q")).isEqualTo(FairGroups.Counts.NONE);
	}

	@Test
	void oneAppendForAWholePush_ungroupedQuietAndNoisyInOrder() {
		for (int i = 0; i < FairGroups.NOISY_MIN; i++) {
			assertThat(appended("noisy", held("released-" + i))).isTrue();
		}
		long ungrouped = held("ungrouped");
		long quiet = held("quiet");
		long noisy = held("noisy");
		long gone = held("gone");
		assertThat(this.core.byId("q", gone, ByIdOperation.DISCARD).done()).isTrue();

		assertThat(this.groups.append("q", Arrays.asList(null, "quiet", "noisy", "quiet"),
				new long[] { ungrouped, quiet, noisy, gone }))
			.containsExactly(true, true, false, false);
		assertThat(stats()).as("the ungrouped and the quiet one's holds ended, the noisy one held")
			.isEqualTo(new QueueStats("q", FairGroups.NOISY_MIN + 2, 0, 1));
		FairGroups.Counts counts = this.groups.counts("q");
		assertThat(counts.released()).as("the ungrouped one in no group").isEqualTo(FairGroups.NOISY_MIN + 1);
		assertThat(counts.held()).isEqualTo(1);
	}

	/**
	 * A push is one script (fair-push.lua): its messages pushed held and put in their
	 * groups in one step, so that no instance killed between two calls can leave them in
	 * no group. The scripts counted on a Redis of the test's own, the script loaded by
	 * the pushes before.
	 */
	@Test
	void push_isOneScript_ungroupedQuietAndNoisyInOrder() {
		onOwnRedis((redis, core) -> {
			FairGroups groups = core.store().fifoGroups(core).fair();
			for (int i = 0; i < FairGroups.NOISY_MIN; i++) {
				groups.push("q", TestBodies.utf8("released-" + i), List.of("noisy"));
			}
			long before = scripts(redis);

			List<Message> pushed = groups.push("q", TestBodies.utf8("ungrouped", "quiet", "noisy"),
					Arrays.asList(null, "quiet", "noisy"));

			assertThat(scripts(redis) - before).as("scripts run for the push").isEqualTo(1);
			assertThat(pushed).extracting((message) -> new String(message.body(), StandardCharsets.UTF_8))
				.containsExactly("ungrouped", "quiet", "noisy");
			assertThat(core.queue("q").orElseThrow())
				.as("the ungrouped and the quiet one's holds ended, the noisy one held")
				.isEqualTo(new QueueStats("q", FairGroups.NOISY_MIN + 2, 0, 1));
			FairGroups.Counts counts = groups.counts("q");
			assertThat(counts.released()).as("the ungrouped one in no group").isEqualTo(FairGroups.NOISY_MIN + 1);
			assertThat(counts.held()).isEqualTo(1);
			assertThat(groups.release("q", 1)).containsExactly(pushed.get(2).id());
		});
	}

	/**
	 * A completion is one script (fair-complete.lua): the messages completed and those
	 * completed taken out of their groups in one step, so that no instance killed between
	 * two calls can leave a completed message counted released in its group. Each message
	 * decided as the core decides.
	 */
	@Test
	void complete_isOneScript_takesOnlyTheCompletedOutOfTheirGroups() {
		onOwnRedis((redis, core) -> {
			FairGroups groups = core.store().fifoGroups(core).fair();
			List<Message> pushed = groups.push("q", TestBodies.utf8("a", "b", "c"), List.of("g1", "g2", "g1"));
			List<Lease> leases = core.lease("q", 2);
			assertThat(leases).extracting((lease) -> lease.message().id())
				.containsExactly(pushed.get(0).id(), pushed.get(1).id());
			assertThat(groups.complete("q", new long[] { 999_998 }, new int[] { 0 })).as("the script loaded")
				.containsExactly(Completion.NOT_FOUND);
			long before = scripts(redis);

			List<Completion> completions = groups.complete("q",
					new long[] { pushed.get(0).id(), pushed.get(1).id(), pushed.get(2).id(), 999_999 },
					new int[] { 1, 2, 0, 0 });

			assertThat(scripts(redis) - before).as("scripts run for the completion").isEqualTo(1);
			assertThat(completions).containsExactly(Completion.COMPLETED, Completion.STALE_LEASE,
					Completion.NOT_DELIVERED, Completion.NOT_FOUND);
			assertThat(core.queue("q").orElseThrow()).isEqualTo(new QueueStats("q", 1, 1, 0));
			FairGroups.Counts counts = groups.counts("q");
			assertThat(counts.released()).as("b and c still counted").isEqualTo(2);
			assertThat(counts.groups()).isEqualTo(2);
			assertThat(groups.remove("q", pushed.get(0).id())).as("a taken out already").isFalse();
		});
	}

	/**
	 * Runs {@code test} on a core of a Redis of its own, whose {@code INFO commandstats}
	 * counts only the test's calls.
	 */
	private void onOwnRedis(BiConsumer<LocalRedis, RedisQS> test) {
		try (LocalRedis redis = LocalRedis.start()) {
			LettuceConnectionFactory connections = LocalRedisConnections.standalone(redis);
			RedisQS core = (RedisQS) new RedisStore(connections, false, TestCores.newNamespace())
				.open(new QueueOptions(Duration.ofSeconds(30), Eviction.LAZY, this.clock, true));
			try {
				test.accept(redis, core);
			}
			finally {
				core.close();
				connections.destroy();
			}
		}
	}

	/**
	 * On a cluster the push's ids come from the instance's block ({@link IdBlocks}), and
	 * every key the script touches is on the queue's slot.
	 */
	@Test
	void push_onACluster_releasesTheQuietAndHoldsTheNoisy() {
		LettuceConnectionFactory connections = LocalRedisConnections.cluster(LocalRedisCluster.shared3());
		RedisQS core = (RedisQS) new RedisStore(connections, true, TestCores.newNamespace())
			.open(new QueueOptions(Duration.ofSeconds(30), Eviction.LAZY, this.clock, true));
		try {
			FairGroups groups = core.store().fifoGroups(core).fair();
			for (int i = 0; i < FairGroups.NOISY_MIN; i++) {
				groups.push("q", TestBodies.utf8("released-" + i), List.of("noisy"));
			}
			List<Message> pushed = groups.push("q", TestBodies.utf8("quiet", "noisy"), List.of("quiet", "noisy"));

			assertThat(pushed.get(1).id()).isEqualTo(pushed.get(0).id() + 1);
			assertThat(core.queue("q").orElseThrow()).isEqualTo(new QueueStats("q", FairGroups.NOISY_MIN + 1, 0, 1));
			assertThat(groups.release("q", 1)).containsExactly(pushed.get(1).id());
			List<Lease> quiet = core.lease("q", FairGroups.NOISY_MIN + 2);
			assertThat(groups.complete("q", quiet.stream().mapToLong((lease) -> lease.message().id()).toArray(),
					new int[quiet.size()]))
				.containsOnly(Completion.COMPLETED)
				.hasSize(FairGroups.NOISY_MIN + 2);
			assertThat(groups.counts("q")).as("every message completed, out of its group")
				.isEqualTo(FairGroups.Counts.NONE);
		}
		finally {
			core.close();
			connections.destroy();
		}
	}

	/**
	 * The calls that do not wait ({@link FairGroups#async}, the REST fast path's) run the
	 * blocking calls' scripts on a cluster too: the push takes its ids from the block and
	 * every key is on the queue's slot, the release ends the noisy message's hold, and
	 * the completion takes the messages out of their groups.
	 */
	@Test
	void asyncCalls_onACluster_releaseTheQuiet_holdTheNoisy_completeOutOfTheirGroups() {
		LettuceConnectionFactory connections = LocalRedisConnections.cluster(LocalRedisCluster.shared3());
		RedisQS core = (RedisQS) new RedisStore(connections, true, TestCores.newNamespace())
			.open(new QueueOptions(Duration.ofSeconds(30), Eviction.LAZY, this.clock, true));
		try {
			FairGroups groups = core.store().fifoGroups(core).fair();
			AsyncFairGroups async = groups.async().orElseThrow();
			for (int i = 0; i < FairGroups.NOISY_MIN; i++) {
				async.push("q", TestBodies.utf8("released-" + i), List.of("noisy")).join();
			}
			List<Message> pushed = async.push("q", TestBodies.utf8("quiet", "noisy"), List.of("quiet", "noisy")).join();

			assertThat(pushed.get(1).id()).isEqualTo(pushed.get(0).id() + 1);
			assertThat(core.queue("q").orElseThrow()).isEqualTo(new QueueStats("q", FairGroups.NOISY_MIN + 1, 0, 1));
			assertThat(async.release("q", 1).join()).containsExactly(pushed.get(1).id());
			List<Lease> all = core.lease("q", FairGroups.NOISY_MIN + 2);
			assertThat(all).hasSize(FairGroups.NOISY_MIN + 2);
			assertThat(async
				.complete("q", all.stream().mapToLong((lease) -> lease.message().id()).toArray(), new int[all.size()])
				.join()).containsOnly(Completion.COMPLETED).hasSize(FairGroups.NOISY_MIN + 2);
			assertThat(groups.counts("q")).as("every message completed, out of its group")
				.isEqualTo(FairGroups.Counts.NONE);
		}
		finally {
			core.close();
			connections.destroy();
		}
	}

	/**
	 * The scripts the server has run, from its {@code INFO commandstats}: the calls of
	 * {@code EVALSHA} and {@code EVAL} (the commands a script calls are counted apart).
	 */
	private static long scripts(LocalRedis redis) {
		return Pattern.compile("cmdstat_(evalsha|eval):calls=(\\d+)")
			.matcher(redis.cli("INFO", "commandstats"))
			.results()
			.mapToLong((call) -> Long.parseLong(call.group(2)))
			.sum();
	}

	private boolean appended(String group, long id) {
		return this.groups.append("q", List.of(group), new long[] { id })[0];
	}

	/** A message pushed held, as a fair queue on Redis pushes one. */
	private long held(String body) {
		return this.core.pushAll("q", TestBodies.utf8(body), FairGroups.PUSH_HOLD_MILLIS).get(0).id();
	}

	private QueueStats stats() {
		return this.core.queue("q").orElseThrow();
	}

}
