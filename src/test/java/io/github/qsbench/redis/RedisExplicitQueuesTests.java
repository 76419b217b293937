package io.github.qsbench.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.qsbench.application.queues.DeadLetterPolicy;
import io.github.qsbench.application.queues.ExplicitQueues.Own;
import io.github.qsbench.application.InvalidRequestException;
import io.github.qsbench.application.queues.QueueSettings;
import io.github.qsbench.application.queues.QueueTags;
import io.github.qsbench.core.TestCores;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisClusterNode;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Explicit queues kept in Redis, as two instances on one namespace see them: what one
 * creates, changes or deletes, the other sees, from its cache once the change's message
 * has reached it (never stale for good: not after a burst of changes racing its loads,
 * nor after a message lost with its connection). On a standalone Redis of the class's
 * own, whose subscriptions it may cut, and on the shared cluster of three masters.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(RedisExplicitQueuesTests.Topology.class)
@Timeout(60)
class RedisExplicitQueuesTests {

	private static final Duration SEEN_WITHIN = Duration.ofSeconds(10);

	enum Topology {

		STANDALONE, CLUSTER

	}

	private static final Map<Topology, LettuceConnectionFactory> factories = new EnumMap<>(Topology.class);

	private static LocalRedis standalone;

	@Parameter
	Topology topology;

	private final List<RedisExplicitQueues> made = new ArrayList<>();

	private final String namespace = TestCores.newNamespace();

	@AfterEach
	void close() {
		this.made.forEach(RedisExplicitQueues::close);
	}

	@AfterAll
	static void stop() {
		synchronized (factories) {
			factories.values().forEach(LettuceConnectionFactory::destroy);
			factories.clear();
			if (standalone != null) {
				standalone.close();
				standalone = null;
			}
		}
	}

	private LettuceConnectionFactory connections() {
		synchronized (factories) {
			return factories.computeIfAbsent(this.topology, (topology) -> {
				if (topology == Topology.CLUSTER) {
					return LocalRedisConnections.cluster(LocalRedisCluster.shared3());
				}
				standalone = LocalRedis.start();
				return LocalRedisConnections.standalone(standalone);
			});
		}
	}

	/** An instance's explicit queues, in this test's namespace. */
	private RedisExplicitQueues instance() {
		RedisExplicitQueues queues = new RedisStore(connections(), this.topology == Topology.CLUSTER, this.namespace)
			.explicitQueues();
		this.made.add(queues);
		return queues;
	}

	@Test
	void createdChangedAndDeletedThroughOne_seenByTheOther() {
		RedisExplicitQueues one = instance();
		RedisExplicitQueues other = instance();
		assertThat(one.configure("dlq", change(null, null, null))).as("created").isTrue();
		assertThat(one.configure("q", change(5L, 2, new DeadLetterPolicy("dlq", 3)))).isTrue();

		assertThat(other.own("q")).isEqualTo(new Own(new DeadLetterPolicy("dlq", 3), 5L, 2, null));
		assertThat(other.own("dlq")).as("explicit, no settings of its own").isEqualTo(Own.NONE);
		assertThat(other.names()).containsExactlyInAnyOrder("q", "dlq");
		assertThat(other.sources("dlq")).containsExactly("q");
		assertThat(other.configure("q", change(null, null, null))).as("created through the other").isFalse();

		one.configure("q", change(7L, null, QueueSettings.Change.REMOVE));
		assertThat(one.own("q")).as("its own change at once").isEqualTo(new Own(null, 7L, 2, null));
		await().atMost(SEEN_WITHIN)
			.pollInterval(Duration.ofMillis(10))
			.untilAsserted(() -> assertThat(other.own("q")).isEqualTo(new Own(null, 7L, 2, null)));

		assertThat(one.remove("q")).isTrue();
		assertThat(other.names()).containsExactly("dlq");
		await().atMost(SEEN_WITHIN).pollInterval(Duration.ofMillis(10)).until(() -> !other.contains("q"));
		assertThat(other.remove("q")).as("gone").isFalse();
	}

	/**
	 * Tags and a largest message set through one instance are the other's, tags merged
	 * and removed key by key; the script counts the tags a change would leave and refuses
	 * one past 50 whole, even when two instances each add tags that fit alone.
	 */
	@Test
	void tagsAndLargestMessage_seenByTheOther_capCountedInTheScript() throws Exception {
		RedisExplicitQueues one = instance();
		RedisExplicitQueues other = instance();
		one.configure("tagged", new QueueSettings.Change(null, null, null, null, 2048,
				QueueTags.Change.tag(Map.of("team", "blue", "Team", "", "a:b", "c/d")), null));
		assertThat(other.own("tagged").tags()).isEqualTo(Map.of("team", "blue", "Team", "", "a:b", "c/d"));
		assertThat(other.own("tagged").maxMessageBytes()).isEqualTo(2048);

		other.configure("tagged", QueueSettings.Change
			.of(new QueueTags.Change(new TreeMap<>(Map.of("x", "1")), new TreeSet<>(List.of("Team", "absent")))));
		await().atMost(SEEN_WITHIN)
			.pollInterval(Duration.ofMillis(10))
			.untilAsserted(() -> assertThat(one.own("tagged").tags())
				.isEqualTo(Map.of("team", "blue", "a:b", "c/d", "x", "1")));
		assertThat(one.own("tagged").maxMessageBytes()).as("kept").isEqualTo(2048);

		Map<String, String> first = new HashMap<>();
		Map<String, String> second = new HashMap<>();
		for (int i = 0; i < 30; i++) {
			first.put("one-" + i, "v");
			second.put("other-" + i, "v");
		}
		ExecutorService both = Executors.newFixedThreadPool(2);
		try {
			Future<Boolean> byOne = both.submit(() -> tagged(one, first));
			Future<Boolean> byOther = both.submit(() -> tagged(other, second));
			assertThat(List.of(byOne.get(10, TimeUnit.SECONDS), byOther.get(10, TimeUnit.SECONDS)))
				.as("each fits alone (3 + 30), not both (63): exactly one is taken")
				.containsExactlyInAnyOrder(true, false);
		}
		finally {
			both.shutdownNow();
		}
		await().atMost(SEEN_WITHIN)
			.pollInterval(Duration.ofMillis(10))
			.untilAsserted(() -> assertThat(other.own("tagged").tags()).hasSize(33));

		assertThat(one.remove("tagged")).isTrue();
		one.configure("tagged", change(null, null, null));
		await().atMost(SEEN_WITHIN)
			.pollInterval(Duration.ofMillis(10))
			.untilAsserted(() -> assertThat(other.own("tagged")).as("gone with the queue").isEqualTo(Own.NONE));
	}

	/**
	 * Recorded settings (SQS's access policy, ...) and the queue's times, kept in its
	 * hash: a new instance reads them as a restarted one would; the creation time is set
	 * once, the modified time by changes of more than tags, an empty value removes.
	 */
	@Test
	void recordedSettingsAndTimes_seenByANewInstance_createdSetOnce() {
		RedisExplicitQueues one = instance();
		one.configure("recorded", new QueueSettings.Change(null, null, null, null, null, null, null,
				Map.of("Policy", "{\"Version\":\"2012-10-17\"}", "KmsMasterKeyId", "alias/aws/sqs"), 100L));
		one.configure("recorded", QueueSettings.Change.of(QueueTags.Change.tag(Map.of("k", "v"))).at(150));
		one.configure("recorded",
				new QueueSettings.Change(null, null, null, null, null, null, null, Map.of("KmsMasterKeyId", ""), 200L));

		Own read = instance().own("recorded");
		assertThat(read.recorded()).isEqualTo(Map.of("Policy", "{\"Version\":\"2012-10-17\"}"));
		assertThat(read.createdSeconds()).isEqualTo(100L);
		assertThat(read.modifiedSeconds()).isEqualTo(200L);
		assertThat(read.tags()).isEqualTo(Map.of("k", "v"));
	}

	/** Whether the store took the tags; false if it refused them for the cap. */
	private static boolean tagged(RedisExplicitQueues queues, Map<String, String> tags) {
		try {
			queues.configure("tagged", QueueSettings.Change.of(QueueTags.Change.tag(tags)));
			return true;
		}
		catch (InvalidRequestException ex) {
			assertThat(ex.detail()).contains("63");
			return false;
		}
	}

	@Test
	void queueLookedUpBeforeItsCreation_seenOnceCreated() {
		RedisExplicitQueues one = instance();
		RedisExplicitQueues other = instance();
		assertThat(other.contains("late")).as("not explicit, and cached so").isFalse();

		one.configure("late", change(null, 30, null));

		await().atMost(SEEN_WITHIN)
			.pollInterval(Duration.ofMillis(10))
			.untilAsserted(() -> assertThat(other.delaySeconds("late")).isEqualTo(30));
	}

	/**
	 * One instance changes a queue's lease again and again while readers on the other
	 * load it over and over: whichever load raced which change, the other ends on the
	 * last lease, and the writer reads each of its own at once.
	 */
	@Test
	void burstOfChanges_otherEndsOnTheLast() throws Exception {
		RedisExplicitQueues one = instance();
		RedisExplicitQueues other = instance();
		one.configure("q", change(0L, null, null));
		AtomicBoolean writing = new AtomicBoolean(true);
		ExecutorService readers = Executors.newFixedThreadPool(2);
		try {
			List<Future<?>> reading = new ArrayList<>();
			for (int i = 0; i < 2; i++) {
				reading.add(readers.submit(() -> {
					while (writing.get()) {
						assertThat(other.leaseSeconds("q")).isNotNull();
					}
				}));
			}
			for (long lease = 1; lease <= 200; lease++) {
				one.configure("q", change(lease, null, null));
				assertThat(one.leaseSeconds("q")).isEqualTo(lease);
			}
			writing.set(false);
			for (Future<?> reader : reading) {
				reader.get(10, TimeUnit.SECONDS);
			}
		}
		finally {
			readers.shutdownNow();
		}
		await().atMost(SEEN_WITHIN)
			.pollInterval(Duration.ofMillis(10))
			.untilAsserted(() -> assertThat(other.leaseSeconds("q")).isEqualTo(200L));
	}

	/**
	 * A change whose message never arrived (written here behind the channel's back, as a
	 * change published while the other's subscription was down would be) stays unseen
	 * while its cache holds the queue, and is seen once the subscription is made again.
	 */
	@Test
	void changeWhoseMessageWasLost_seenOnceSubscribedAgain() {
		RedisExplicitQueues one = instance();
		RedisExplicitQueues other = instance();
		String marker = onTheMasterOf("q");
		assertThat(other.leaseSeconds(marker)).isNull();
		one.configure("q", change(5L, null, null));
		one.configure(marker, change(7L, null, null));
		// the marker's message, published after q's by the same Redis, reached other: so
		// did q's, which no longer drops what other caches next
		await().atMost(SEEN_WITHIN)
			.pollInterval(Duration.ofMillis(10))
			.untilAsserted(() -> assertThat(other.leaseSeconds(marker)).isEqualTo(7L));
		assertThat(other.leaseSeconds("q")).isEqualTo(5L);
		try (RedisConnection redis = connections().getConnection()) {
			redis.hashCommands().hSet(settings("q"), utf8("leaseSeconds"), utf8("9"));
		}
		assertThat(other.leaseSeconds("q")).as("from its cache").isEqualTo(5L);

		killSubscriptions();

		await().atMost(SEEN_WITHIN)
			.pollInterval(Duration.ofMillis(10))
			.untilAsserted(() -> assertThat(other.leaseSeconds("q")).isEqualTo(9L));
	}

	/**
	 * A queue whose settings live on the same Redis as {@code queue}'s, whose configuring
	 * script publishes there too: on a cluster, messages that different masters publish
	 * reach a subscriber in no set order, those of one master in the order published.
	 */
	private String onTheMasterOf(String queue) {
		if (this.topology != Topology.CLUSTER) {
			return "marker";
		}
		try (RedisClusterConnection cluster = connections().getClusterConnection()) {
			RedisClusterNode master = cluster.clusterGetNodeForKey(settings(queue));
			for (int i = 0;; i++) {
				if (cluster.clusterGetNodeForKey(settings("marker" + i)).equals(master)) {
					return "marker" + i;
				}
			}
		}
	}

	private byte[] settings(String queue) {
		return utf8(this.namespace + "{" + queue + "}:settings");
	}

	/** Cuts every subscription, as a lost connection would: clients make them again. */
	private void killSubscriptions() {
		if (this.topology == Topology.CLUSTER) {
			LocalRedisCluster cluster = LocalRedisCluster.shared3();
			cluster.ports().forEach((port) -> cluster.cli(port, "CLIENT", "KILL", "TYPE", "pubsub"));
		}
		else {
			standalone.cli("CLIENT", "KILL", "TYPE", "pubsub");
		}
	}

	private static QueueSettings.Change change(Long leaseSeconds, Integer delaySeconds, DeadLetterPolicy policy) {
		return new QueueSettings.Change(leaseSeconds, delaySeconds, null, policy);
	}

	private static byte[] utf8(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
