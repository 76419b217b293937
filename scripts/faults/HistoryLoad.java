import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A load that writes its history: every operation it makes on the service, one JSON line
 * each, for the checker ({@code io.github.qsbench.history.HistoryCheck}) to read after the
 * run. Unlike scripts/bench/RequestPathLoad.java, which is built to cost the server as
 * little as it can and counts, this one records: it uses the JDK's HttpClient, one per
 * user thread, and measures nothing but what came back.
 *
 * <p>
 * A line: {@code client} (this process's {@code --name} and the thread), {@code face}
 * ({@code rest} or {@code sqs}), {@code op} ({@code push}, {@code push-batch},
 * {@code poll}, {@code complete}, {@code complete-batch}, {@code change-lease}),
 * {@code invoke} and {@code return} ({@code System.nanoTime()}: CLOCK_MONOTONIC, one clock
 * for every process of the machine), {@code result} ({@code ok}; {@code empty} for a poll
 * that got nothing; {@code stale} or {@code not-found} for a completion or lease change;
 * {@code refused} for a push the service refused for its caps, retried by the client with
 * the same values; {@code fail} for any other definite refusal, a connection refused
 * included; {@code indeterminate} for a time-out, a broken connection or a 5xx, whose effect
 * is unknown), and what the operation named or got: {@code values} (the unique text each
 * pushed body carries: {@code <seed>-<name>-<thread>-<n>}), {@code ids}, and a poll's
 * {@code deliveries} (id, value, delivery number, lease token, the lease asked for in ms,
 * and {@code leaseFrom}: its earliest start, the poll's invoke time).
 *
 * <p>
 * Producers push to {@code --queues} queues (created with {@code PUT}, leased for
 * {@code --lease} seconds), one message or a batch, on REST or on the SQS face; consumers
 * poll (one to five messages, a short long poll), sometimes change a lease, and complete
 * what they got naming its lease ({@code If-Match}, a receipt handle), one by one or as a
 * batch; a share of deliveries is abandoned ({@code --abandon}: left to lapse), and a share
 * of polls is cut ({@code --cut}: a long poll whose client closes its socket while it
 * waits, or a poll whose client resets the connection before the answer can be written);
 * with {@code --hold-ms} a consumer works that long on what it got before it completes it.
 * Producers hold off a queue whose ready count (read every 100 ms, not recorded) is above
 * {@code --max-ready} (2000; 0: never), so that producers faster than consumers leave a
 * backlog the drain can finish.
 * With {@code --fifo-queues N}, N FIFO queues ({@code <prefix>-<q>.fifo}) come after the
 * standard ones: a push to one is one SQS {@code SendMessage} naming one of
 * {@code --groups} groups of the producer thread's own (so that its order of sends is the
 * group's order, recorded as the line's {@code group}) and its value as deduplication id.
 * With {@code --fair true}, each REST push to a standard queue names one of
 * {@code --groups} groups of the producer thread's own ({@code ?group=}, or a batch
 * entry's {@code group}): the queues are fair queues, whose messages of noisy groups are
 * held and released by receives that find nothing else ready (SQS pushes stay ungrouped).
 * With {@code --move N}, N values are sent (in batches of ten, recorded) to a dead-letter
 * queue ({@code <prefix>-dlq}) before the load, and {@code --move-after} seconds into it
 * a {@code move} line records a {@code StartMessageMoveTask} from it to the first queue
 * ({@code --move-rate} a second) made on the first port; {@code move-status} lines record
 * its status ({@code status}, {@code moved}, {@code toMove}) as it changes until it ends
 * or {@code --move-wait} seconds pass, before the drain (which drains the dead-letter
 * queue too: what a move left there shows).
 * Every choice is drawn from {@code --seed}, so one seed makes the same requests in the
 * same order per thread (what the service answers, and so the rest of the run, differs).
 * After {@code --seconds}, producers stop, then consumers, then (with {@code --drain}) a
 * drain polls every queue and completes all it gets until every queue's counts are 0 or
 * {@code --drain-seconds} pass: the final read the checker needs; a drain that does not
 * empty them exits 3 (what it left would read as lost). Only 127.0.0.1.
 *
 * <pre>
 * java scripts/faults/HistoryLoad.java --ports 8080 --seconds 20 --seed 7 --out history.jsonl
 * </pre>
 */
public class HistoryLoad {

	static final String SQS_JSON = "application/x-amz-json-1.0";

	static final AtomicBoolean producing = new AtomicBoolean(true);

	static final AtomicBoolean consuming = new AtomicBoolean(true);

	static int[] ports = { 8080 };

	static String name = "load";

	static long seed = 1;

	static int producers = 2;

	static int consumers = 2;

	static int queues = 2;

	static String queuePrefix = "history";

	static int lease = 2;

	static double sqsShare = 0.25;

	static double batchShare = 0.2;

	static double changeShare = 0.1;

	static double abandon = 0.05;

	static double cut = 0.0;

	static long timeoutMs = 3000;

	static long pushPauseMs = 0;

	static long holdMs = 0;

	static long maxReady = 2000;

	/** FIFO queues beside the standard ones, and message groups per producer thread. */
	static int fifoQueues = 0;

	static int groups = 3;

	/** Whether REST pushes to standard queues name message groups (fair queues). */
	static boolean fair = false;

	/** Messages put in the dead-letter queue a move task moves to the first queue (0: none). */
	static int move = 0;

	static int moveRate = 100;

	static double moveAfter = 1;

	static double moveWait = 90;

	static Thread mover;

	/** Each queue's ready count as the pacer last read it. */
	static AtomicLongArray ready;

	static BufferedWriter out;

	/** What the drain's last read of the counts found not empty. */
	static volatile String notEmpty = "";

	public static void main(String[] args) throws Exception {
		double seconds = 20;
		boolean drain = true;
		boolean create = true;
		double drainSeconds = 60;
		Path file = Path.of("history.jsonl");
		for (int i = 0; i < args.length; i += 2) {
			String value = args[i + 1];
			switch (args[i]) {
				case "--ports" -> ports = java.util.Arrays.stream(value.split(",")).mapToInt(Integer::parseInt).toArray();
				case "--name" -> name = value;
				case "--seed" -> seed = Long.parseLong(value);
				case "--seconds" -> seconds = Double.parseDouble(value);
				case "--producers" -> producers = Integer.parseInt(value);
				case "--consumers" -> consumers = Integer.parseInt(value);
				case "--queues" -> queues = Integer.parseInt(value);
				case "--queue-prefix" -> queuePrefix = value;
				case "--lease" -> lease = Integer.parseInt(value);
				case "--sqs" -> sqsShare = Double.parseDouble(value);
				case "--batch" -> batchShare = Double.parseDouble(value);
				case "--change" -> changeShare = Double.parseDouble(value);
				case "--abandon" -> abandon = Double.parseDouble(value);
				case "--cut" -> cut = Double.parseDouble(value);
				case "--timeout-ms" -> timeoutMs = Long.parseLong(value);
				case "--push-pause-ms" -> pushPauseMs = Long.parseLong(value);
				case "--hold-ms" -> holdMs = Long.parseLong(value);
				case "--max-ready" -> maxReady = Long.parseLong(value);
				case "--fifo-queues" -> fifoQueues = Integer.parseInt(value);
				case "--groups" -> groups = Integer.parseInt(value);
				case "--fair" -> fair = Boolean.parseBoolean(value);
				case "--move" -> move = Integer.parseInt(value);
				case "--move-rate" -> moveRate = Integer.parseInt(value);
				case "--move-after" -> moveAfter = Double.parseDouble(value);
				case "--move-wait" -> moveWait = Double.parseDouble(value);
				case "--drain" -> drain = Boolean.parseBoolean(value);
				case "--drain-seconds" -> drainSeconds = Double.parseDouble(value);
				case "--create" -> create = Boolean.parseBoolean(value);
				case "--out" -> file = Path.of(value);
				default -> throw new IllegalArgumentException("unknown option " + args[i]);
			}
		}
		out = Files.newBufferedWriter(file);
		if (create) {
			User setup = new User("setup", 0, new SplittableRandom(seed));
			for (int q = 0; q < queues + fifoQueues; q++) {
				setup.createQueue(queue(q));
			}
			if (move > 0) {
				setup.fillDeadLetters();
			}
		}
		if (move > 0) {
			mover = start("mover", new User("mover", 0, new SplittableRandom(seed))::runMove);
		}
		ready = new AtomicLongArray(queues + fifoQueues);
		if (maxReady > 0) {
			Thread pacer = new Thread(new User("pacer", 0, new SplittableRandom(seed))::pace, "pacer");
			pacer.setDaemon(true);
			pacer.start();
		}
		List<Thread> producerThreads = new ArrayList<>();
		List<Thread> consumerThreads = new ArrayList<>();
		for (int p = 0; p < producers; p++) {
			User user = new User("p" + p, p, new SplittableRandom(seed * 1_000_003 + p));
			producerThreads.add(start("producer-" + p, user::produce));
		}
		for (int c = 0; c < consumers; c++) {
			User user = new User("c" + c, c, new SplittableRandom(seed * 1_000_033 + 7919 + c));
			consumerThreads.add(start("consumer-" + c, user::consume));
		}
		Thread flusher = new Thread(() -> {
			while (true) {
				try {
					Thread.sleep(1000);
					synchronized (HistoryLoad.class) {
						out.flush();
					}
				}
				catch (InterruptedException | IOException ex) {
					return;
				}
			}
		});
		flusher.setDaemon(true);
		flusher.start();
		Thread.sleep((long) (seconds * 1000));
		producing.set(false);
		for (Thread thread : producerThreads) {
			thread.join();
		}
		consuming.set(false);
		for (Thread thread : consumerThreads) {
			thread.join();
		}
		if (mover != null) {
			mover.join();
		}
		boolean drained = !drain
				|| new User("drain", 0, new SplittableRandom(seed)).drain(System.nanoTime() + (long) (drainSeconds * 1e9));
		flusher.interrupt();
		synchronized (HistoryLoad.class) {
			out.flush();
		}
		out.close();
		if (!drained) {
			System.err.println("drain incomplete: messages still queued after " + drainSeconds
					+ " s of drain; the history cannot tell them from lost ones (last read: " + notEmpty + ")");
			System.exit(3);
		}
	}

	static Thread start(String thread, Runnable work) {
		Thread started = new Thread(work, thread);
		started.start();
		return started;
	}

	/** Standard queues first ({@code <prefix>-<q>}), then FIFO ones ({@code <prefix>-<q>.fifo}). */
	static String queue(int q) {
		return queuePrefix + "-" + q + (fifo(q) ? ".fifo" : "");
	}

	static boolean fifo(int q) {
		return q >= queues;
	}

	/** Every queue the load uses, and with a move its dead-letter queue: what a drain empties. */
	static int allQueues() {
		return queues + fifoQueues + ((move > 0) ? 1 : 0);
	}

	static String drainQueue(int q) {
		return (q < queues + fifoQueues) ? queue(q) : deadLetterQueue();
	}

	/** The move's source: a dead-letter queue (of {@code <prefix>-dlq-owner}, never used). */
	static String deadLetterQueue() {
		return queuePrefix + "-dlq";
	}

	static synchronized void record(Map<String, Object> line) {
		try {
			out.write(Json.write(line));
			out.newLine();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** One thread's client: its own HttpClient (so its own connections) and its own random. */
	static final class User {

		final String client;

		final SplittableRandom random;

		final HttpClient http;

		int port;

		long count;

		User(String thread, int index, SplittableRandom random) {
			this.client = name + "-" + thread;
			this.random = random;
			this.port = index % ports.length;
			this.http = HttpClient.newBuilder()
				.version(HttpClient.Version.HTTP_1_1)
				.connectTimeout(Duration.ofMillis(timeoutMs))
				.build();
		}

		String base() {
			return "http://127.0.0.1:" + ports[this.port];
		}

		String queueUrl(String queue) {
			return base() + "/000000000000/" + queue;
		}

		void createQueue(String queue) {
			createQueue(queue, queue.endsWith(".fifo") ? ",\"fifo\":true" : "");
		}

		void createQueue(String queue, String settings) {
			for (int attempt = 0; attempt < 20; attempt++) {
				Answer answer = send(HttpRequest.newBuilder(URI.create(base() + "/queues/" + queue))
					.header("Content-Type", "application/json")
					.PUT(HttpRequest.BodyPublishers.ofString("{\"leaseSeconds\":" + lease + settings + "}")),
						timeoutMs);
				if (answer.status == 200 || answer.status == 201) {
					return;
				}
				pause(250);
			}
			throw new IllegalStateException("could not create queue " + queue);
		}

		void produce() {
			while (producing.get()) {
				int q = this.random.nextInt(queues + fifoQueues);
				while (maxReady > 0 && ready.get(q) > maxReady && producing.get()) {
					pause(10);
				}
				String queue = queue(q);
				boolean sqs = this.random.nextDouble() < sqsShare;
				int n = (this.random.nextDouble() < batchShare) ? 2 + this.random.nextInt(sqs ? 9 : 19) : 1;
				if (fifo(q)) {
					// a group of this thread's own, so that the order of its sends is the group's
					String group = this.client + "-g" + this.random.nextInt(groups);
					String value = seed + "-" + this.client + "-" + (this.count++);
					for (int attempt = 0; producing.get() || attempt == 0; attempt++) {
						if (!pushFifo(queue, group, value).equals("refused")) {
							break;
						}
						pause(20 + this.random.nextInt(80));
					}
					continue;
				}
				List<String> values = new ArrayList<>();
				for (int i = 0; i < n; i++) {
					values.add(seed + "-" + this.client + "-" + (this.count++));
				}
				// a push the service refused for its caps is retried with the same values: a
				// refusal that pushed anyway would show as one value under two ids
				for (int attempt = 0; producing.get() || attempt == 0; attempt++) {
					String result = sqs ? pushSqs(queue, values) : pushRest(queue, values);
					if (!result.equals("refused")) {
						break;
					}
					pause(20 + this.random.nextInt(80));
				}
				if (pushPauseMs > 0) {
					pause(pushPauseMs);
				}
			}
		}

		String pushRest(String queue, List<String> values) {
			Map<String, Object> line = line("rest", (values.size() == 1) ? "push" : "push-batch", queue);
			line.put("values", values);
			HttpRequest.Builder request;
			String group = fair ? this.client + "-g" + this.random.nextInt(groups) : null;
			if (values.size() == 1) {
				request = HttpRequest
					.newBuilder(URI.create(base() + "/queues/" + queue + "/messages"
							+ ((group != null) ? "?group=" + group : "")))
					.header("Content-Type", "text/plain")
					.POST(HttpRequest.BodyPublishers.ofString(values.get(0)));
			}
			else {
				List<Object> entries = new ArrayList<>(values);
				if (group != null) {
					entries.replaceAll(value -> Map.of("body", value, "group", group));
				}
				request = HttpRequest.newBuilder(URI.create(base() + "/queues/" + queue + "/messages/batch"))
					.header("Content-Type", "application/json")
					.POST(HttpRequest.BodyPublishers.ofString(Json.write(Map.of("messages", entries))));
			}
			Answer answer = timed(line, request, timeoutMs);
			if (answer.status == 201) {
				Map<String, Object> body = answer.json();
				line.put("ids", (values.size() == 1) ? List.of(body.get("id")) : body.get("ids"));
				return done(line, "ok");
			}
			return done(line, answer.outcome(429));
		}

		String pushSqs(String queue, List<String> values) {
			Map<String, Object> line = line("sqs", (values.size() == 1) ? "push" : "push-batch", queue);
			line.put("values", values);
			Map<String, Object> request = new LinkedHashMap<>();
			request.put("QueueUrl", queueUrl(queue));
			String action;
			if (values.size() == 1) {
				action = "SendMessage";
				request.put("MessageBody", values.get(0));
			}
			else {
				action = "SendMessageBatch";
				List<Object> entries = new ArrayList<>();
				for (int i = 0; i < values.size(); i++) {
					entries.add(Map.of("Id", "e" + i, "MessageBody", values.get(i)));
				}
				request.put("Entries", entries);
			}
			Answer answer = timed(line, sqs(action, request), timeoutMs);
			if (answer.status == 200) {
				Map<String, Object> body = answer.json();
				if (values.size() == 1) {
					line.put("ids", List.of(Long.parseLong((String) body.get("MessageId"))));
					return done(line, "ok");
				}
				List<?> failed = (List<?>) body.getOrDefault("Failed", List.of());
				if (!failed.isEmpty()) {
					// the batch is pushed together: all or none
					line.put("error", String.valueOf(failed.get(0)));
					return done(line, "fail");
				}
				Long[] ids = new Long[values.size()];
				for (Object entry : (List<?>) body.get("Successful")) {
					Map<?, ?> ok = (Map<?, ?>) entry;
					ids[Integer.parseInt(((String) ok.get("Id")).substring(1))] = Long
						.parseLong((String) ok.get("MessageId"));
				}
				line.put("ids", List.of(ids));
				return done(line, "ok");
			}
			return done(line, answer.sqsOutcome("OverLimit"));
		}

		/**
		 * One FIFO message on the SQS face, its group named and its value as its
		 * deduplication id (so that a retry of a refused send is not a second message).
		 */
		String pushFifo(String queue, String group, String value) {
			Map<String, Object> line = line("sqs", "push", queue);
			line.put("values", List.of(value));
			line.put("group", group);
			Map<String, Object> request = new LinkedHashMap<>();
			request.put("QueueUrl", queueUrl(queue));
			request.put("MessageBody", value);
			request.put("MessageGroupId", group);
			request.put("MessageDeduplicationId", value);
			Answer answer = timed(line, sqs("SendMessage", request), timeoutMs);
			if (answer.status == 200) {
				line.put("ids", List.of(Long.parseLong((String) answer.json().get("MessageId"))));
				return done(line, "ok");
			}
			return done(line, answer.sqsOutcome("OverLimit"));
		}

		/**
		 * The move's set-up: its dead-letter queue, a queue whose dead-letter queue it is
		 * (SQS moves only from one), and {@code --move} values sent to it in batches of
		 * ten, recorded as pushes.
		 */
		void fillDeadLetters() {
			createQueue(deadLetterQueue(), "");
			createQueue(queuePrefix + "-dlq-owner", ",\"maxDeliveries\":5,\"deadLetterQueue\":\"" + deadLetterQueue() + "\"");
			for (int i = 0; i < move; i += 10) {
				List<String> values = new ArrayList<>();
				for (int j = i; j < Math.min(move, i + 10); j++) {
					values.add(seed + "-" + this.client + "-" + (this.count++));
				}
				for (int attempt = 0; attempt < 20; attempt++) {
					if (pushSqs(deadLetterQueue(), values).equals("ok")) {
						break;
					}
					pause(100);
				}
			}
		}

		/**
		 * After {@code --move-after} seconds, starts a message move task (SQS
		 * {@code StartMessageMoveTask}) from the dead-letter queue to the first queue at
		 * {@code --move-rate} a second on the first port, then reads its status
		 * ({@code ListMessageMoveTasks}, on the next port once one refuses the connection)
		 * until it ends or {@code --move-wait} seconds pass: a {@code move} line, and a
		 * {@code move-status} line at each change of status and at the end.
		 */
		void runMove() {
			pause((long) (moveAfter * 1000));
			String arn = "arn:aws:sqs:us-east-1:000000000000:";
			Map<String, Object> line = line("sqs", "move", deadLetterQueue());
			line.put("destination", queue(0));
			Map<String, Object> request = new LinkedHashMap<>();
			request.put("SourceArn", arn + deadLetterQueue());
			request.put("DestinationArn", arn + queue(0));
			request.put("MaxNumberOfMessagesPerSecond", moveRate);
			Answer answer = timed(line, sqs("StartMessageMoveTask", request), timeoutMs);
			if (answer.status != 200) {
				line.put("error", answer.body);
				done(line, answer.sqsOutcome(null));
				return;
			}
			line.put("handle", answer.json().get("TaskHandle"));
			done(line, "ok");
			long deadline = System.nanoTime() + (long) (moveWait * 1e9);
			String last = null;
			while (true) {
				Map<String, Object> status = line("sqs", "move-status", deadLetterQueue());
				Map<String, Object> list = new LinkedHashMap<>();
				list.put("SourceArn", arn + deadLetterQueue());
				Answer listed = timed(status, sqs("ListMessageMoveTasks", list), timeoutMs);
				boolean over = System.nanoTime() > deadline;
				if (listed.status == 200) {
					List<?> results = (List<?>) listed.json().getOrDefault("Results", List.of());
					if (!results.isEmpty()) {
						Map<?, ?> task = (Map<?, ?>) results.get(0);
						String state = (String) task.get("Status");
						boolean ended = !state.equals("RUNNING") && !state.equals("CANCELLING");
						status.put("status", state);
						status.put("moved", task.get("ApproximateNumberOfMessagesMoved"));
						status.put("toMove", task.get("ApproximateNumberOfMessagesToMove"));
						if (task.get("FailureReason") != null) {
							status.put("error", task.get("FailureReason"));
						}
						if (!state.equals(last) || ended || over) {
							done(status, "ok");
						}
						last = state;
						if (ended) {
							return;
						}
					}
				}
				if (over) {
					done(status, "fail");
					return;
				}
				pause(250);
			}
		}

		void consume() {
			while (consuming.get()) {
				String queue = queue(this.random.nextInt(queues + fifoQueues));
				if (this.random.nextDouble() < cut) {
					cutPoll(queue);
					continue;
				}
				boolean sqs = this.random.nextDouble() < sqsShare;
				int max = 1 + this.random.nextInt(5);
				List<Map<String, Object>> got = sqs ? pollSqs(queue, max, 1) : pollRest(queue, max, 1);
				if (holdMs > 0 && !got.isEmpty()) {
					pause(holdMs); // working on what it got
				}
				List<Map<String, Object>> keep = new ArrayList<>();
				for (Map<String, Object> delivery : got) {
					if (this.random.nextDouble() < abandon) {
						continue;
					}
					if (this.random.nextDouble() < changeShare) {
						int seconds = this.random.nextInt(2 * lease + 1);
						String result = changeLease(sqs, queue, delivery, seconds);
						if (seconds == 0 && result.equals("ok")) {
							continue; // released: someone else's now
						}
					}
					keep.add(delivery);
				}
				if (keep.size() > 1 && this.random.nextDouble() < 0.5) {
					completeBatch(sqs, queue, keep);
				}
				else {
					for (Map<String, Object> delivery : keep) {
						complete(sqs, queue, delivery);
					}
				}
			}
		}

		List<Map<String, Object>> pollRest(String queue, int max, int wait) {
			Map<String, Object> line = line("rest", "poll", queue);
			line.put("max", max);
			long leaseMs = lease * 1000L;
			Answer answer = timed(line,
					HttpRequest.newBuilder(URI.create(base() + "/queues/" + queue + "/messages?max=" + max + "&wait="
							+ wait + "&lease=" + lease)).GET(),
					timeoutMs + wait * 1000L);
			if (answer.status == 204) {
				done(line, "empty");
				return List.of();
			}
			if (answer.status != 200) {
				done(line, answer.outcome(-1));
				return List.of();
			}
			Map<String, Object> body = answer.json();
			List<?> messages = (body.containsKey("messages")) ? (List<?>) body.get("messages") : List.of(body);
			List<Map<String, Object>> deliveries = new ArrayList<>();
			for (Object each : messages) {
				Map<?, ?> message = (Map<?, ?>) each;
				deliveries.add(delivery(((Number) message.get("id")).longValue(), (String) message.get("body"),
						((Number) message.get("deliveries")).longValue(), (String) message.get("lease"), leaseMs,
						(long) line.get("invoke")));
			}
			line.put("deliveries", deliveries);
			done(line, "ok");
			return deliveries;
		}

		List<Map<String, Object>> pollSqs(String queue, int max, int wait) {
			Map<String, Object> line = line("sqs", "poll", queue);
			line.put("max", max);
			Map<String, Object> request = new LinkedHashMap<>();
			request.put("QueueUrl", queueUrl(queue));
			request.put("MaxNumberOfMessages", Math.min(max, 10));
			request.put("VisibilityTimeout", lease);
			request.put("WaitTimeSeconds", wait);
			request.put("MessageSystemAttributeNames", List.of("ApproximateReceiveCount"));
			Answer answer = timed(line, sqs("ReceiveMessage", request), timeoutMs + wait * 1000L);
			if (answer.status != 200) {
				done(line, answer.sqsOutcome(null));
				return List.of();
			}
			List<?> messages = (List<?>) answer.json().getOrDefault("Messages", List.of());
			if (messages.isEmpty()) {
				done(line, "empty");
				return List.of();
			}
			List<Map<String, Object>> deliveries = new ArrayList<>();
			for (Object each : messages) {
				Map<?, ?> message = (Map<?, ?>) each;
				Map<?, ?> attributes = (Map<?, ?>) message.get("Attributes");
				deliveries.add(delivery(Long.parseLong((String) message.get("MessageId")), (String) message.get("Body"),
						Long.parseLong((String) attributes.get("ApproximateReceiveCount")),
						(String) message.get("ReceiptHandle"), lease * 1000L, (long) line.get("invoke")));
			}
			line.put("deliveries", deliveries);
			done(line, "ok");
			return deliveries;
		}

		static Map<String, Object> delivery(long id, String value, long number, String token, long leaseMs,
				long from) {
			Map<String, Object> delivery = new LinkedHashMap<>();
			delivery.put("id", id);
			delivery.put("value", value);
			delivery.put("delivery", number);
			delivery.put("lease", token);
			delivery.put("leaseMs", leaseMs);
			delivery.put("leaseFrom", from);
			return delivery;
		}

		/**
		 * A poll whose client goes away: a long poll closed while it waits, or a poll whose
		 * connection is reset before its answer can be written. Whatever it leased is
		 * unknown to every client (indeterminate) until its lease lapses.
		 */
		void cutPoll(String queue) {
			boolean whileWaiting = this.random.nextBoolean();
			Map<String, Object> line = line("rest", "poll", queue);
			line.put("max", 1);
			line.put("cut", whileWaiting ? "while-waiting" : "before-answer");
			line.put("invoke", System.nanoTime());
			try (Socket socket = new Socket()) {
				socket.connect(new InetSocketAddress("127.0.0.1", ports[this.port]), (int) timeoutMs);
				OutputStream stream = socket.getOutputStream();
				stream.write(("GET /queues/" + queue + "/messages?wait=" + (whileWaiting ? 2 : 0) + "&lease=" + lease
						+ " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
					.getBytes(StandardCharsets.US_ASCII));
				stream.flush();
				if (whileWaiting) {
					pause(50 + this.random.nextInt(300));
				}
				socket.setSoLinger(true, 0); // a reset, not a polite close
			}
			catch (IOException ex) {
				// the effect is unknown either way
			}
			line.put("return", System.nanoTime());
			done(line, "indeterminate");
		}

		String changeLease(boolean sqs, String queue, Map<String, Object> delivery, int seconds) {
			Map<String, Object> line = line(sqs ? "sqs" : "rest", "change-lease", queue);
			line.put("id", delivery.get("id"));
			line.put("lease", delivery.get("lease"));
			line.put("seconds", seconds);
			if (sqs) {
				Map<String, Object> request = new LinkedHashMap<>();
				request.put("QueueUrl", queueUrl(queue));
				request.put("ReceiptHandle", delivery.get("lease"));
				request.put("VisibilityTimeout", seconds);
				Answer answer = timed(line, sqs("ChangeMessageVisibility", request), timeoutMs);
				if (answer.status == 200) {
					return done(line, "ok");
				}
				String code = answer.sqsCode();
				return done(line, "MessageNotInflight".equals(code) ? "stale"
						: "InvalidParameterValue".equals(code) ? "not-found" : answer.sqsOutcome(null));
			}
			Answer answer = timed(line,
					HttpRequest.newBuilder(URI.create(base() + "/queues/" + queue + "/messages/" + delivery.get("id")))
						.header("If-Match", "\"" + delivery.get("lease") + "\"")
						.header("Content-Type", "application/json")
						.method("PATCH", HttpRequest.BodyPublishers.ofString("{\"leaseSeconds\":" + seconds + "}")),
					timeoutMs);
			return done(line, restCompletion(answer));
		}

		void complete(boolean sqs, String queue, Map<String, Object> delivery) {
			Map<String, Object> line = line(sqs ? "sqs" : "rest", "complete", queue);
			line.put("id", delivery.get("id"));
			line.put("lease", delivery.get("lease"));
			if (sqs) {
				Map<String, Object> request = new LinkedHashMap<>();
				request.put("QueueUrl", queueUrl(queue));
				request.put("ReceiptHandle", delivery.get("lease"));
				Answer answer = timed(line, sqs("DeleteMessage", request), timeoutMs);
				if (answer.status == 200) {
					done(line, "ok");
					return;
				}
				done(line, "ReceiptHandleIsInvalid".equals(answer.sqsCode()) ? "stale" : answer.sqsOutcome(null));
				return;
			}
			Answer answer = timed(line,
					HttpRequest.newBuilder(URI.create(base() + "/queues/" + queue + "/messages/" + delivery.get("id")))
						.header("If-Match", "\"" + delivery.get("lease") + "\"")
						.DELETE(),
					timeoutMs);
			done(line, restCompletion(answer));
		}

		void completeBatch(boolean sqs, String queue, List<Map<String, Object>> deliveries) {
			Map<String, Object> line = line(sqs ? "sqs" : "rest", "complete-batch", queue);
			List<Map<String, Object>> entries = new ArrayList<>();
			for (Map<String, Object> delivery : deliveries) {
				Map<String, Object> entry = new LinkedHashMap<>();
				entry.put("id", delivery.get("id"));
				entry.put("lease", delivery.get("lease"));
				entries.add(entry);
			}
			line.put("entries", entries);
			if (sqs) {
				Map<String, Object> request = new LinkedHashMap<>();
				request.put("QueueUrl", queueUrl(queue));
				List<Object> handles = new ArrayList<>();
				for (int i = 0; i < deliveries.size(); i++) {
					handles.add(Map.of("Id", "e" + i, "ReceiptHandle", deliveries.get(i).get("lease")));
				}
				request.put("Entries", handles);
				Answer answer = timed(line, sqs("DeleteMessageBatch", request), timeoutMs);
				if (answer.status != 200) {
					String outcome = answer.sqsOutcome(null);
					entries.forEach((entry) -> entry.put("result", outcome));
					done(line, outcome);
					return;
				}
				Map<String, Object> body = answer.json();
				for (Object ok : (List<?>) body.getOrDefault("Successful", List.of())) {
					entries.get(Integer.parseInt(((String) ((Map<?, ?>) ok).get("Id")).substring(1))).put("result", "ok");
				}
				for (Object failed : (List<?>) body.getOrDefault("Failed", List.of())) {
					Map<?, ?> entry = (Map<?, ?>) failed;
					entries.get(Integer.parseInt(((String) entry.get("Id")).substring(1))).put("result",
							"ReceiptHandleIsInvalid".equals(entry.get("Code")) ? "stale" : "fail");
				}
				done(line, "ok");
				return;
			}
			List<Object> named = new ArrayList<>();
			for (Map<String, Object> delivery : deliveries) {
				named.add(Map.of("id", delivery.get("id"), "lease", delivery.get("lease")));
			}
			Answer answer = timed(line,
					HttpRequest.newBuilder(URI.create(base() + "/queues/" + queue + "/messages/completions"))
						.header("Content-Type", "application/json")
						.POST(HttpRequest.BodyPublishers.ofString(Json.write(Map.of("messages", named)))),
					timeoutMs);
			if (answer.status != 200) {
				String outcome = answer.outcome(-1);
				entries.forEach((entry) -> entry.put("result", outcome));
				done(line, outcome);
				return;
			}
			List<?> results = (List<?>) answer.json().get("results");
			for (int i = 0; i < results.size(); i++) {
				int status = ((Number) ((Map<?, ?>) results.get(i)).get("status")).intValue();
				entries.get(i).put("result", restCompletion(status));
			}
			done(line, "ok");
		}

		static String restCompletion(Answer answer) {
			return (answer.status < 0 || answer.status >= 500) ? "indeterminate" : restCompletion(answer.status);
		}

		static String restCompletion(int status) {
			return switch (status) {
				case 204 -> "ok";
				case 412 -> "stale";
				case 404 -> "not-found";
				default -> "fail";
			};
		}

		/**
		 * Reads each queue's ready count every 100 ms until producers stop, on the next
		 * port when one refuses the connection (an instance killed by the fault); not
		 * recorded, since it changes nothing.
		 */
		void pace() {
			while (producing.get()) {
				for (int q = 0; q < queues + fifoQueues; q++) {
					Answer answer = send(HttpRequest.newBuilder(URI.create(base() + "/queues/" + queue(q))).GET(),
							timeoutMs);
					if (answer.status == 200) {
						ready.set(q, ((Number) answer.json().get("ready")).longValue());
					}
					else if (answer.status == -2) {
						this.port = (this.port + 1) % ports.length;
					}
				}
				pause(100);
			}
		}

		/**
		 * Polls every queue on every port and completes all it gets, until every queue's
		 * counts read 0 on the first port (leases abandoned by the run lapse meanwhile):
		 * true; or the deadline passes: false.
		 */
		boolean drain(long deadline) {
			while (System.nanoTime() < deadline) {
				boolean got = false;
				for (int p = 0; p < ports.length; p++) {
					this.port = p;
					for (int q = 0; q < allQueues(); q++) {
						List<Map<String, Object>> deliveries = pollRest(drainQueue(q), 10, 0);
						if (!deliveries.isEmpty()) {
							got = true;
							completeBatch(false, drainQueue(q), deliveries);
						}
					}
				}
				if (!got && empty()) {
					return true;
				}
				if (!got) {
					pause(200);
				}
			}
			return false;
		}

		boolean empty() {
			for (int p = 0; p < ports.length; p++) {
				this.port = p;
				for (int q = 0; q < allQueues(); q++) {
					Answer answer = send(
							HttpRequest.newBuilder(URI.create(base() + "/queues/" + drainQueue(q))).GET(), timeoutMs);
					if (answer.status == 200) {
						Map<String, Object> counts = answer.json();
						for (String count : new String[] { "ready", "inflight", "delayed" }) {
							if (((Number) counts.get(count)).longValue() != 0) {
								notEmpty = ports[p] + " " + drainQueue(q) + " " + answer.body;
								return false;
							}
						}
					}
					else if (answer.status != -2) {
						notEmpty = ports[p] + " " + drainQueue(q) + " " + answer.status;
						return false; // not answered: an instance killed by the fault is left out
					}
				}
			}
			return true;
		}

		Map<String, Object> line(String face, String op, String queue) {
			Map<String, Object> line = new LinkedHashMap<>();
			line.put("client", this.client);
			line.put("face", face);
			line.put("op", op);
			line.put("queue", queue);
			line.put("port", ports[this.port]);
			return line;
		}

		Answer timed(Map<String, Object> line, HttpRequest.Builder request, long timeout) {
			line.put("invoke", System.nanoTime());
			Answer answer = send(request, timeout);
			line.put("return", System.nanoTime());
			if (answer.status == -2 && ports.length > 1) {
				// connection refused: that instance is down; the next request goes to the next
				this.port = (this.port + 1) % ports.length;
			}
			return answer;
		}

		static String done(Map<String, Object> line, String result) {
			line.put("result", result);
			record(line);
			return result;
		}

		HttpRequest.Builder sqs(String action, Map<String, Object> body) {
			return HttpRequest.newBuilder(URI.create(base() + "/"))
				.header("Content-Type", SQS_JSON)
				.header("X-Amz-Target", "AmazonSQS." + action)
				.POST(HttpRequest.BodyPublishers.ofString(Json.write(body)));
		}

		Answer send(HttpRequest.Builder request, long timeout) {
			try {
				HttpResponse<String> response = this.http.send(request.timeout(Duration.ofMillis(timeout)).build(),
						HttpResponse.BodyHandlers.ofString());
				return new Answer(response.statusCode(), response.body());
			}
			catch (ConnectException ex) {
				return new Answer(-2, ex.toString());
			}
			catch (IOException ex) {
				return new Answer(-1, ex.toString());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return new Answer(-1, ex.toString());
			}
		}

	}

	/** A status (-1: no answer, -2: connection refused) and a body. */
	record Answer(int status, String body) {

		@SuppressWarnings("unchecked")
		Map<String, Object> json() {
			return (Map<String, Object>) Json.parse(this.body);
		}

		/** A definite refusal ({@code refused} when it is {@code refusedStatus}) or not. */
		String outcome(int refusedStatus) {
			if (this.status == -2) {
				return "fail";
			}
			if (this.status == -1 || this.status >= 500) {
				return "indeterminate";
			}
			return (this.status == refusedStatus) ? "refused" : "fail";
		}

		String sqsCode() {
			if (this.status < 400 || !this.body.startsWith("{")) {
				return null;
			}
			Object type = json().get("__type");
			return (type == null) ? null : type.toString().substring(type.toString().indexOf('#') + 1);
		}

		String sqsOutcome(String refusedCode) {
			if (this.status == -2) {
				return "fail";
			}
			if (this.status == -1 || this.status >= 500) {
				return "indeterminate";
			}
			return (refusedCode != null && refusedCode.equals(sqsCode())) ? "refused" : "fail";
		}

	}

	static void pause(long ms) {
		try {
			Thread.sleep(ms);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** Just enough JSON for the service's answers and the history's lines. */
	static final class Json {

		static String write(Object value) {
			StringBuilder text = new StringBuilder();
			write(value, text);
			return text.toString();
		}

		private static void write(Object value, StringBuilder text) {
			if (value == null) {
				text.append("null");
			}
			else if (value instanceof String string) {
				text.append('"');
				for (char c : string.toCharArray()) {
					switch (c) {
						case '"' -> text.append("\\\"");
						case '\\' -> text.append("\\\\");
						default -> {
							if (c < 0x20) {
								text.append(String.format("\\u%04x", (int) c));
							}
							else {
								text.append(c);
							}
						}
					}
				}
				text.append('"');
			}
			else if (value instanceof Map<?, ?> map) {
				text.append('{');
				boolean first = true;
				for (Map.Entry<?, ?> entry : map.entrySet()) {
					text.append(first ? "" : ",");
					first = false;
					write(entry.getKey().toString(), text);
					text.append(':');
					write(entry.getValue(), text);
				}
				text.append('}');
			}
			else if (value instanceof List<?> list) {
				text.append('[');
				for (int i = 0; i < list.size(); i++) {
					text.append((i == 0) ? "" : ",");
					write(list.get(i), text);
				}
				text.append(']');
			}
			else {
				text.append(value);
			}
		}

		static Object parse(String text) {
			int[] at = { 0 };
			return value(text, at);
		}

		private static Object value(String text, int[] at) {
			skip(text, at);
			char c = text.charAt(at[0]);
			if (c == '{') {
				Map<String, Object> map = new LinkedHashMap<>();
				at[0]++;
				skip(text, at);
				if (text.charAt(at[0]) == '}') {
					at[0]++;
					return map;
				}
				while (true) {
					skip(text, at);
					String key = (String) value(text, at);
					skip(text, at);
					at[0]++; // ':'
					map.put(key, value(text, at));
					skip(text, at);
					if (text.charAt(at[0]++) == '}') {
						return map;
					}
				}
			}
			if (c == '[') {
				List<Object> list = new ArrayList<>();
				at[0]++;
				skip(text, at);
				if (text.charAt(at[0]) == ']') {
					at[0]++;
					return list;
				}
				while (true) {
					list.add(value(text, at));
					skip(text, at);
					if (text.charAt(at[0]++) == ']') {
						return list;
					}
				}
			}
			if (c == '"') {
				StringBuilder string = new StringBuilder();
				for (at[0]++; text.charAt(at[0]) != '"'; at[0]++) {
					char d = text.charAt(at[0]);
					if (d == '\\') {
						char e = text.charAt(++at[0]);
						switch (e) {
							case 'n' -> string.append('\n');
							case 't' -> string.append('\t');
							case 'r' -> string.append('\r');
							case 'b' -> string.append('\b');
							case 'f' -> string.append('\f');
							case 'u' -> {
								string.append((char) Integer.parseInt(text.substring(at[0] + 1, at[0] + 5), 16));
								at[0] += 4;
							}
							default -> string.append(e);
						}
					}
					else {
						string.append(d);
					}
				}
				at[0]++;
				return string.toString();
			}
			int start = at[0];
			while (at[0] < text.length() && ",}] \n\r\t".indexOf(text.charAt(at[0])) < 0) {
				at[0]++;
			}
			String word = text.substring(start, at[0]);
			return switch (word) {
				case "true" -> Boolean.TRUE;
				case "false" -> Boolean.FALSE;
				case "null" -> null;
				default -> (word.contains(".") || word.contains("e") || word.contains("E")) ? Double.parseDouble(word)
						: Long.parseLong(word);
			};
		}

		private static void skip(String text, int[] at) {
			while (at[0] < text.length() && Character.isWhitespace(text.charAt(at[0]))) {
				at[0]++;
			}
		}

	}

}
