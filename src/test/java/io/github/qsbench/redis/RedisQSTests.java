package io.github.qsbench.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import io.github.qsbench.application.queues.QueueSettings;
import io.github.qsbench.core.AsyncCore;
import io.github.qsbench.core.Capacity;
import io.github.qsbench.core.CapacityExceededException;
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
import org.junit.jupiter.api.Timeout;

import io.lettuce.core.cluster.SlotHash;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * What only the redis strategy has: instances that share queues through Redis, pushes
 * announced to every instance, and Redis's memory as the cap. The contract every strategy
 * keeps is {@code QueueServiceContractTests}.
 */
@Timeout(60)
class RedisQSTests {

	private final MutableClock clock = new MutableClock();

	private final QueueOptions options = new QueueOptions(Duration.ofSeconds(30), Eviction.LAZY, this.clock, true);

	private final List<RedisQS> made = new ArrayList<>();

	@AfterEach
	void close() {
		this.made.forEach(RedisQS::close);
	}

	private RedisQS instance(String namespace) {
		RedisQS redis = TestCores.redis(this.options, namespace);
		this.made.add(redis);
		return redis;
	}

	@Test
	void twoInstances_oneNamespace_shareQueuesIdsAndLeases() {
		String namespace = TestCores.newNamespace();
		RedisQS one = instance(namespace);
		RedisQS other = instance(namespace);

		long id = one.push("q", "shared").id();
		assertThat(other.lastId()).isEqualTo(id);
		Lease lease = other.lease("q", 1).get(0);
		assertThat(one.queue("q")).hasValueSatisfying(stats -> assertThat(stats.inflight()).isEqualTo(1));

		assertThat(one.complete("q", id, lease.delivery())).isEqualTo(Completion.COMPLETED);
		assertThat(other.queueCount()).isZero();
		assertThat(instance(TestCores.newNamespace()).lastId()).as("another namespace shares nothing").isZero();
	}

	/**
	 * The asynchronous calls answer as the blocking ones do: ids from the same counter,
	 * each delivery counted, a stale or repeated completion refused, and a script Redis
	 * forgot (as after a restart) sent again whole. Group commits, which take more than
	 * one call, have none.
	 */
	@Test
	void asyncCalls_answerAsTheBlockingOnes() {
		RedisQS redis = instance(TestCores.newNamespace());
		AsyncCore async = redis.async().orElseThrow();

		Message second = pushedLeasedFirstCompleted(redis, async);
		assertThat(async.complete("q", second.id() - 1, 1).join()).isEqualTo(Completion.NOT_FOUND);
		redis.store().call(connection -> {
			connection.scriptingCommands().scriptFlush();
			return null;
		});
		assertThat(async.complete("q", second.id(), 0).join()).isEqualTo(Completion.COMPLETED);
		assertThat(redis.heldCount()).isZero();

		RedisQS grouped = (RedisQS) TestCores.store(TestCores.newNamespace(), true).open(this.options);
		this.made.add(grouped);
		assertThat(grouped.async()).isEmpty();
	}

	/**
	 * On a cluster with a replica for each master, a push waits for the replica of its
	 * queue's master: with that replica stalled (SIGSTOP), a push to the queue, blocking
	 * or asynchronous, is refused once the timeout passes, but kept; a queue on another
	 * master is served as before; once the replica runs again, pushes are answered. It
	 * first waits for the replica of the id counter's master where it reserved ids, and
	 * writes nothing if they are not acknowledged: a failover could give them again; ids
	 * from a block reserved before wait for nothing. A queue's settings wait for the
	 * replica of the master of the set of names too.
	 */
	@Test
	void replicatedBy_onAClusterWithReplicas_aPushWaitsForItsIdsThenItsQueuesMastersReplicas() {
		try (LocalRedisCluster cluster = LocalRedisCluster.startWithReplicas(3)) {
			LettuceConnectionFactory connections = LocalRedisConnections.cluster(cluster);
			RedisStore store = new RedisStore(connections, true, TestCores.newNamespace());
			store.replicatedBy(1, Duration.ofMillis(500), false);
			RedisQS redis = (RedisQS) store.open(this.options);
			try {
				// three masters: the id counter's, the queue's, and one serving neither
				LocalRedis idsReplica = cluster.replicaServing(SlotHash.getSlot(store.key(RedisStore.IDS)));
				String waits = queueWhoseReplica(cluster, store, "waits", (replica) -> replica != idsReplica);
				LocalRedis replica = cluster.replicaServing(slotOf(store, waits));
				String elsewhere = queueWhoseReplica(cluster, store, "elsewhere",
						(other) -> other != idsReplica && other != replica);
				redis.pushAll(waits, TestBodies.utf8("acknowledged"));
				replica.stall();
				try {
					assertThatThrownBy(() -> redis.pushAll(waits, TestBodies.utf8("blocking")))
						.isInstanceOf(ReplicationBarrier.NotReplicatedException.class);
					assertThatThrownBy(
							() -> redis.async().orElseThrow().pushAll(waits, TestBodies.utf8("async")).join())
						.hasCauseInstanceOf(ReplicationBarrier.NotReplicatedException.class);
					redis.pushAll(elsewhere, TestBodies.utf8("another master's replica runs"));
				}
				finally {
					resume(replica);
				}
				// a failover that lost the counter's writes would give their ids again: a
				// reservation of ids waits for the counter's master's replica, a push
				// served from the block reserved (and acknowledged) before does not
				idsReplica.stall();
				try {
					redis.pushAll(waits, TestBodies.utf8("ids from the acknowledged block"));
					List<byte[]> pastTheBlock = Collections.nCopies(IdBlocks.BLOCK + 1, new byte[] { 'x' });
					assertThatThrownBy(() -> redis.pushAll(waits, pastTheBlock))
						.as("a push that reserves ids waits for the id counter's master's replica too")
						.isInstanceOf(ReplicationBarrier.NotReplicatedException.class);
					assertThatThrownBy(() -> redis.async().orElseThrow().pushAll(elsewhere, pastTheBlock).join())
						.hasCauseInstanceOf(ReplicationBarrier.NotReplicatedException.class);
				}
				finally {
					resume(idsReplica);
				}
				redis.pushAll(waits, TestBodies.utf8("acknowledged again"));
				assertThat(redis.queue(waits).orElseThrow().ready())
					.as("the pushes refused for their queue kept by the master, not those refused for their ids")
					.isEqualTo(5);
				assertThat(redis.queue(elsewhere).orElseThrow().ready()).isEqualTo(1);

				// a queue's settings wait for its master's replica and, on a cluster, for
				// that
				// of the set of explicit queues' names
				LocalRedis namesReplica = cluster.replicaServing(SlotHash.getSlot(store.key("explicit")));
				String configured = queueWhoseReplica(cluster, store, "configured", (other) -> other != namesReplica);
				QueueSettings.Change lease = new QueueSettings.Change(60L, null, null, null);
				try (RedisExplicitQueues explicit = store.explicitQueues()) {
					namesReplica.stall();
					try {
						assertThatThrownBy(() -> explicit.configure(configured, lease))
							.isInstanceOf(ReplicationBarrier.NotReplicatedException.class);
					}
					finally {
						resume(namesReplica);
					}
					assertThat(explicit.names()).as("kept by the masters").contains(configured);
					assertThat(explicit.own(configured).leaseSeconds()).isEqualTo(60L);
				}
			}
			finally {
				redis.close();
				store.close();
				connections.destroy();
			}
		}
	}

	/**
	 * Resumes a stalled replica and waits until it answers: what its master sent it
	 * meanwhile is then read, so the next acknowledgement it is asked for comes within
	 * the test's short timeout, not after the replica is next scheduled (a push right
	 * after a resume once timed out in CI).
	 */
	private static void resume(LocalRedis replica) {
		replica.resume();
		await().atMost(Duration.ofSeconds(10)).until(() -> "PONG".equals(Resp.text(replica.call("PING"))));
	}

	/** The first of {@code name}, {@code name-0}, ... whose master's replica passes. */
	private static String queueWhoseReplica(LocalRedisCluster cluster, RedisStore store, String name,
			Predicate<LocalRedis> wanted) {
		String queue = name;
		for (int i = 0; !wanted.test(cluster.replicaServing(slotOf(store, queue))); i++) {
			queue = name + "-" + i;
		}
		return queue;
	}

	private static int slotOf(RedisStore store, String queue) {
		return SlotHash.getSlot(store.queueKeys(queue, List.of("ready")).get(0));
	}

	/**
	 * A listing reads its queues' counts a window of scripts at a time: past one window,
	 * each queue still gets its own counts, in name order, and an emptied one leaves the
	 * listing and the gauges' totals; on a cluster too, whose scripts Lettuce sends to
	 * each queue's shard.
	 */
	@Test
	void listing_moreQueuesThanOneWindow_eachWithItsOwnCounts() {
		listsEachQueuesOwnCounts(instance(TestCores.newNamespace()));
		LettuceConnectionFactory connections = LocalRedisConnections.cluster(LocalRedisCluster.shared3());
		RedisQS cluster = (RedisQS) new RedisStore(connections, true, TestCores.newNamespace()).open(this.options);
		try {
			listsEachQueuesOwnCounts(cluster);
		}
		finally {
			cluster.close();
			connections.destroy();
		}
	}

	private void listsEachQueuesOwnCounts(RedisQS redis) {
		int queues = RedisStore.WINDOW + 44;
		for (int i = 0; i < queues; i++) {
			redis.pushAll(String.format("q%04d", i), TestBodies.utf8("a", "b", "c").subList(0, 1 + i % 3));
		}
		redis.lease("q0001", 1);
		Lease emptied = redis.lease("q0000", 1).get(0);
		redis.complete("q0000", emptied.message().id(), emptied.delivery());

		List<QueueStats> listed = redis.queues();

		assertThat(listed).hasSize(queues - 1);
		for (int i = 1; i < queues; i++) {
			QueueStats stats = listed.get(i - 1);
			assertThat(stats.name()).isEqualTo(String.format("q%04d", i));
			assertThat(stats.ready() + stats.inflight()).as(stats.name()).isEqualTo(1 + i % 3);
		}
		assertThat(listed.get(0).inflight()).isEqualTo(1);
		assertThat(redis.heldCount()).isEqualTo(listed.stream().mapToLong((q) -> q.ready() + q.inflight()).sum());
		assertThat(redis.queueCount()).isEqualTo(queues - 1);
		long held = redis.heldCount();
		Lease last = redis.lease("q0003", 1).get(0);
		redis.complete("q0003", last.message().id(), last.delivery());
		assertThat(redis.totals()).as("the gauges' reading: an emptied queue no longer counted")
			.isEqualTo(new RedisQueueStats.Totals(held - 1, queues - 2));
	}

	/**
	 * On a cluster, whose queues' keys cannot reach the id counter or the registry of
	 * queue names, the asynchronous push takes its id and registers a queue it filled
	 * again in calls of their own, as the blocking push does: ids from the shared
	 * counter, a batch's consecutive, and a queue emptied, tidied from the registry by a
	 * listing and pushed to again is listed again.
	 */
	@Test
	void asyncCalls_onACluster_takeIdsAndRegisterQueuesAsTheBlockingOnes() {
		LettuceConnectionFactory connections = LocalRedisConnections.cluster(LocalRedisCluster.shared3());
		try {
			RedisQS redis = (RedisQS) new RedisStore(connections, true, TestCores.newNamespace()).open(this.options);
			this.made.add(redis);
			AsyncCore async = redis.async().orElseThrow();

			Message second = pushedLeasedFirstCompleted(redis, async);
			assertThat(async.complete("q", second.id(), 0).join()).isEqualTo(Completion.COMPLETED);
			assertThat(redis.queueCount()).as("emptied, and tidied by the listing").isZero();

			Message third = async.push("q", "c".getBytes(StandardCharsets.UTF_8)).join();
			assertThat(third.id()).isEqualTo(second.id() + 1);
			assertThat(redis.queueCount()).as("registered again by the push").isEqualTo(1);
			assertThat(redis.heldCount()).isEqualTo(1);
			List<Message> batch = async
				.pushAll("q", List.of("d".getBytes(StandardCharsets.UTF_8), "e".getBytes(StandardCharsets.UTF_8)))
				.join();
			assertThat(batch).extracting(Message::id).containsExactly(third.id() + 1, third.id() + 2);
			assertThat(async.completeAll("q", new long[] { third.id(), third.id() + 1 }, new int[] { 0, 0 }).join())
				.as("never delivered")
				.containsExactly(Completion.NOT_DELIVERED, Completion.NOT_DELIVERED);
			assertThat(redis.heldCount()).isEqualTo(3);
		}
		finally {
			this.made.forEach(RedisQS::close);
			this.made.clear();
			connections.destroy();
		}
	}

	/**
	 * Pushes "a" with the blocking call and "b" with the asynchronous one to queue "q",
	 * leases both and completes "a" (a stale lease first), each checked; answers "b".
	 */
	private static Message pushedLeasedFirstCompleted(RedisQS redis, AsyncCore async) {
		long first = redis.push("q", "a").id();
		Message second = async.push("q", "b".getBytes(StandardCharsets.UTF_8)).join();
		assertThat(second.id()).as("from the same counter").isEqualTo(first + 1);
		List<Lease> leases = async.lease("q", 2, 30_000).join();
		assertThat(leases).extracting(lease -> lease.message().id()).containsExactly(first, second.id());
		assertThat(leases).extracting(Lease::delivery).containsOnly(1);
		assertThat(new String(leases.get(1).message().body(), StandardCharsets.UTF_8)).isEqualTo("b");
		assertThat(async.complete("q", first, 2).join()).isEqualTo(Completion.STALE_LEASE);
		assertThat(async.complete("q", first, 1).join()).isEqualTo(Completion.COMPLETED);
		return second;
	}

	/**
	 * With group commits on (off by default: measured slower on 2 cores), concurrent
	 * pushes, leases and completions on one queue share scripts, and each caller gets its
	 * own answer: every message pushed once, delivered once, completed once.
	 */
	@Test
	void groupCommit_concurrentCallsOnOneQueue_eachMessageOnce() throws Exception {
		RedisQS redis = (RedisQS) TestCores.store(TestCores.newNamespace(), true).open(this.options);
		this.made.add(redis);
		int threads = 4;
		int each = 50;
		java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2 * threads);
		try {
			List<java.util.concurrent.Future<List<Long>>> pushers = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				pushers.add(pool.submit(() -> {
					List<Long> ids = new ArrayList<>();
					for (int i = 0; i < each; i++) {
						ids.add(redis.push("shared", "m").id());
					}
					return ids;
				}));
			}
			java.util.Set<Long> pushed = new java.util.HashSet<>();
			for (java.util.concurrent.Future<List<Long>> pusher : pushers) {
				pushed.addAll(pusher.get(30, TimeUnit.SECONDS));
			}
			assertThat(pushed).as("one id per push").hasSize(threads * each);
			List<java.util.concurrent.Future<List<Long>>> consumers = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				consumers.add(pool.submit(() -> {
					List<Long> completed = new ArrayList<>();
					List<Lease> leases;
					while (!(leases = redis.lease("shared", 1)).isEmpty()) {
						Lease lease = leases.get(0);
						assertThat(redis.complete("shared", lease.message().id(), lease.delivery()))
							.isEqualTo(Completion.COMPLETED);
						completed.add(lease.message().id());
					}
					return completed;
				}));
			}
			List<Long> completed = new ArrayList<>();
			for (java.util.concurrent.Future<List<Long>> consumer : consumers) {
				completed.addAll(consumer.get(30, TimeUnit.SECONDS));
			}
			assertThat(completed).as("each delivered and completed once").doesNotHaveDuplicates();
			assertThat(new java.util.HashSet<>(completed)).isEqualTo(pushed);
		}
		finally {
			pool.shutdownNow();
		}
	}

	@Test
	void pushThroughOne_announcedToEvery() throws InterruptedException {
		String namespace = TestCores.newNamespace();
		RedisQS one = instance(namespace);
		RedisQS other = instance(namespace);
		BlockingQueue<String> heard = new LinkedBlockingQueue<>();
		other.onPushes((queue, delayMillis) -> heard.add(queue + " " + delayMillis));
		awaitSubscribed(one, heard);

		one.push("ready", "x");
		one.pushAll("later", List.of("y".getBytes()), 5_000);

		assertThat(heard.poll(10, TimeUnit.SECONDS)).isEqualTo("ready 0");
		assertThat(heard.poll(10, TimeUnit.SECONDS)).isEqualTo("later 5000");
		one.push("ready", "behind x");
		assertThat(heard.poll(200, TimeUnit.MILLISECONDS)).as("a queue that was not empty: nobody waits on it")
			.isNull();
	}

	/**
	 * A subscription is made asynchronously: pushes to a probe queue until one is heard,
	 * then drops what was heard.
	 */
	private static void awaitSubscribed(RedisQS pusher, BlockingQueue<String> heard) throws InterruptedException {
		String first = null;
		for (int i = 0; i < 100 && first == null; i++) {
			pusher.push("probe" + i, "p");
			first = heard.poll(50, TimeUnit.MILLISECONDS);
		}
		assertThat(first).as("subscribed").isNotNull();
		heard.clear();
	}

	@Test
	void redisOutOfMemory_refusesPushesAsACapAndLosesNothing() {
		try (LocalRedis small = LocalRedis.start("--maxmemory", "2mb", "--maxmemory-policy", "noeviction")) {
			LettuceConnectionFactory connections = LocalRedisConnections.standalone(small);
			RedisQS redis = (RedisQS) new RedisStore(connections, false, "oom:").open(this.options);
			byte[] body = new byte[10_000];
			int pushed = 0;
			CapacityExceededException refused = null;
			while (refused == null && pushed < 10_000) {
				try {
					redis.push("q", body);
					pushed++;
				}
				catch (CapacityExceededException ex) {
					refused = ex;
				}
			}
			assertThat(refused).as("refused before Redis evicts").isNotNull();
			assertThat(refused.limit()).isEqualTo(Capacity.Limit.STORE_MEMORY);
			assertThat(redis.heldCount()).as("every acknowledged push kept").isEqualTo(pushed);
			redis.complete("q", redis.poll("q").orElseThrow());
			assertThat(redis.heldCount()).isEqualTo(pushed - 1);
			connections.destroy();
		}
	}

	/**
	 * With an append-only file, a SIGKILL of Redis loses no acknowledged push, lease or
	 * completion: Redis replays its file at restart, and the service's connection
	 * reconnects by itself.
	 */
	@Test
	void appendOnlyFile_redisKilled_everythingAcknowledgedKept() {
		try (LocalRedis durable = LocalRedis.start("--appendonly", "yes", "--appendfsync", "always")) {
			LettuceConnectionFactory connections = LocalRedisConnections.standalone(durable);
			try {
				RedisQS redis = (RedisQS) new RedisStore(connections, false, "aof:").open(this.options);
				for (int i = 0; i < 100; i++) {
					redis.push("q", "m" + i);
				}
				Lease leased = redis.lease("q", 1).get(0);
				redis.complete("q", redis.lease("q", 1).get(0).message().id(), 1);

				durable.kill9();
				durable.restart();

				assertThat(redis.queue("q")).hasValue(new QueueStats("q", 98, 1));
				assertThat(redis.lastId()).isEqualTo(100);
				assertThat(redis.complete("q", leased.message().id(), leased.delivery()))
					.as("a lease from before the crash still holds")
					.isEqualTo(Completion.COMPLETED);
				assertThat(redis.lease("q", 100)).extracting(lease -> lease.message().text()).first().isEqualTo("m2");
			}
			finally {
				connections.destroy();
			}
		}
	}

}
