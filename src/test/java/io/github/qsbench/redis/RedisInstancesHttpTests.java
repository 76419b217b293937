package io.github.qsbench.redis;

import io.github.qsbench.sqs.SqsClients;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import io.github.qsbench.QueueServiceApplication;
import io.github.qsbench.application.messages.LongPolls;
import io.github.qsbench.core.MutableClock;
import io.github.qsbench.core.TestCores;
import io.github.qsbench.http.HttpClientSupport;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueDoesNotExistException;
import software.amazon.awssdk.services.sqs.model.SqsException;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;

/**
 * Three service instances on one Redis serve the same queues: a message pushed through
 * one is polled through another and completed through the third, a lease token from one
 * is honoured (and a stale one refused) by all, a long poll on one is woken by a push
 * through another, a load spread over two instances loses and duplicates nothing, and a
 * queue created, configured or deleted through one (REST or SQS) is so for all. Run on a
 * standalone Redis and on a cluster of three masters; the instances of each share one
 * clock, which the tests move.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(RedisInstancesHttpTests.Topology.class)
@Timeout(120)
class RedisInstancesHttpTests {

	/** Where the instances keep their queues. */
	enum Topology {

		STANDALONE, CLUSTER,

		/**
		 * A cluster as managed services run one: TLS to every node and on the bus, a user
		 * with a password.
		 */
		SECURED_CLUSTER;

		List<String> connection() {
			return switch (this) {
				case STANDALONE -> List.of("--spring.data.redis.host=" + LocalRedis.shared().host(),
						"--spring.data.redis.port=" + LocalRedis.shared().port());
				case CLUSTER -> List.of(nodes(LocalRedisCluster.shared3()));
				case SECURED_CLUSTER -> {
					List<String> args = new ArrayList<>(List.of(nodes(LocalRedisCluster.secured3())));
					OnSecuredRedis.Initializer.credentials()
						.forEach((name, value) -> args.add("--" + name + "=" + value));
					yield args;
				}
			};
		}

		private static String nodes(LocalRedisCluster cluster) {
			return "--spring.data.redis.cluster.nodes=" + String.join(",", cluster.nodes());
		}

	}

	private static final Map<Topology, List<ConfigurableApplicationContext>> instances = new EnumMap<>(Topology.class);

	@Parameter
	Topology topology;

	/** The three instances of this topology, started on first use, in one namespace. */
	private List<ConfigurableApplicationContext> contexts() {
		synchronized (instances) {
			return instances.computeIfAbsent(this.topology, RedisInstancesHttpTests::start);
		}
	}

	private List<HttpClientSupport> clients() {
		return contexts().stream()
			.map(context -> new HttpClientSupport(((WebServerApplicationContext) context).getWebServer().getPort()))
			.toList();
	}

	/** The clock of this topology's instances, one for all, as machines kept in step. */
	private MutableClock clock() {
		return contexts().get(0).getBean(MutableClock.class);
	}

	private static List<ConfigurableApplicationContext> start(Topology topology) {
		// under qs:, the keys the secured cluster's user may touch
		String namespace = "qs:" + TestCores.newNamespace();
		MutableClock clock = new MutableClock();
		List<ConfigurableApplicationContext> started = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			List<String> args = new ArrayList<>(
					List.of("--server.port=0", "--qs.redis.namespace=" + namespace, "--qs.lease-timeout=30s"));
			args.addAll(topology.connection());
			started.add(new SpringApplicationBuilder(QueueServiceApplication.class).profiles("redis")
				.initializers((context) -> ((GenericApplicationContext) context).registerBean(MutableClock.class,
						() -> clock, (definition) -> definition.setPrimary(true)))
				.run(args.toArray(String[]::new)));
		}
		return started;
	}

	@AfterAll
	static void stopInstances() {
		synchronized (instances) {
			instances.values().forEach(started -> started.forEach(ConfigurableApplicationContext::close));
			instances.clear();
		}
	}

	@Test
	void pushedThroughOne_polledThroughAnother_completedThroughTheThird() {
		List<HttpClientSupport> http = clients();
		String queue = "across-" + this.topology;
		long id = JsonPath.parse(http.get(0).post("/queues/" + queue + "/messages", "hello").body())
			.read("$.id", Long.class);

		HttpResponse<String> polled = http.get(1).get("/queues/" + queue + "/messages");
		DocumentContext json = JsonPath.parse(polled.body());
		assertThat(json.read("$.id", Long.class)).isEqualTo(id);
		assertThat(json.read("$.body", String.class)).isEqualTo("hello");
		String lease = json.read("$.lease", String.class);

		assertThat(http.get(0).get("/queues/" + queue + "/messages").statusCode()).as("leased through the other")
			.isEqualTo(204);
		assertThat(http.get(2).deleteIfMatch("/queues/" + queue + "/messages/" + id, "\"" + lease + "\"").statusCode())
			.isEqualTo(204);
		assertThat(http.get(1).delete("/queues/" + queue + "/messages/" + id).statusCode()).as("completed once")
			.isEqualTo(404);
		assertThat(http.get(0).get("/queues/" + queue).statusCode()).as("gone from every instance").isEqualTo(404);
	}

	@Test
	void staleLease_refusedByEveryInstance() {
		List<HttpClientSupport> http = clients();
		String queue = "stale-" + this.topology;
		long id = JsonPath.parse(http.get(0).post("/queues/" + queue + "/messages", "x").body())
			.read("$.id", Long.class);
		String first = JsonPath.parse(http.get(0).get("/queues/" + queue + "/messages?lease=0").body())
			.read("$.lease", String.class);
		String second = JsonPath.parse(http.get(1).get("/queues/" + queue + "/messages").body())
			.read("$.lease", String.class);

		assertThat(second).isNotEqualTo(first);
		for (HttpClientSupport instance : http) {
			assertThat(instance.deleteIfMatch("/queues/" + queue + "/messages/" + id, "\"" + first + "\"").statusCode())
				.isEqualTo(412);
		}
		assertThat(http.get(2).deleteIfMatch("/queues/" + queue + "/messages/" + id, "\"" + second + "\"").statusCode())
			.isEqualTo(204);
	}

	@Test
	void longPollOnOne_wokenByAPushThroughAnother() throws Exception {
		List<HttpClientSupport> http = clients();
		String queue = "wake-" + this.topology;
		CompletableFuture<HttpResponse<String>> waiting = http.get(1)
			.sendAsync("/queues/" + queue + "/messages?wait=20");
		LongPolls second = contexts().get(1).getBean(LongPolls.class);
		await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(10))
			.until(() -> second.waiting().getOrDefault(queue, 0) == 1);

		http.get(0).post("/queues/" + queue + "/messages", "wake up");

		HttpResponse<String> answered = waiting.get(10, TimeUnit.SECONDS);
		assertThat(answered.statusCode()).as("woken long before its 20 s wait ends").isEqualTo(200);
		assertThat(JsonPath.parse(answered.body()).read("$.body", String.class)).isEqualTo("wake up");
	}

	/**
	 * Producers push through two instances, consumers poll through both and complete each
	 * message through the instance it did not poll: every message delivered once and
	 * completed once (leases of 30 s do not lapse in this run).
	 */
	@Test
	void loadOverTwoInstances_nothingLostNothingDuplicated() throws Exception {
		List<HttpClientSupport> http = clients();
		String queue = "load-" + this.topology;
		int producers = 4;
		int perProducer = 250;
		int total = producers * perProducer;
		Map<Long, AtomicInteger> deliveries = new ConcurrentHashMap<>();
		AtomicInteger completed = new AtomicInteger();
		ExecutorService threads = Executors.newFixedThreadPool(8);
		try {
			List<Future<?>> work = new ArrayList<>();
			for (int p = 0; p < producers; p++) {
				HttpClientSupport through = http.get(p % 2);
				work.add(threads.submit(() -> {
					for (int i = 0; i < perProducer; i++) {
						assertThat(through.post("/queues/" + queue + "/messages", "m").statusCode()).isEqualTo(201);
					}
				}));
			}
			for (int c = 0; c < 4; c++) {
				HttpClientSupport polling = http.get(c % 2);
				HttpClientSupport completing = http.get((c + 1) % 2);
				// half the consumers wait, half do not: the fast path sends a poll that
				// does not wait, a plain push and a complete to Redis asynchronously
				String query = (c < 2) ? "?wait=1" : "";
				work.add(threads.submit(() -> {
					while (completed.get() < total) {
						HttpResponse<String> polled = polling.get("/queues/" + queue + "/messages" + query);
						if (polled.statusCode() == 204) {
							continue;
						}
						DocumentContext json = JsonPath.parse(polled.body());
						long id = json.read("$.id", Long.class);
						deliveries.computeIfAbsent(id, any -> new AtomicInteger()).incrementAndGet();
						String lease = json.read("$.lease", String.class);
						if (completing.deleteIfMatch("/queues/" + queue + "/messages/" + id, "\"" + lease + "\"")
							.statusCode() == 204) {
							completed.incrementAndGet();
						}
					}
				}));
			}
			for (Future<?> done : work) {
				done.get(100, TimeUnit.SECONDS);
			}
		}
		finally {
			threads.shutdownNow();
		}
		assertThat(completed.get()).as("each completed once").isEqualTo(total);
		assertThat(deliveries).as("each delivered").hasSize(total);
		assertThat(deliveries.values()).as("none delivered twice").allMatch(count -> count.get() == 1);
		assertThat(http.get(2).get("/queues/" + queue).statusCode()).isEqualTo(404);
	}

	@Test
	void leaseAndDelayPutThroughOne_governPushesAndPollsThroughTheOthers() {
		List<HttpClientSupport> http = clients();
		String queue = "own-" + this.topology;
		assertThat(put(http.get(0), queue, "{\"leaseSeconds\":5,\"delaySeconds\":10}").statusCode()).isEqualTo(201);
		DocumentContext view = JsonPath.parse(http.get(2).get("/queues/" + queue).body());
		assertThat(view.read("$.explicit", Boolean.class)).isTrue();
		assertThat(view.read("$.settings.leaseSeconds", Integer.class)).isEqualTo(5);
		assertThat(view.read("$.settings.delaySeconds", Integer.class)).isEqualTo(10);

		http.get(1).post("/queues/" + queue + "/messages", "later");
		assertThat(http.get(2).get("/queues/" + queue + "/messages").statusCode()).as("held for the queue's delay")
			.isEqualTo(204);
		clock().advance(Duration.ofSeconds(10));
		assertThat(deliveries(http.get(2).get("/queues/" + queue + "/messages"))).isEqualTo(1);
		assertThat(http.get(0).get("/queues/" + queue + "/messages").statusCode()).as("leased").isEqualTo(204);
		clock().advance(Duration.ofSeconds(5));
		assertThat(deliveries(http.get(1).get("/queues/" + queue + "/messages")))
			.as("the queue's lease of 5 s lapsed, not the service's 30 s")
			.isEqualTo(2);
	}

	@Test
	void deadLetterPolicyPutThroughOne_movesMessagesPolledThroughTheOthers() {
		List<HttpClientSupport> http = clients();
		String source = "src-" + this.topology;
		String dlq = "dlq-" + this.topology;
		assertThat(put(http.get(0), dlq, "").statusCode()).isEqualTo(201);
		assertThat(put(http.get(0), source, "{\"maxDeliveries\":1,\"deadLetterQueue\":\"" + dlq + "\"}").statusCode())
			.isEqualTo(201);

		http.get(1).post("/queues/" + source + "/messages", "poison");
		assertThat(deliveries(http.get(2).get("/queues/" + source + "/messages"))).isEqualTo(1);
		clock().advance(Duration.ofSeconds(30));
		assertThat(http.get(1).get("/queues/" + source + "/messages").statusCode())
			.as("moved rather than delivered a second time")
			.isEqualTo(204);

		HttpResponse<String> dead = http.get(2).get("/queues/" + dlq + "/messages");
		assertThat(JsonPath.parse(dead.body()).read("$.body", String.class)).isEqualTo("poison");
	}

	@Test
	void emptyQueueCreatedThroughOne_seenByAnother_untilDeletedThroughOne() {
		List<HttpClientSupport> http = clients();
		String queue = "empty-" + this.topology;
		assertThat(http.get(1).get("/queues/" + queue).statusCode()).as("none yet").isEqualTo(404);

		assertThat(put(http.get(0), queue, "").statusCode()).isEqualTo(201);
		awaitStatus(http.get(1), "/queues/" + queue, 200);
		DocumentContext view = JsonPath.parse(http.get(1).get("/queues/" + queue).body());
		assertThat(view.read("$.explicit", Boolean.class)).isTrue();
		assertThat(view.read("$.ready", Integer.class)).isZero();
		try (SqsClient sqs = sqs(2)) {
			assertThat(sqs.listQueues(list -> list.queueNamePrefix(queue)).queueUrls()).hasSize(1);
		}

		assertThat(http.get(0).delete("/queues/" + queue).statusCode()).isEqualTo(204);
		awaitStatus(http.get(1), "/queues/" + queue, 404);
		try (SqsClient sqs = sqs(2)) {
			assertThat(sqs.listQueues(list -> list.queueNamePrefix(queue)).queueUrls()).isEmpty();
		}
	}

	/**
	 * The second instance has the queue's settings cached when the first changes them: it
	 * answers with the new ones once the change's message reaches it, and leases for the
	 * new lease.
	 */
	@Test
	void settingsChangedThroughOne_afterAnotherCachedThem_seenByIt() {
		List<HttpClientSupport> http = clients();
		String queue = "changed-" + this.topology;
		assertThat(put(http.get(0), queue, "{\"leaseSeconds\":5}").statusCode()).isEqualTo(201);
		assertThat(leaseSeconds(http.get(1), queue)).isEqualTo(5);

		assertThat(put(http.get(0), queue, "{\"leaseSeconds\":60}").statusCode()).isEqualTo(200);
		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(10))
			.until(() -> leaseSeconds(http.get(1), queue) == 60);

		http.get(2).post("/queues/" + queue + "/messages", "m");
		assertThat(deliveries(http.get(1).get("/queues/" + queue + "/messages"))).isEqualTo(1);
		clock().advance(Duration.ofSeconds(30));
		assertThat(http.get(2).get("/queues/" + queue + "/messages").statusCode())
			.as("leased for 60 s, not the 5 s it had cached nor the service's 30 s")
			.isEqualTo(204);
		clock().advance(Duration.ofSeconds(30));
		assertThat(deliveries(http.get(2).get("/queues/" + queue + "/messages"))).isEqualTo(2);
	}

	/**
	 * The SQS face's CreateQueue, with a visibility timeout of its own, through one
	 * instance: the others send to the queue, receive for that timeout, and see it
	 * deleted.
	 */
	@Test
	void sqsQueueCreatedThroughOne_sentToAndReceivedThroughTheOthers() {
		List<HttpClientSupport> http = clients();
		String queue = "sqs-" + this.topology;
		try (SqsClient one = sqs(0); SqsClient two = sqs(1); SqsClient three = sqs(2)) {
			String url = one.createQueue(
					create -> create.queueName(queue).attributes(Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "5")))
				.queueUrl();
			assertThat(two
				.getQueueAttributes(get -> get.queueUrl(url).attributeNames(QueueAttributeName.VISIBILITY_TIMEOUT))
				.attributes()).containsEntry(QueueAttributeName.VISIBILITY_TIMEOUT, "5");

			two.sendMessage(send -> send.queueUrl(url).messageBody("hello"));
			assertThat(receiveCount(three, url)).isEqualTo("1");
			clock().advance(Duration.ofSeconds(5));
			assertThat(receiveCount(two, url)).as("visible again after the queue's 5 s").isEqualTo("2");

			one.deleteQueue(delete -> delete.queueUrl(url));
			await().atMost(Duration.ofSeconds(10))
				.pollInterval(Duration.ofMillis(10))
				.untilAsserted(() -> assertThatExceptionOfType(QueueDoesNotExistException.class)
					.isThrownBy(() -> two.getQueueUrl(get -> get.queueName(queue))));
		}
	}

	/**
	 * A FIFO queue's group rule across instances: a group's head in flight through one
	 * instance holds the group back on the others, whatever instance each message was
	 * sent through, and its deletion through a third releases the next, in send order.
	 */
	@Test
	void fifoGroupInFlightThroughOne_heldBackOnTheOthers_releasedByADeleteThroughAThird() {
		String queue = "fifo-" + this.topology + ".fifo";
		try (SqsClient one = sqs(0); SqsClient two = sqs(1); SqsClient three = sqs(2)) {
			String url = one
				.createQueue(create -> create.queueName(queue)
					.attributes(Map.of(QueueAttributeName.FIFO_QUEUE, "true",
							QueueAttributeName.CONTENT_BASED_DEDUPLICATION, "true")))
				.queueUrl();
			one.sendMessage(send -> send.queueUrl(url).messageBody("g1").messageGroupId("g"));
			two.sendMessage(send -> send.queueUrl(url).messageBody("g2").messageGroupId("g"));
			three.sendMessage(send -> send.queueUrl(url).messageBody("g3").messageGroupId("g"));

			List<Message> first = one.receiveMessage(receive -> receive.queueUrl(url).maxNumberOfMessages(10))
				.messages();
			assertThat(first).extracting(Message::body).containsExactly("g1");
			assertThat(two.receiveMessage(receive -> receive.queueUrl(url).maxNumberOfMessages(10)).messages())
				.as("g2 waits on another instance while g1 is in flight")
				.isEmpty();
			three.deleteMessage(delete -> delete.queueUrl(url).receiptHandle(first.get(0).receiptHandle()));
			List<Message> second = two.receiveMessage(receive -> receive.queueUrl(url).maxNumberOfMessages(10))
				.messages();
			assertThat(second).extracting(Message::body).containsExactly("g2");
			assertThat(three.receiveMessage(receive -> receive.queueUrl(url).maxNumberOfMessages(10)).messages())
				.isEmpty();
			one.deleteMessage(delete -> delete.queueUrl(url).receiptHandle(second.get(0).receiptHandle()));
			assertThat(three.receiveMessage(receive -> receive.queueUrl(url).maxNumberOfMessages(10)).messages())
				.extracting(Message::body)
				.containsExactly("g3");
		}
	}

	/**
	 * Tags and a MaximumMessageSize set through one instance's SQS face: another lists
	 * and changes the tags, a third shows them on REST, every instance refuses a message
	 * over the queue's maximum on both faces, and a queue deleted through one comes back
	 * through another without its tags.
	 */
	@Test
	void tagsAndMaximumMessageSizeSetThroughOne_heldByEveryInstance() {
		List<HttpClientSupport> http = clients();
		String queue = "tags-" + this.topology;
		try (SqsClient one = sqs(0); SqsClient two = sqs(1); SqsClient three = sqs(2)) {
			String url = one
				.createQueue(create -> create.queueName(queue)
					.attributes(Map.of(QueueAttributeName.MAXIMUM_MESSAGE_SIZE, "2048"))
					.tags(Map.of("team", "blue")))
				.queueUrl();
			assertThat(two.listQueueTags(list -> list.queueUrl(url)).tags()).isEqualTo(Map.of("team", "blue"));

			three.tagQueue(tag -> tag.queueUrl(url).tags(Map.of("team", "green", "cost", "7")));
			await().atMost(Duration.ofSeconds(10))
				.pollInterval(Duration.ofMillis(10))
				.untilAsserted(() -> assertThat(two.listQueueTags(list -> list.queueUrl(url)).tags())
					.isEqualTo(Map.of("team", "green", "cost", "7")));
			// each instance drops its cached settings on the change's message: eventually
			await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10)).untilAsserted(() -> {
				DocumentContext view = JsonPath.parse(http.get(0).get("/queues/" + queue).body());
				assertThat(view.read("$.settings.tags", Map.class)).isEqualTo(Map.of("team", "green", "cost", "7"));
				assertThat(view.read("$.settings.maxMessageBytes", Integer.class)).isEqualTo(2048);
			});

			two.sendMessage(send -> send.queueUrl(url).messageBody("k".repeat(2048)));
			assertThatExceptionOfType(SqsException.class)
				.isThrownBy(() -> three.sendMessage(send -> send.queueUrl(url).messageBody("k".repeat(2049))))
				.satisfies(ex -> assertThat(ex.awsErrorDetails().errorCode()).isEqualTo("InvalidParameterValue"));
			assertThat(http.get(1).post("/queues/" + queue + "/messages", "k".repeat(2049)).statusCode())
				.isEqualTo(413);
			assertThat(JsonPath.parse(http.get(2).get("/queues/" + queue).body()).read("$.ready", Integer.class))
				.isEqualTo(1);

			one.deleteQueue(delete -> delete.queueUrl(url));
			await().atMost(Duration.ofSeconds(10))
				.pollInterval(Duration.ofMillis(10))
				.untilAsserted(() -> assertThatExceptionOfType(QueueDoesNotExistException.class)
					.isThrownBy(() -> two.listQueueTags(list -> list.queueUrl(url))));
			two.createQueue(create -> create.queueName(queue));
			await().atMost(Duration.ofSeconds(10))
				.pollInterval(Duration.ofMillis(10))
				.untilAsserted(() -> assertThat(three.listQueueTags(list -> list.queueUrl(url)).tags())
					.as("gone with the queue")
					.isEmpty());
			assertThat(three
				.getQueueAttributes(get -> get.queueUrl(url).attributeNames(QueueAttributeName.MAXIMUM_MESSAGE_SIZE))
				.attributes()).containsEntry(QueueAttributeName.MAXIMUM_MESSAGE_SIZE, "1048576");
		}
	}

	private static HttpResponse<String> put(HttpClientSupport http, String queue, String json) {
		return http.send("/queues/" + queue, "PUT", BodyPublishers.ofString(json), "application/json");
	}

	private static int deliveries(HttpResponse<String> polled) {
		assertThat(polled.statusCode()).isEqualTo(200);
		return JsonPath.parse(polled.body()).read("$.deliveries", Integer.class);
	}

	private static int leaseSeconds(HttpClientSupport http, String queue) {
		return JsonPath.parse(http.get("/queues/" + queue).body()).read("$.settings.leaseSeconds", Integer.class);
	}

	private static void awaitStatus(HttpClientSupport http, String path, int status) {
		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(10))
			.until(() -> http.get(path).statusCode() == status);
	}

	/** An SDK client of the SQS face of one of the instances. */
	private SqsClient sqs(int instance) {
		int port = ((WebServerApplicationContext) contexts().get(instance)).getWebServer().getPort();
		return SqsClients.v2(port);
	}

	/** Receives one message and answers its receive count. */
	private static String receiveCount(SqsClient sqs, String url) {
		List<Message> received = sqs
			.receiveMessage(receive -> receive.queueUrl(url)
				.messageSystemAttributeNames(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT))
			.messages();
		assertThat(received).hasSize(1);
		return received.get(0).attributes().get(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT);
	}

}
