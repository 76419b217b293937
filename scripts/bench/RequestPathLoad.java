import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * A low-overhead closed-loop HTTP/1.1 client for measuring what the service's request
 * path costs: one platform thread and one kept-alive socket per virtual user, requests
 * written as prebuilt bytes, answers parsed just enough (status, Content-Length or
 * chunked, Connection: close, the "id" of a delivery). Gatling on the same two cores eats
 * several times the service's CPU; this client eats a fraction of it. It also speaks
 * beanstalkd's protocol and Redis's RESP, to run the same load against those servers.
 *
 * <p>
 * {@code queue} mode is QueueSimulation's work without its checks: producers push
 * 100-byte bodies round robin over 8 queues, consumers poll the queues round robin and
 * complete (DELETE, no If-Match) what they get, pausing 5 ms after an empty poll. After
 * the window consumers drain (uncounted) so the next run starts on empty queues.
 * {@code noop} mode: every user calls one path ({@code /actuator/info}), the ceiling.
 * {@code beanstalk} mode is the queue load against beanstalkd instead ({@code --port} is
 * beanstalkd's): 8 tubes instead of queues, a producer {@code use}s the next tube and
 * {@code put}s (one write, two answers), a consumer {@code watch}es all 8 and
 * {@code reserve-with-timeout 0}, pausing 5 ms when it times out (as after an empty poll),
 * and {@code delete}s what it reserved. A cycle is one message pushed, delivered and
 * completed: {@code cpuUsPerCycle} is the server's CPU over the completions.
 * {@code sqs} mode: the {@code queue} mode's work in SQS's protocol (AWS JSON 1.0, as the
 * AWS SDKs send it, so it runs against this service's SQS face or against any SQS server
 * such as ElasticMQ): the queues are created with {@code CreateQueue}, producers
 * {@code SendMessage}, consumers {@code ReceiveMessage} (one message, no wait) and
 * {@code DeleteMessage} with its receipt handle. With {@code --groups N} the queues are
 * FIFO queues ({@code <name>.fifo}, {@code FifoQueue=true}) and each send names one of N
 * message groups (round robin) and a deduplication id of its own; in {@code queue} mode each
 * push names one of N message groups ({@code ?group=}, round robin), which makes the queues
 * fair queues.
 * {@code redis} mode is the queue load against a standalone Redis ({@code --port} is
 * Redis's), done as a team would do it with plain lists and no Lua, in RESP over one
 * kept-alive connection per user (no client library, no pipelining): the 8 queues are
 * lists named like the other modes' queues, each with an in-flight list of the same name
 * plus {@code :inflight}; producers {@code LPUSH} a 100-byte body round robin; consumers,
 * round robin over the queues, {@code LMOVE queue inflight RIGHT LEFT} (oldest first; a
 * nil answer is an empty poll, 5 ms pause) and complete with
 * {@code LREM inflight 1 body}. Every body is unique (its last 20 bytes are the
 * producer's number and its count; {@code --bytes} at least 20), so {@code LREM} removes
 * exactly the message delivered and answers 1, or the completion is an error.
 * {@code redis-lua} mode is the same load on the same Redis through the redis
 * strategy's own Lua scripts ({@code push.lua}, {@code lease.lua}, {@code complete.lua} from
 * {@code --scripts}, the source tree's by default), called with {@code EVALSHA} as
 * {@code RedisQS} calls them on a standalone Redis (its keys under the namespace
 * {@code load:}, a lease of 30 s, a completion naming no delivery, as a {@code DELETE}
 * without If-Match), by the same lean client: what the strategy's semantics cost Redis,
 * without the service's client library and HTTP.
 * {@code redis-streams} mode is the same load on Redis Streams, the design docs/redis.md
 * proposes for a lease without scripts: one stream per queue (key {@code load:{queue}:stream})
 * with one consumer group, producers {@code XADD}, consumers {@code XREADGROUP ... COUNT 1}
 * (the group's pending list is the lease, its delivery count the delivery number) and
 * complete with {@code XACK} and {@code XDEL} pipelined in one write: what Redis's own
 * commands cost for the strategy's lease, redelivery by {@code XAUTOCLAIM} not included.
 * {@code redis-streams-lua} mode is that design with what the strategy's scripts do on every
 * call: the scripts of {@code --scripts} (scripts/bench/streams/) check the cap on a push
 * ({@code XLEN}, {@code XADD}), look for a lapsed lease and a due delayed message before a
 * new entry on a lease and give the delivery its lease's end ({@code XAUTOCLAIM},
 * {@code ZRANGE} of a delayed set, {@code XREADGROUP}, {@code XCLAIM ... TIME}) and
 * complete with {@code XACK} and {@code XDEL},
 * one {@code EVALSHA} each, as the redis-lua mode calls the strategy's.
 *
 * <p>
 * In every mode but {@code noop}, producers wait while {@code --backlog} messages (1,000 by
 * default, 0 for no bound) are pushed and not yet completed, so that a window's pushes
 * match its completions and CPU per cycle is what a message costs (see {@link #backlog}).
 * Every push and
 * every completion is also counted outside the window, and after the drain {@code lost} is
 * what was pushed and never completed: 0 unless the server lost messages (or still held
 * some when the drain gave up). {@code cyclesPerSecond} is completions per second in the
 * window: a push, a delivery and a completion each.
 *
 * <p>
 * {@code queue} mode, for the study (study/plan.yml): with {@code --hold N} each consumer
 * holds N leased messages and completes the oldest once it holds more (many messages in
 * flight); with {@code --refusals true} a push refused with 429 is counted in
 * {@code refused} and retried after 1 ms (back pressure), not an error. Every mode reports
 * each request's round trip in the window ({@code latencyUs}: p50, p99, p999, within 4.5%)
 * and {@code completesFirstHalf}, from which the study sees a window whose rate still drifts.
 *
 * <p>
 * {@code --port} takes a comma-separated list in the HTTP modes ({@code queue},
 * {@code sqs}, {@code noop}), to drive several service instances with one load: producer
 * i, consumer i (and noop user i) use port {@code i % n} of the n listed, so each
 * instance gets an even share of both when the counts divide (give each at least one
 * consumer: a consumer drains only the instance it talks to, which for instances sharing
 * one store, such as Redis, is all of them). In {@code sqs} mode the queues are created
 * on every instance and each user uses the URLs its own instance answered. beanstalkd and
 * Redis take one port.
 *
 * <p>
 * With {@code --pid}, the server's CPU time (utime + stime of /proc/PID/stat) is read at
 * the start and the end of the window, and divided by the requests answered in it: CPU
 * per request, whatever the client itself costs. {@code --pid} takes a comma-separated
 * list (such as the service JVM(s) and the redis-server behind them): the server's CPU is
 * then their sum, and {@code serverCpuMsByPid} gives each one's milliseconds (only when
 * more than one pid is given). The client's own CPU in the window is {@code clientCpuMs}
 * and, per completed message, {@code clientCpuUsPerCycle}: with the server's, the whole
 * machine's cost of a cycle when both share it. {@code serverThreads} splits each pid's
 * CPU, context switches (voluntary and not) and CPU in the kernel in the window by thread
 * name (a pool's threads together: the digits that end a name are dropped; a thread that
 * ended in the window is left out): where a server's time goes, such as a JVM's carriers of
 * virtual threads against its Redis client's event loop, and how much of it is system
 * calls. Prints one line of JSON.
 *
 * <pre>
 * java scripts/bench/RequestPathLoad.java --port 8080 --pid 1234 --mode queue --producers 4 --consumers 4 --seconds 15
 * java scripts/bench/RequestPathLoad.java --port 8081,8082 --pid 1234,1240,1250 --mode queue --seconds 15
 * java scripts/bench/RequestPathLoad.java --port 6379 --pid 1250 --mode redis --seconds 15
 * </pre>
 */
public class RequestPathLoad {

	static final AtomicBoolean inWindow = new AtomicBoolean();

	static final AtomicBoolean stop = new AtomicBoolean();

	static final AtomicBoolean producing = new AtomicBoolean(true);

	static final LongAdder pushes = new LongAdder();

	static final LongAdder polls = new LongAdder();

	static final LongAdder emptyPolls = new LongAdder();

	static final LongAdder completes = new LongAdder();

	static final LongAdder noops = new LongAdder();

	static final LongAdder errors = new LongAdder();

	static final LongAdder reconnects = new LongAdder();

	/** Pushes and completions over the whole run, drain included: for {@code lost}. */
	static final LongAdder pushedTotal = new LongAdder();

	static final LongAdder completedTotal = new LongAdder();

	static final String SQS_JSON = "application/x-amz-json-1.0";

	static String host = "127.0.0.1";

	/** The first of {@code ports}: beanstalkd's or Redis's, and the default of the HTTP modes. */
	static int port = 8080;

	/** The HTTP modes' services: producer i and consumer i use {@code ports[i % ports.length]}. */
	static int[] ports = { 8080 };

	static int queues = 8;

	/**
	 * Message groups of the {@code sqs} mode's FIFO queues, or of the {@code queue} mode's
	 * fair queues; 0 for standard queues without groups.
	 */
	static int groups = 0;

	/**
	 * At most this many messages pushed and not yet completed (0: no bound). A producer
	 * needs only one request per message and a consumer two, so unbounded producers outrun
	 * the consumers, the backlog grows through the window, and the server's CPU spent on
	 * pushes not completed in it is charged to the messages that were: CPU per cycle then
	 * measures how far the producers ran ahead (which depends on how the threads are
	 * scheduled), not what a message costs. Bounded, a window's pushes and completions
	 * differ by at most this.
	 */
	static int backlog = 1000;

	/**
	 * {@code queue} mode: with N above 1, producers push batches of N
	 * ({@code POST .../messages/batch}), consumers poll up to N ({@code ?max=N}) and
	 * complete what they got in one {@code POST .../messages/completions}.
	 */
	static int batch = 1;

	/**
	 * {@code queue} mode: with N above 0, consumers long-poll one message
	 * ({@code ?wait=N}), as Gatling's {@code waiting} preset does, instead of polling
	 * without waiting and pausing after an empty poll.
	 */
	static int waitSeconds = 0;

	static Semaphore admissions;

	/**
	 * {@code queue} mode: each consumer holds this many leased messages (0: none), completing
	 * the oldest it holds once it holds more, and everything it holds at the drain: many
	 * messages in flight, as Gatling's {@code deep-inflight} preset holds them.
	 */
	static int hold = 0;

	/**
	 * {@code queue} mode: a push refused with 429 (the service's back pressure) is counted in
	 * {@code refused} and retried after 1 ms, not an error.
	 */
	static boolean refusals = false;

	static final LongAdder refused = new LongAdder();

	/**
	 * {@code queue} mode with {@code --duplicates true}: a completion answered 404 (the message
	 * was completed already, so it was delivered twice) is counted in {@code duplicates}, not an
	 * error: what an at-least-once strategy may do when many messages are in flight.
	 */
	static boolean duplicatesExpected = false;

	static final LongAdder duplicates = new LongAdder();

	/** Completions in the window's first half: with the whole, whether the rate still drifts. */
	static long completesFirstHalf;

	/** Every request's round trip in the window, in a log-linear histogram (see {@link Latencies}). */
	static final Latencies latencies = new Latencies();

	static String prefix = "lean-" + Long.toString(System.currentTimeMillis(), 36);

	/** The redis strategy's Lua scripts, for {@code redis-lua} mode. */
	static Path scripts = Path.of("src/main/resources/io/github/qsbench/redis");

	public static void main(String[] args) throws Exception {
		String mode = "queue";
		String path = "/actuator/info";
		int producers = 4;
		int consumers = 4;
		int users = -1;
		double seconds = 15;
		double warmup = 0;
		int bytes = 100;
		long[] pids = {};
		for (int i = 0; i < args.length; i += 2) {
			String value = args[i + 1];
			switch (args[i]) {
				case "--host" -> host = value;
				case "--port" -> ports = parseList(value).stream().mapToInt(Math::toIntExact).toArray();
				case "--mode" -> mode = value;
				case "--path" -> path = value;
				case "--producers" -> producers = Integer.parseInt(value);
				case "--consumers" -> consumers = Integer.parseInt(value);
				case "--users" -> users = Integer.parseInt(value);
				case "--seconds" -> seconds = Double.parseDouble(value);
				case "--warmup" -> warmup = Double.parseDouble(value);
				case "--bytes" -> bytes = Integer.parseInt(value);
				case "--queues" -> queues = Integer.parseInt(value);
				case "--groups" -> groups = Integer.parseInt(value);
				case "--backlog" -> backlog = Integer.parseInt(value);
				case "--hold" -> hold = Integer.parseInt(value);
				case "--batch" -> batch = Integer.parseInt(value);
				case "--wait" -> waitSeconds = Integer.parseInt(value);
				case "--refusals" -> refusals = Boolean.parseBoolean(value);
				case "--duplicates" -> duplicatesExpected = Boolean.parseBoolean(value);
				case "--scripts" -> scripts = Path.of(value);
				case "--pid" -> pids = parseList(value).stream().mapToLong(Long::longValue).filter((p) -> p > 0)
					.toArray();
				default -> throw new IllegalArgumentException("unknown option " + args[i]);
			}
		}
		port = ports[0];
		admissions = (backlog > 0) ? new Semaphore(backlog) : null;
		if (ports.length > 1 && !mode.equals("queue") && !mode.equals("sqs") && !mode.equals("noop")) {
			throw new IllegalArgumentException("a list of ports is for the HTTP modes (queue, sqs, noop)");
		}
		long pid = (pids.length > 0) ? pids[0] : -1;
		List<Thread> threads = new ArrayList<>();
		if (mode.equals("queue")) {
			byte[] body = "m".repeat(bytes).getBytes(StandardCharsets.US_ASCII);
			for (int p = 0; p < producers; p++) {
				int first = p;
				threads.add(start("producer-" + p, () -> {
					if (batch > 1) {
						produceBatches(first, body, portOf(first));
					}
					else {
						produce(first, body, portOf(first));
					}
				}));
			}
			for (int c = 0; c < consumers; c++) {
				int first = c;
				threads.add(start("consumer-" + c, () -> {
					if (batch > 1) {
						consumeBatches(first, portOf(first));
					}
					else {
						consume(first, portOf(first));
					}
				}));
			}
		}
		else if (mode.equals("noop")) {
			int n = (users > 0) ? users : producers + consumers;
			byte[] request = rest("GET " + path, null, null);
			for (int u = 0; u < n; u++) {
				int user = u;
				threads.add(start("noop-" + u, () -> noop(request, portOf(user))));
			}
		}
		else if (mode.equals("beanstalk")) {
			byte[] body = "m".repeat(bytes).getBytes(StandardCharsets.US_ASCII);
			for (int p = 0; p < producers; p++) {
				int first = p;
				threads.add(start("producer-" + p, () -> Beanstalk.produce(first, body)));
			}
			for (int c = 0; c < consumers; c++) {
				threads.add(start("consumer-" + c, Beanstalk::consume));
			}
		}
		else if (mode.equals("sqs")) {
			String body = "m".repeat(bytes);
			String[][] urls = new String[ports.length][];
			for (int i = 0; i < ports.length; i++) {
				urls[i] = createSqsQueues(ports[i]);
			}
			for (int p = 0; p < producers; p++) {
				int first = p;
				threads.add(start("producer-" + p,
						() -> produceSqs(first, urls[first % ports.length], body, portOf(first))));
			}
			for (int c = 0; c < consumers; c++) {
				int first = c;
				threads.add(
						start("consumer-" + c, () -> consumeSqs(first, urls[first % ports.length], portOf(first))));
			}
		}
		else if (mode.equals("redis")) {
			if (bytes < Redis.STAMP) {
				throw new IllegalArgumentException("redis mode needs --bytes of at least " + Redis.STAMP);
			}
			int size = bytes;
			for (int p = 0; p < producers; p++) {
				int first = p;
				threads.add(start("producer-" + p, () -> Redis.produce(first, size)));
			}
			for (int c = 0; c < consumers; c++) {
				int first = c;
				threads.add(start("consumer-" + c, () -> Redis.consume(first)));
			}
		}
		else if (mode.equals("redis-streams")) {
			Redis.createStreams();
			byte[] body = "m".repeat(bytes).getBytes(StandardCharsets.US_ASCII);
			for (int p = 0; p < producers; p++) {
				int first = p;
				threads.add(start("producer-" + p, () -> Redis.produceStreamed(first, body, false)));
			}
			for (int c = 0; c < consumers; c++) {
				int first = c;
				threads.add(start("consumer-" + c, () -> Redis.consumeStreamed(first)));
			}
		}
		else if (mode.equals("redis-streams-lua")) {
			Redis.createStreams();
			Redis.loadScripts();
			byte[] body = "m".repeat(bytes).getBytes(StandardCharsets.US_ASCII);
			for (int p = 0; p < producers; p++) {
				int first = p;
				threads.add(start("producer-" + p, () -> Redis.produceStreamed(first, body, true)));
			}
			for (int c = 0; c < consumers; c++) {
				int first = c;
				threads.add(start("consumer-" + c, () -> Redis.consumeScripted(first, true)));
			}
		}
		else if (mode.equals("redis-lua")) {
			Redis.loadScripts();
			byte[] body = "m".repeat(bytes).getBytes(StandardCharsets.US_ASCII);
			for (int p = 0; p < producers; p++) {
				int first = p;
				threads.add(start("producer-" + p, () -> Redis.produceScripted(first, body)));
			}
			for (int c = 0; c < consumers; c++) {
				int first = c;
				threads.add(start("consumer-" + c, () -> Redis.consumeScripted(first, false)));
			}
		}
		else {
			throw new IllegalArgumentException("mode is queue, sqs, noop, beanstalk, redis, redis-lua, redis-streams or redis-streams-lua");
		}
		Thread.sleep((long) (warmup * 1000));
		long[] self = { ProcessHandle.current().pid() };
		long[][] clientStart = cpuTicks(self);
		long[][] cpuStart = cpuTicks(pids);
		List<Map<Long, Task>> tasksStart = tasks(pids);
		long start = System.nanoTime();
		inWindow.set(true);
		Thread.sleep((long) (seconds * 500));
		completesFirstHalf = completes.sum();
		Thread.sleep((long) (seconds * 1000) - (long) (seconds * 500));
		inWindow.set(false);
		long[][] cpuEnd = cpuTicks(pids);
		List<Map<Long, Task>> tasksEnd = tasks(pids);
		long[][] clientEnd = cpuTicks(self);
		long elapsed = System.nanoTime() - start;
		producing.set(false);
		long drainDeadline = System.nanoTime() + 60_000_000_000L;
		if (mode.equals("noop")) {
			stop.set(true);
		}
		for (Thread thread : threads) {
			thread.join(Math.max(1, (drainDeadline - System.nanoTime()) / 1_000_000));
		}
		stop.set(true);
		double window = elapsed / 1e9;
		long queueRequests = pushes.sum() + polls.sum() + completes.sum();
		long requests = queueRequests + noops.sum();
		// USER_HZ is 100 on Linux: a tick is 10 ms; with several pids, their sum
		double userMs = 0;
		double systemMs = 0;
		StringBuilder byPid = new StringBuilder();
		for (int i = 0; i < pids.length; i++) {
			double user = (cpuEnd[i][0] - cpuStart[i][0]) * 10.0;
			double system = (cpuEnd[i][1] - cpuStart[i][1]) * 10.0;
			userMs += user;
			systemMs += system;
			byPid.append((i == 0) ? "" : ",").append('"').append(pids[i]).append("\":").append(Math.round(user + system));
		}
		double cpuMs = (pid > 0) ? userMs + systemMs : -1;
		double clientMs = (clientEnd[0][0] - clientStart[0][0] + clientEnd[0][1] - clientStart[0][1]) * 10.0;
		System.out.printf(
				"{\"mode\":\"%s\",\"producers\":%d,\"consumers\":%d,\"backlog\":%d,\"window\":%.3f,\"requests\":%d,\"rps\":%.1f,"
						+ "\"pushes\":%d,\"polls\":%d,\"emptyPolls\":%d,\"completes\":%d,\"noops\":%d,\"errors\":%d,"
						+ "\"reconnects\":%d,\"serverCpuMs\":%.0f,\"serverUserMs\":%.0f,\"serverSystemMs\":%.0f,"
						+ "\"cpuUsPerRequest\":%.1f,\"cycles\":%d,\"cyclesPerSecond\":%.1f,\"cpuUsPerCycle\":%.1f,"
						+ "\"clientCpuMs\":%.0f,\"clientCpuUsPerCycle\":%.1f,"
						+ "\"pushedTotal\":%d,\"completedTotal\":%d,\"lost\":%d,\"refused\":%d,\"duplicates\":%d,\"hold\":%d,"
						+ "\"completesFirstHalf\":%d,\"latencyUs\":%s,\"serverThreads\":{%s}%s}%n",
				mode, producers, consumers, backlog, window, requests, requests / window, pushes.sum(), polls.sum(),
				emptyPolls.sum(), completes.sum(), noops.sum(), errors.sum(), reconnects.sum(), cpuMs, userMs, systemMs,
				(pid > 0 && requests > 0) ? cpuMs * 1000 / requests : -1.0, completes.sum(), completes.sum() / window,
				(pid > 0 && completes.sum() > 0) ? cpuMs * 1000 / completes.sum() : -1.0, clientMs,
				(completes.sum() > 0) ? clientMs * 1000 / completes.sum() : -1.0, pushedTotal.sum(),
				completedTotal.sum(), pushedTotal.sum() - completedTotal.sum(), refused.sum(), duplicates.sum(), hold, completesFirstHalf,
				latencies.json(), byThread(pids, tasksStart, tasksEnd),
				(pids.length > 1) ? ",\"serverCpuMsByPid\":{" + byPid + "}" : "");
		System.exit(errors.sum() == 0 ? 0 : 1);
	}

	interface Loop {

		void run() throws Exception;

	}

	static Thread start(String name, Loop loop) {
		Thread thread = new Thread(() -> {
			try {
				loop.run();
			}
			catch (Exception ex) {
				errors.increment();
				System.err.println(Thread.currentThread().getName() + ": " + ex);
			}
		}, name);
		thread.start();
		return thread;
	}

	/** A comma-separated list of numbers. */
	static List<Long> parseList(String value) {
		List<Long> list = new ArrayList<>();
		for (String item : value.split(",")) {
			list.add(Long.parseLong(item.trim()));
		}
		return list;
	}

	/** The port of producer (or consumer, or noop user) {@code user}. */
	static int portOf(int user) {
		return ports[user % ports.length];
	}

	/** utime and stime of each process, in clock ticks. */
	static long[][] cpuTicks(long[] pids) throws IOException {
		long[][] ticks = new long[pids.length][];
		for (int i = 0; i < pids.length; i++) {
			ticks[i] = userAndSystemTicks(Files.readString(Path.of("/proc/" + pids[i] + "/stat")));
		}
		return ticks;
	}

	/** utime and stime of a /proc stat line (a process's or one of its threads'). */
	static long[] userAndSystemTicks(String stat) {
		String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
		return new long[] { Long.parseLong(fields[11]), Long.parseLong(fields[12]) };
	}

	/**
	 * One thread's name, CPU (clock ticks), the part of it spent in the kernel, and
	 * context switches so far.
	 */
	record Task(String name, long ticks, long systemTicks, long switches) {
	}

	/** Every thread of each process, by thread id; a process or thread gone is left out. */
	static List<Map<Long, Task>> tasks(long[] pids) throws IOException {
		List<Map<Long, Task>> all = new ArrayList<>();
		for (long pid : pids) {
			Map<Long, Task> tasks = new HashMap<>();
			try (DirectoryStream<Path> dirs = Files.newDirectoryStream(Path.of("/proc/" + pid + "/task"))) {
				for (Path dir : dirs) {
					try {
						String stat = Files.readString(dir.resolve("stat"));
						long[] ticks = userAndSystemTicks(stat);
						long switches = 0;
						for (String line : Files.readAllLines(dir.resolve("status"))) {
							if (line.contains("ctxt_switches:")) {
								switches += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
							}
						}
						String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
							.replaceAll("[-#]?[0-9]+$", "");
						tasks.put(Long.parseLong(dir.getFileName().toString()),
								new Task(name, ticks[0] + ticks[1], ticks[1], switches));
					}
					catch (IOException ended) {
						// the thread ended while it was read
					}
				}
			}
			catch (IOException gone) {
				// the process is gone: nothing of it
			}
			all.add(tasks);
		}
		return all;
	}

	/**
	 * "pid":{"name":[cpuMs,switches,systemMs],...} for each pid: the window's share of each
	 * thread that is there at its end (a thread started in it counts whole); systemMs is the
	 * part of cpuMs in the kernel (system calls, and the loopback delivery a socket write
	 * runs).
	 */
	static String byThread(long[] pids, List<Map<Long, Task>> start, List<Map<Long, Task>> end) {
		StringBuilder json = new StringBuilder();
		for (int i = 0; i < pids.length; i++) {
			Map<String, long[]> byName = new TreeMap<>();
			for (Map.Entry<Long, Task> thread : end.get(i).entrySet()) {
				Task last = thread.getValue();
				Task first = start.get(i).getOrDefault(thread.getKey(), new Task(last.name(), 0, 0, 0));
				long[] sum = byName.computeIfAbsent(last.name(), (name) -> new long[3]);
				sum[0] += last.ticks() - first.ticks();
				sum[1] += last.switches() - first.switches();
				sum[2] += last.systemTicks() - first.systemTicks();
			}
			json.append((i == 0) ? "" : ",").append('"').append(pids[i]).append("\":{");
			String separator = "";
			for (Map.Entry<String, long[]> group : byName.entrySet()) {
				json.append(separator)
					.append('"')
					.append(group.getKey().replace("\\", "\\\\").replace("\"", "\\\""))
					.append("\":[")
					.append(group.getValue()[0] * 10)
					.append(',')
					.append(group.getValue()[1])
					.append(',')
					.append(group.getValue()[2] * 10)
					.append(']');
				separator = ",";
			}
			json.append('}');
		}
		return json.toString();
	}

	static String queue(long index) {
		return prefix + "-" + Math.floorMod(index, queues);
	}

	/**
	 * One REST request ({@code "METHOD target"}) as the wire carries it: HTTP/1.1, Host,
	 * Accept: application/json, and a body of {@code contentType} if that is not
	 * {@code null}.
	 */
	static byte[] rest(String request, String contentType, byte[] body) {
		String head = request + " HTTP/1.1\r\nHost: " + host + "\r\nAccept: application/json\r\n"
				+ ((contentType != null) ? "Content-Type: " + contentType + "\r\nContent-Length: " + body.length + "\r\n"
						: "")
				+ "\r\n";
		byte[] headBytes = head.getBytes(StandardCharsets.US_ASCII);
		if (contentType == null) {
			return headBytes;
		}
		byte[] whole = Arrays.copyOf(headBytes, headBytes.length + body.length);
		System.arraycopy(body, 0, whole, headBytes.length, body.length);
		return whole;
	}

	static void produce(int first, byte[] body, int port) throws IOException, InterruptedException {
		Connection connection = new Connection(port);
		byte[][][] requests = new byte[queues][Math.max(groups, 1)][];
		for (int q = 0; q < queues; q++) {
			for (int g = 0; g < requests[q].length; g++) {
				requests[q][g] = rest("POST /queues/" + queue(q) + "/messages" + ((groups > 0) ? "?group=g" + g : ""),
						"text/plain", body);
			}
		}
		for (long n = first; admitted(); n++) {
			int status = connection.exchange(requests[(int) (n % queues)][(int) ((n / queues) % requests[0].length)]);
			if (status == 429 && refusals) {
				if (inWindow.get()) {
					refused.increment();
				}
				pushRefused();
				n--; // the same queue again
				Thread.sleep(1);
				continue;
			}
			pushed(status, 201, connection);
		}
		connection.close();
	}

	static void consume(int first, int port) throws IOException, InterruptedException {
		Connection connection = new Connection(port);
		byte[][] requests = new byte[queues][];
		for (int q = 0; q < queues; q++) {
			requests[q] = rest("GET /queues/" + queue(q) + "/messages" + ((waitSeconds > 0) ? "?wait=" + waitSeconds : ""),
					null, null);
		}
		java.util.ArrayDeque<byte[]> held = new java.util.ArrayDeque<>();
		int emptyInARow = 0;
		for (long n = first; !stop.get(); n++) {
			int q = (int) (n % queues);
			int status = connection.exchange(requests[q]);
			boolean counted = inWindow.get();
			if (status == 204) {
				while (!producing.get() && !held.isEmpty()) {
					completed(connection.exchange(held.poll()), 204, connection);
				}
				emptyInARow = emptyPoll(counted, emptyInARow);
				if (emptyInARow >= queues) {
					break;
				}
				continue;
			}
			if (status != 200) {
				error("poll", status, connection);
				continue;
			}
			emptyInARow = 0;
			if (counted) {
				polls.increment();
			}
			long id = connection.jsonId();
			held.add(rest("DELETE /queues/" + queue(q) + "/messages/" + id, null, null));
			while (held.size() > (producing.get() ? hold : 0)) {
				completed(connection.exchange(held.poll()), 204, connection);
			}
		}
		connection.close();
	}

	/** {@link #produce} in batches of {@link #batch}: one request, all or nothing. */
	static void produceBatches(int first, byte[] body, int port) throws IOException, InterruptedException {
		Connection connection = new Connection(port);
		StringBuilder json = new StringBuilder("{\"messages\":[");
		for (int i = 0; i < batch; i++) {
			json.append((i == 0) ? "\"" : ",\"").append(new String(body, StandardCharsets.US_ASCII)).append('"');
		}
		byte[] content = json.append("]}").toString().getBytes(StandardCharsets.US_ASCII);
		byte[][] requests = new byte[queues][];
		for (int q = 0; q < queues; q++) {
			requests[q] = rest("POST /queues/" + queue(q) + "/messages/batch", "application/json", content);
		}
		for (long n = first; admittedAll(batch); n++) {
			int status = connection.exchange(requests[(int) (n % queues)]);
			for (int i = 0; i < batch; i++) {
				pushed(status, 201, connection);
			}
		}
		connection.close();
	}

	/**
	 * {@link #consume} in batches: polls up to {@link #batch} ({@code ?max=N}) and
	 * completes them all in one request, whose results must each be 204.
	 */
	static void consumeBatches(int first, int port) throws IOException, InterruptedException {
		Connection connection = new Connection(port);
		byte[][] requests = new byte[queues][];
		for (int q = 0; q < queues; q++) {
			requests[q] = rest("GET /queues/" + queue(q) + "/messages?max=" + batch, null, null);
		}
		int emptyInARow = 0;
		for (long n = first; !stop.get(); n++) {
			int q = (int) (n % queues);
			int status = connection.exchange(requests[q]);
			boolean counted = inWindow.get();
			if (status == 204) {
				emptyInARow = emptyPoll(counted, emptyInARow);
				if (emptyInARow >= queues) {
					break;
				}
				continue;
			}
			if (status != 200) {
				error("poll", status, connection);
				continue;
			}
			emptyInARow = 0;
			List<Long> ids = connection.jsonIds();
			if (counted) {
				polls.add(ids.size());
			}
			StringBuilder json = new StringBuilder("{\"messages\":[");
			for (int i = 0; i < ids.size(); i++) {
				json.append((i == 0) ? "{\"id\":" : ",{\"id\":").append(ids.get(i)).append('}');
			}
			byte[] content = json.append("]}").toString().getBytes(StandardCharsets.US_ASCII);
			int answered = connection.exchange(
					rest("POST /queues/" + queue(q) + "/messages/completions", "application/json", content));
			if (answered != 200) {
				error("complete", answered, connection);
				continue;
			}
			String results = new String(connection.body, 0, connection.bodyLength, StandardCharsets.UTF_8);
			int done = 0;
			for (int at = results.indexOf("\"status\":204"); at >= 0; at = results.indexOf("\"status\":204", at + 1)) {
				done++;
			}
			for (int i = 0; i < done; i++) {
				completedOne();
			}
			if (done != ids.size()) {
				error("complete", answered, connection);
			}
		}
		connection.close();
	}

	/** {@link #admitted} for {@code n} messages at once. */
	static boolean admittedAll(int n) throws InterruptedException {
		while (producing.get() && !stop.get()) {
			if (admissions == null || admissions.tryAcquire(n, 10, TimeUnit.MILLISECONDS)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * An empty poll, counted if in the window.
	 * @return the empty polls in a row since the producers stopped: the drain is over when
	 * every queue was empty; until then, after a pause of 5 ms
	 */
	static int emptyPoll(boolean counted, int emptyInARow) throws InterruptedException {
		if (counted) {
			polls.increment();
			emptyPolls.increment();
		}
		int empty = producing.get() ? emptyInARow : emptyInARow + 1;
		if (empty < queues) {
			Thread.sleep(5);
		}
		return empty;
	}

	/**
	 * Waits until the backlog has room for one more message.
	 * @return {@code false} when the producers are to stop instead
	 */
	static boolean admitted() throws InterruptedException {
		while (producing.get() && !stop.get()) {
			if (admissions == null || admissions.tryAcquire(10, TimeUnit.MILLISECONDS)) {
				return true;
			}
		}
		return false;
	}

	static void pushed(int status, int expected, Connection connection) {
		if (status != expected) {
			error("push", status, connection);
			pushRefused();
			return;
		}
		pushedOne();
	}

	static void completed(int status, int expected, Connection connection) {
		if (status == 404 && duplicatesExpected) {
			// completed already: another consumer got the same message (an at-least-once strategy)
			duplicates.increment();
			return;
		}
		if (status != expected) {
			error("complete", status, connection);
			return;
		}
		completedOne();
	}

	/** A push answered: counted in all, and in the window if it is open. */
	static void pushedOne() {
		pushedTotal.increment();
		if (inWindow.get()) {
			pushes.increment();
		}
	}

	/** A push not taken: its room in the backlog is free again. */
	static void pushRefused() {
		if (admissions != null) {
			admissions.release();
		}
	}

	/** A completion answered: counted, and its message's room in the backlog freed. */
	static void completedOne() {
		completedTotal.increment();
		if (inWindow.get()) {
			completes.increment();
		}
		if (admissions != null) {
			admissions.release();
		}
	}

	/** One SQS request: {@code POST /} with the action and its JSON members. */
	static byte[] sqsRequest(String action, String json, int port) {
		byte[] body = json.getBytes(StandardCharsets.UTF_8);
		byte[] head = ("POST / HTTP/1.1\r\nHost: " + host + ":" + port + "\r\nContent-Type: " + SQS_JSON
				+ "\r\nX-Amz-Target: AmazonSQS." + action + "\r\nContent-Length: " + body.length + "\r\n\r\n")
			.getBytes(StandardCharsets.US_ASCII);
		byte[] request = new byte[head.length + body.length];
		System.arraycopy(head, 0, request, 0, head.length);
		System.arraycopy(body, 0, request, head.length, body.length);
		return request;
	}

	/** Creates the queues by {@code CreateQueue}; their URLs, as the server answered them. */
	static String[] createSqsQueues(int port) throws IOException {
		Connection connection = new Connection(port);
		String[] urls = new String[queues];
		for (int q = 0; q < queues; q++) {
			String create = (groups > 0)
					? "{\"QueueName\":\"" + queue(q) + ".fifo\",\"Attributes\":{\"FifoQueue\":\"true\"}}"
					: "{\"QueueName\":\"" + queue(q) + "\"}";
			int status = connection.exchange(sqsRequest("CreateQueue", create, port));
			urls[q] = connection.jsonString("QueueUrl");
			if (status != 200 || urls[q] == null) {
				throw new IOException("CreateQueue answered " + status + ": "
						+ new String(connection.body, 0, connection.bodyLength, StandardCharsets.UTF_8));
			}
		}
		connection.close();
		return urls;
	}

	static void produceSqs(int first, String[] urls, String body, int port) throws IOException, InterruptedException {
		Connection connection = new Connection(port);
		byte[][] requests = new byte[queues][];
		for (int q = 0; q < queues; q++) {
			requests[q] = sqsRequest("SendMessage",
					"{\"QueueUrl\":\"" + urls[q] + "\",\"MessageBody\":\"" + body + "\"}", port);
		}
		for (long n = first; admitted(); n++) {
			int q = (int) (n % queues);
			byte[] request = (groups == 0) ? requests[q]
					: sqsRequest("SendMessage",
							"{\"QueueUrl\":\"" + urls[q] + "\",\"MessageBody\":\"" + body + "\",\"MessageGroupId\":\"g"
									+ (n / queues) % groups + "\",\"MessageDeduplicationId\":\"" + first + "-" + n + "\"}",
							port);
			pushed(connection.exchange(request), 200, connection);
		}
		connection.close();
	}

	static void consumeSqs(int first, String[] urls, int port) throws IOException, InterruptedException {
		Connection connection = new Connection(port);
		byte[][] requests = new byte[queues][];
		for (int q = 0; q < queues; q++) {
			requests[q] = sqsRequest("ReceiveMessage",
					"{\"QueueUrl\":\"" + urls[q] + "\",\"MaxNumberOfMessages\":1,\"WaitTimeSeconds\":0}", port);
		}
		int emptyInARow = 0;
		for (long n = first; !stop.get(); n++) {
			int q = (int) (n % queues);
			int status = connection.exchange(requests[q]);
			boolean counted = inWindow.get();
			if (status != 200) {
				error("receive", status, connection);
				continue;
			}
			String handle = connection.jsonString("ReceiptHandle");
			if (handle == null) {
				emptyInARow = emptyPoll(counted, emptyInARow);
				if (emptyInARow >= queues) {
					break;
				}
				continue;
			}
			emptyInARow = 0;
			if (counted) {
				polls.increment();
			}
			completed(connection.exchange(sqsRequest("DeleteMessage",
					"{\"QueueUrl\":\"" + urls[q] + "\",\"ReceiptHandle\":\"" + handle + "\"}", port)), 200,
					connection);
		}
		connection.close();
	}

	static void noop(byte[] request, int port) throws IOException {
		Connection connection = new Connection(port);
		while (!stop.get()) {
			int status = connection.exchange(request);
			if (status != 200) {
				error("noop", status, connection);
			}
			else if (inWindow.get()) {
				noops.increment();
			}
		}
		connection.close();
	}

	static void error(String what, int status, Connection connection) {
		errors.increment();
		if (errors.sum() <= 5) {
			System.err.println(what + " answered " + status + ": "
					+ new String(connection.body, 0, connection.bodyLength, StandardCharsets.UTF_8));
		}
	}

	/** The next line without its CR LF, read into {@code line}; null at the end. */
	static String readLine(InputStream in, StringBuilder line) throws IOException {
		line.setLength(0);
		int c;
		while ((c = in.read()) != -1) {
			if (c == '\n') {
				int length = line.length();
				if (length > 0 && line.charAt(length - 1) == '\r') {
					line.setLength(length - 1);
				}
				return line.toString();
			}
			line.append((char) c);
		}
		return null;
	}

	/**
	 * The queue load over beanstalkd's text protocol: one connection per client, each
	 * command written whole and its answer read before the next.
	 */
	static final class Beanstalk {

		private final Socket socket;

		private final OutputStream out;

		private final InputStream in;

		private final StringBuilder line = new StringBuilder();

		private Beanstalk() throws IOException {
			this.socket = new Socket();
			this.socket.setTcpNoDelay(true);
			this.socket.connect(new InetSocketAddress(host, port));
			this.out = new BufferedOutputStream(this.socket.getOutputStream(), 8192);
			this.in = new BufferedInputStream(this.socket.getInputStream(), 65536);
		}

		static void produce(int first, byte[] body) throws IOException, InterruptedException {
			Beanstalk connection = new Beanstalk();
			byte[][] requests = new byte[queues][];
			for (int q = 0; q < queues; q++) {
				byte[] head = ("use " + queue(q) + "\r\nput 1024 0 60 " + body.length + "\r\n")
					.getBytes(StandardCharsets.US_ASCII);
				requests[q] = new byte[head.length + body.length + 2];
				System.arraycopy(head, 0, requests[q], 0, head.length);
				System.arraycopy(body, 0, requests[q], head.length, body.length);
				requests[q][head.length + body.length] = '\r';
				requests[q][head.length + body.length + 1] = '\n';
			}
			for (long n = first; admitted(); n++) {
				String using = connection.send(requests[(int) (n % queues)]);
				String inserted = connection.readLine();
				if (!using.startsWith("USING ") || inserted == null || !inserted.startsWith("INSERTED ")) {
					connection.error("put", using + " / " + inserted);
					pushRefused();
				}
				else {
					pushedOne();
				}
			}
			connection.socket.close();
		}

		static void consume() throws IOException, InterruptedException {
			Beanstalk connection = new Beanstalk();
			for (int q = 0; q < queues; q++) {
				connection.send(("watch " + queue(q) + "\r\n").getBytes(StandardCharsets.US_ASCII));
			}
			connection.send("ignore default\r\n".getBytes(StandardCharsets.US_ASCII));
			byte[] reserve = "reserve-with-timeout 0\r\n".getBytes(StandardCharsets.US_ASCII);
			while (!stop.get()) {
				String answer = connection.send(reserve);
				boolean counted = inWindow.get();
				if (answer.startsWith("TIMED_OUT")) {
					if (counted) {
						polls.increment();
						emptyPolls.increment();
					}
					if (!producing.get()) {
						break;
					}
					Thread.sleep(5);
					continue;
				}
				if (!answer.startsWith("RESERVED ")) {
					connection.error("reserve", answer);
					continue;
				}
				if (counted) {
					polls.increment();
				}
				String[] fields = answer.split(" ");
				connection.in.skipNBytes(Integer.parseInt(fields[2]) + 2);
				String deleted = connection
					.send(("delete " + fields[1] + "\r\n").getBytes(StandardCharsets.US_ASCII));
				if (!deleted.equals("DELETED")) {
					connection.error("delete", deleted);
				}
				else {
					completedOne();
				}
			}
			connection.socket.close();
		}

		/** Writes a command and reads the first line of its answer. */
		private String send(byte[] command) throws IOException {
			this.out.write(command);
			this.out.flush();
			String answer = readLine();
			if (answer == null) {
				throw new IOException("connection closed");
			}
			return answer;
		}

		private void error(String what, String answer) {
			errors.increment();
			if (errors.sum() <= 5) {
				System.err.println(what + " answered " + answer);
			}
		}

		private String readLine() throws IOException {
			return RequestPathLoad.readLine(this.in, this.line);
		}

	}

	/**
	 * The queue load against Redis itself, as a team would do it with plain lists and no
	 * Lua, in RESP over one connection per client, each command written whole and its
	 * answer read before the next: {@code LPUSH} a body, {@code LMOVE} from the right of a
	 * queue to the left of its in-flight list, {@code LREM} that body from the in-flight
	 * list. Bodies are unique (their last {@link #STAMP} bytes are the producer and its
	 * count), so {@code LREM} removes exactly the one delivered.
	 */
	static final class Redis {

		/** Bytes at the end of a body that make it unique: 4 digits of producer, 16 of count. */
		static final int STAMP = 20;

		private final Socket socket;

		private final OutputStream out;

		private final InputStream in;

		private final StringBuilder line = new StringBuilder();

		/** The last bulk string read. */
		private byte[] bulk = new byte[128];

		private int bulkLength;

		private Redis() throws IOException {
			this.socket = new Socket();
			this.socket.setTcpNoDelay(true);
			this.socket.connect(new InetSocketAddress(host, port));
			this.out = new BufferedOutputStream(this.socket.getOutputStream(), 8192);
			this.in = new BufferedInputStream(this.socket.getInputStream(), 65536);
		}

		static String key(int q) {
			return queue(q);
		}

		static String inflight(int q) {
			return queue(q) + ":inflight";
		}

		static void produce(int first, int bytes) throws IOException, InterruptedException {
			Redis connection = new Redis();
			byte[][] heads = new byte[queues][];
			for (int q = 0; q < queues; q++) {
				heads[q] = ascii("*3\r\n" + bulkString("LPUSH") + bulkString(key(q)) + "$" + bytes + "\r\n");
			}
			byte[] body = new byte[bytes + 2];
			java.util.Arrays.fill(body, (byte) 'm');
			body[bytes] = '\r';
			body[bytes + 1] = '\n';
			digits(body, bytes - STAMP, 4, first);
			for (long n = first; admitted(); n++) {
				digits(body, bytes - 16, 16, n);
				connection.out.write(heads[(int) (n % queues)]);
				connection.out.write(body);
				connection.out.flush();
				String answer = connection.reply();
				if (answer.charAt(0) != ':') {
					connection.error("LPUSH", answer);
					pushRefused();
				}
				else {
					pushedOne();
				}
			}
			connection.socket.close();
		}

		static void consume(int first) throws IOException, InterruptedException {
			Redis connection = new Redis();
			byte[][] moves = new byte[queues][];
			byte[][] removes = new byte[queues][];
			for (int q = 0; q < queues; q++) {
				moves[q] = ascii("*5\r\n" + bulkString("LMOVE") + bulkString(key(q)) + bulkString(inflight(q))
						+ bulkString("RIGHT") + bulkString("LEFT"));
				removes[q] = ascii("*4\r\n" + bulkString("LREM") + bulkString(inflight(q)) + bulkString("1"));
			}
			byte[] crlf = { '\r', '\n' };
			int emptyInARow = 0;
			for (long n = first; !stop.get(); n++) {
				int q = (int) (n % queues);
				connection.out.write(moves[q]);
				connection.out.flush();
				String answer = connection.reply();
				boolean counted = inWindow.get();
				if (answer.equals("$-1")) {
					emptyInARow = emptyPoll(counted, emptyInARow);
					if (emptyInARow >= queues) {
						break;
					}
					continue;
				}
				if (answer.charAt(0) != '$') {
					connection.error("LMOVE", answer);
					continue;
				}
				emptyInARow = 0;
				if (counted) {
					polls.increment();
				}
				connection.out.write(removes[q]);
				connection.out.write(ascii("$" + connection.bulkLength + "\r\n"));
				connection.out.write(connection.bulk, 0, connection.bulkLength);
				connection.out.write(crlf);
				connection.out.flush();
				String removed = connection.reply();
				if (!removed.equals(":1")) {
					connection.error("LREM", removed);
				}
				else {
					completedOne();
				}
			}
			connection.socket.close();
		}

		/** The SHA-1 of push.lua, lease.lua and complete.lua, once loaded. */
		static String push, lease, complete;

		/** Loads the strategy's scripts into Redis, as RedisQS does on its first call. */
		static void loadScripts() throws IOException {
			Redis connection = new Redis();
			push = connection.load("push.lua");
			lease = connection.load("lease.lua");
			complete = connection.load("complete.lua");
			connection.socket.close();
		}

		private String load(String script) throws IOException {
			byte[] text = Files.readAllBytes(scripts.resolve(script));
			this.out.write(ascii("*3\r\n" + bulkString("SCRIPT") + bulkString("LOAD") + "$" + text.length + "\r\n"));
			this.out.write(text);
			this.out.write(ascii("\r\n"));
			this.out.flush();
			String answer = reply();
			if (answer.charAt(0) != '$') {
				throw new IOException("SCRIPT LOAD " + script + " answered " + answer);
			}
			return new String(this.bulk, 0, this.bulkLength, StandardCharsets.US_ASCII);
		}

		/** A queue's keys as RedisQS names them: ready, leased, delayed, bodies, deliveries. */
		static String queueKeys(int q) {
			String prefix = "load:{" + queue(q) + "}:";
			StringBuilder keys = new StringBuilder();
			for (String key : new String[] { "ready", "leased", "delayed", "bodies", "deliveries" }) {
				keys.append(bulkString(prefix + key));
			}
			return keys.toString();
		}

		/**
		 * {@code EVALSHA} of push.lua as RedisQS sends a push of one message to a standalone
		 * Redis (ids from the shared counter, the queue registered by the script).
		 */
		static void produceScripted(int first, byte[] body) throws IOException, InterruptedException {
			Redis connection = new Redis();
			String[] heads = new String[queues];
			for (int q = 0; q < queues; q++) {
				heads[q] = "*17\r\n" + bulkString("EVALSHA") + bulkString(push) + bulkString("7") + queueKeys(q)
						+ bulkString("load:ids") + bulkString("load:queues");
			}
			String tail = bulkString("0") + bulkString("0") + bulkString("1000000");
			String bodyHead = "$" + body.length + "\r\n";
			for (long n = first; admitted(); n++) {
				int q = (int) (n % queues);
				connection.out.write(ascii(heads[q] + bulkString(Long.toString(System.currentTimeMillis())) + tail
						+ bulkString(queue(q)) + bulkString("load:pushed") + bodyHead));
				connection.out.write(body);
				connection.out.write(ascii("\r\n"));
				connection.out.flush();
				String answer = connection.reply();
				if (answer.equals("*2")) {
					connection.reply();
					connection.reply();
					pushedOne();
				}
				else {
					connection.error("push.lua", answer);
					pushRefused();
				}
			}
			connection.socket.close();
		}

		/**
		 * {@code EVALSHA} of lease.lua for one message, round robin over the queues, then of
		 * complete.lua for the message delivered, naming no delivery; with {@code streams},
		 * of scripts/bench/streams/'s lease.lua (a lease of 30 s, of the longest 12 h; the
		 * queue's delayed set {@code load:{queue}:delayed}, empty) and complete.lua on the
		 * queues' streams.
		 */
		static void consumeScripted(int first, boolean streams) throws IOException, InterruptedException {
			Redis connection = new Redis();
			String[] leases = new String[queues];
			String[] completes = new String[queues];
			for (int q = 0; q < queues; q++) {
				if (streams) {
					leases[q] = "*10\r\n" + bulkString("EVALSHA") + bulkString(lease) + bulkString("2")
							+ bulkString(stream(q)) + bulkString("load:{" + queue(q) + "}:delayed") + bulkString("g")
							+ bulkString("c" + first) + bulkString("30000");
					completes[q] = "*6\r\n" + bulkString("EVALSHA") + bulkString(complete) + bulkString("1")
							+ bulkString(stream(q)) + bulkString("g");
				}
				else {
					leases[q] = "*11\r\n" + bulkString("EVALSHA") + bulkString(lease) + bulkString("5") + queueKeys(q);
					completes[q] = "*13\r\n" + bulkString("EVALSHA") + bulkString(complete) + bulkString("5")
							+ queueKeys(q) + bulkString("complete");
				}
			}
			String script = streams ? "streams/" : "";
			int emptyInARow = 0;
			for (long n = first; !stop.get(); n++) {
				int q = (int) (n % queues);
				long millis = System.currentTimeMillis();
				String now = bulkString(Long.toString(millis));
				// lease.lua's ARGV after now: max and when a lease of 30 s ends; the Streams one's:
				// the longest lease
				String leaseTail = streams ? bulkString("43200000")
						: bulkString("1") + bulkString(Long.toString(millis + 30_000));
				connection.out.write(ascii(leases[q] + now + leaseTail));
				connection.out.flush();
				String answer = connection.reply();
				boolean counted = inWindow.get();
				if (answer.equals("*0")) {
					emptyInARow = emptyPoll(counted, emptyInARow);
					if (emptyInARow >= queues) {
						break;
					}
					continue;
				}
				if (!answer.equals("*3")) {
					connection.error(script + "lease.lua", answer);
					continue;
				}
				// the id: a number from the strategy's script, a stream's id (a string) from the other
				String id = connection.reply();
				id = id.startsWith(":") ? id.substring(1)
						: new String(connection.bulk, 0, connection.bulkLength, StandardCharsets.US_ASCII);
				connection.reply();
				connection.reply();
				emptyInARow = 0;
				if (counted) {
					polls.increment();
				}
				connection.out.write(ascii(completes[q] + (streams ? bulkString(id)
						: now + bulkString("30000") + bulkString(id) + bulkString("0"))));
				connection.out.flush();
				String outcome = connection.reply();
				if (outcome.equals("*1")) {
					// the strategy's script: the message's outcome, in a list of one
					outcome = connection.reply();
				}
				if (!outcome.equals(":0")) {
					connection.error(script + "complete.lua", outcome);
				}
				else {
					completedOne();
				}
			}
			connection.socket.close();
		}

		/** A queue's stream, under the namespace {@code load:} and on the queue's slot. */
		static String stream(int q) {
			return "load:{" + queue(q) + "}:stream";
		}

		/** Creates each queue's stream and its consumer group {@code g}, if not there. */
		static void createStreams() throws IOException {
			Redis connection = new Redis();
			for (int q = 0; q < queues; q++) {
				connection.out.write(ascii("*6\r\n" + bulkString("XGROUP") + bulkString("CREATE") + bulkString(stream(q))
						+ bulkString("g") + bulkString("$") + bulkString("MKSTREAM")));
				connection.out.flush();
				String answer = connection.reply();
				if (!answer.equals("+OK") && !answer.startsWith("-BUSYGROUP")) {
					throw new IOException("XGROUP CREATE answered " + answer);
				}
			}
			connection.socket.close();
		}

		/**
		 * {@code XADD} of one body a push, round robin over the queues' streams; with
		 * {@code scripted}, {@code EVALSHA} of scripts/bench/streams/push.lua instead (the
		 * cap checked, then {@code XADD}).
		 */
		static void produceStreamed(int first, byte[] body, boolean scripted) throws IOException, InterruptedException {
			Redis connection = new Redis();
			byte[][] heads = new byte[queues][];
			for (int q = 0; q < queues; q++) {
				heads[q] = ascii((scripted
						? "*6\r\n" + bulkString("EVALSHA") + bulkString(push) + bulkString("1") + bulkString(stream(q))
								+ bulkString("1000000")
						: "*5\r\n" + bulkString("XADD") + bulkString(stream(q)) + bulkString("*") + bulkString("b"))
						+ "$" + body.length + "\r\n");
			}
			byte[] crlf = { '\r', '\n' };
			for (long n = first; admitted(); n++) {
				connection.out.write(heads[(int) (n % queues)]);
				connection.out.write(body);
				connection.out.write(crlf);
				connection.out.flush();
				String answer = connection.reply();
				if (answer.charAt(0) != '$' || answer.equals("$-1")) {
					connection.error(scripted ? "streams/push.lua" : "XADD", answer);
					pushRefused();
				}
				else {
					pushedOne();
				}
			}
			connection.socket.close();
		}

		/**
		 * {@code XREADGROUP} of one new entry, round robin over the queues' streams, then
		 * {@code XACK} and {@code XDEL} of it in one write.
		 */
		static void consumeStreamed(int first) throws IOException, InterruptedException {
			Redis connection = new Redis();
			byte[][] reads = new byte[queues][];
			String[] acks = new String[queues];
			String[] deletes = new String[queues];
			for (int q = 0; q < queues; q++) {
				reads[q] = ascii("*9\r\n" + bulkString("XREADGROUP") + bulkString("GROUP") + bulkString("g")
						+ bulkString("c" + first) + bulkString("COUNT") + bulkString("1") + bulkString("STREAMS")
						+ bulkString(stream(q)) + bulkString(">"));
				acks[q] = "*4\r\n" + bulkString("XACK") + bulkString(stream(q)) + bulkString("g");
				deletes[q] = "*3\r\n" + bulkString("XDEL") + bulkString(stream(q));
			}
			int emptyInARow = 0;
			for (long n = first; !stop.get(); n++) {
				int q = (int) (n % queues);
				connection.out.write(reads[q]);
				connection.out.flush();
				String answer = connection.reply();
				boolean counted = inWindow.get();
				if (answer.equals("*-1") || answer.equals("*0")) {
					emptyInARow = emptyPoll(counted, emptyInARow);
					if (emptyInARow >= queues) {
						break;
					}
					continue;
				}
				if (!answer.equals("*1")) {
					connection.error("XREADGROUP", answer);
					continue;
				}
				// [[stream, [[id, [field, body]]]]]
				connection.reply();
				connection.reply();
				connection.reply();
				connection.reply();
				String id = connection.reply().equals("$-1") ? null
						: new String(connection.bulk, 0, connection.bulkLength, StandardCharsets.US_ASCII);
				connection.reply();
				connection.reply();
				connection.reply();
				if (id == null) {
					connection.error("XREADGROUP", "an entry without an id");
					continue;
				}
				emptyInARow = 0;
				if (counted) {
					polls.increment();
				}
				connection.out.write(ascii(acks[q] + bulkString(id) + deletes[q] + bulkString(id)));
				connection.out.flush();
				String acked = connection.reply();
				String deleted = connection.reply();
				if (!acked.equals(":1") || !deleted.equals(":1")) {
					connection.error("XACK/XDEL", acked + " " + deleted);
				}
				else {
					completedOne();
				}
			}
			connection.socket.close();
		}

		/**
		 * Reads one answer: its first line, and for a bulk string its bytes into
		 * {@code bulk}. An array's elements are read by calling this again for each.
		 */
		private String reply() throws IOException {
			String answer = RequestPathLoad.readLine(this.in, this.line);
			if (answer == null || answer.isEmpty()) {
				throw new IOException("connection closed");
			}
			if (answer.charAt(0) == '$' && !answer.equals("$-1")) {
				int length = Integer.parseInt(answer, 1, answer.length(), 10);
				if (length > this.bulk.length) {
					this.bulk = new byte[length];
				}
				if (this.in.readNBytes(this.bulk, 0, length) < length) {
					throw new IOException("connection closed in a bulk string");
				}
				this.in.skipNBytes(2);
				this.bulkLength = length;
			}
			return answer;
		}

		private void error(String what, String answer) {
			errors.increment();
			if (errors.sum() <= 5) {
				System.err.println(what + " answered " + answer);
			}
		}

		static String bulkString(String value) {
			return "$" + value.length() + "\r\n" + value + "\r\n";
		}

		static byte[] ascii(String text) {
			return text.getBytes(StandardCharsets.US_ASCII);
		}

		/** Writes {@code value} as {@code width} decimal digits (its last ones) at {@code at}. */
		static void digits(byte[] into, int at, int width, long value) {
			for (int i = at + width - 1; i >= at; i--) {
				into[i] = (byte) ('0' + (value % 10));
				value /= 10;
			}
		}

	}

	/**
	 * Round trips in a log-linear histogram: 16 buckets per power of two of nanoseconds, so a
	 * percentile is within 4.5% of the true one. Threads record into one array of counters.
	 */
	static final class Latencies {

		private final java.util.concurrent.atomic.AtomicLongArray counts = new java.util.concurrent.atomic.AtomicLongArray(
				64 * 16);

		void record(long nanos) {
			long n = Math.max(16, nanos);
			int power = 63 - Long.numberOfLeadingZeros(n);
			int sub = (int) ((n >>> (power - 4)) & 15);
			this.counts.incrementAndGet(power * 16 + sub);
		}

		/** The value at quantile q, in µs: the middle of its bucket. */
		double quantileUs(double q) {
			long total = 0;
			for (int i = 0; i < this.counts.length(); i++) {
				total += this.counts.get(i);
			}
			long rank = (long) Math.ceil(q * total);
			long seen = 0;
			for (int i = 0; i < this.counts.length(); i++) {
				seen += this.counts.get(i);
				if (seen >= rank && seen > 0) {
					int power = i / 16;
					double low = (16 + i % 16) * Math.pow(2, power - 4);
					return low * (1 + 1 / 32.0) / 1000;
				}
			}
			return Double.NaN;
		}

		String json() {
			return String.format(java.util.Locale.ROOT, "{\"p50\":%.1f,\"p99\":%.1f,\"p999\":%.1f}", quantileUs(0.5),
					quantileUs(0.99), quantileUs(0.999));
		}

	}

	static final class Connection {

		private final int port;

		private Socket socket;

		private OutputStream out;

		private InputStream in;

		byte[] body = new byte[64 * 1024];

		int bodyLength;

		private final StringBuilder line = new StringBuilder();

		Connection(int port) {
			this.port = port;
		}

		int exchange(byte[] request) throws IOException {
			if (this.socket == null) {
				open();
			}
			long start = System.nanoTime();
			int status = roundTrip(request);
			if (inWindow.get()) {
				latencies.record(System.nanoTime() - start);
			}
			return status;
		}

		private int roundTrip(byte[] request) throws IOException {
			try {
				this.out.write(request);
				this.out.flush();
				return readResponse();
			}
			catch (IOException ex) {
				// the server closed a kept-alive connection between two requests: retry once
				close();
				reconnects.increment();
				open();
				this.out.write(request);
				this.out.flush();
				return readResponse();
			}
		}

		private void open() throws IOException {
			this.socket = new Socket();
			this.socket.setTcpNoDelay(true);
			this.socket.connect(new InetSocketAddress(host, this.port));
			this.out = new BufferedOutputStream(this.socket.getOutputStream(), 8192);
			this.in = new BufferedInputStream(this.socket.getInputStream(), 65536);
		}

		void close() {
			if (this.socket != null) {
				try {
					this.socket.close();
				}
				catch (IOException ignored) {
					// closing anyway
				}
				this.socket = null;
			}
		}

		private int readResponse() throws IOException {
			String statusLine = readLine();
			if (statusLine == null) {
				throw new IOException("connection closed");
			}
			int status = Integer.parseInt(statusLine.substring(9, 12));
			long contentLength = -1;
			boolean chunked = false;
			boolean closing = false;
			for (String header = readLine(); header != null && !header.isEmpty(); header = readLine()) {
				int colon = header.indexOf(':');
				String name = header.substring(0, colon).trim();
				String value = header.substring(colon + 1).trim();
				if (name.equalsIgnoreCase("Content-Length")) {
					contentLength = Long.parseLong(value);
				}
				else if (name.equalsIgnoreCase("Transfer-Encoding")) {
					chunked = value.equalsIgnoreCase("chunked");
				}
				else if (name.equalsIgnoreCase("Connection")) {
					closing = value.equalsIgnoreCase("close");
				}
			}
			this.bodyLength = 0;
			if (chunked) {
				for (int size = Integer.parseInt(readLine().trim(), 16); size > 0; size = Integer
					.parseInt(readLine().trim(), 16)) {
					readBody(size);
					readLine();
				}
				readLine();
			}
			else if (contentLength > 0) {
				readBody((int) contentLength);
			}
			if (closing) {
				close();
				reconnects.increment();
			}
			return status;
		}

		private void readBody(int size) throws IOException {
			if (this.bodyLength + size > this.body.length) {
				this.body = java.util.Arrays.copyOf(this.body, this.bodyLength + size);
			}
			int read = this.in.readNBytes(this.body, this.bodyLength, size);
			if (read < size) {
				throw new IOException("connection closed in a body");
			}
			this.bodyLength += size;
		}

		private String readLine() throws IOException {
			return RequestPathLoad.readLine(this.in, this.line);
		}

		/**
		 * The first string value of that member in the last body, or {@code null}: the
		 * values read here (queue URLs, receipt handles) hold no escapes.
		 */
		String jsonString(String member) {
			String text = new String(this.body, 0, this.bodyLength, StandardCharsets.UTF_8);
			String key = "\"" + member + "\":\"";
			int at = text.indexOf(key);
			if (at < 0) {
				return null;
			}
			at += key.length();
			return text.substring(at, text.indexOf('"', at));
		}

		/** Every number after {@code "id":} in the last body, in order. */
		List<Long> jsonIds() {
			String text = new String(this.body, 0, this.bodyLength, StandardCharsets.UTF_8);
			List<Long> ids = new ArrayList<>();
			for (int at = text.indexOf("\"id\":"); at >= 0; at = text.indexOf("\"id\":", at + 1)) {
				int start = at + 5;
				int end = start;
				while (end < text.length() && Character.isDigit(text.charAt(end))) {
					end++;
				}
				ids.add(Long.parseLong(text.substring(start, end)));
			}
			return ids;
		}

		/** The number after {@code "id":} in the last body. */
		long jsonId() {
			String text = new String(this.body, 0, this.bodyLength, StandardCharsets.UTF_8);
			int at = text.indexOf("\"id\":") + 5;
			int end = at;
			while (end < text.length() && Character.isDigit(text.charAt(end))) {
				end++;
			}
			return Long.parseLong(text.substring(at, end));
		}

	}

}
