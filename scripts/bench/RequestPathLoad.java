import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * A low-overhead closed-loop HTTP/1.1 client for measuring what the service's request
 * path costs: one platform thread and one kept-alive socket per virtual user, requests
 * written as prebuilt bytes, answers parsed just enough (status, Content-Length or
 * chunked, Connection: close, the "id" of a delivery). Gatling on the same two cores eats
 * several times the service's CPU; this client eats a fraction of it.
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
 * {@code DeleteMessage} with its receipt handle.
 *
 * <p>
 * In {@code queue}, {@code sqs} and {@code beanstalk} mode, every push and every completion is also counted
 * outside the window, and after the drain {@code lost} is what was pushed and never
 * completed: 0 unless the service lost messages (or still held some when the drain gave
 * up). {@code cyclesPerSecond} is completions per second in the window: a push, a
 * delivery and a completion each.
 *
 * <p>
 * With {@code --pid}, the service's CPU time (utime + stime of /proc/PID/stat) is read at
 * the start and the end of the window, and divided by the requests answered in it: CPU
 * per request, whatever the client itself costs. Prints one line of JSON.
 *
 * <pre>
 * java scripts/bench/RequestPathLoad.java --port 8080 --pid 1234 --mode queue --producers 4 --consumers 4 --seconds 15
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

	static int port = 8080;

	static int queues = 8;

	static String prefix = "lean-" + Long.toString(System.currentTimeMillis(), 36);

	public static void main(String[] args) throws Exception {
		String mode = "queue";
		String path = "/actuator/info";
		int producers = 4;
		int consumers = 4;
		int users = -1;
		double seconds = 15;
		double warmup = 0;
		int bytes = 100;
		long pid = -1;
		for (int i = 0; i < args.length; i += 2) {
			String value = args[i + 1];
			switch (args[i]) {
				case "--host" -> host = value;
				case "--port" -> port = Integer.parseInt(value);
				case "--mode" -> mode = value;
				case "--path" -> path = value;
				case "--producers" -> producers = Integer.parseInt(value);
				case "--consumers" -> consumers = Integer.parseInt(value);
				case "--users" -> users = Integer.parseInt(value);
				case "--seconds" -> seconds = Double.parseDouble(value);
				case "--warmup" -> warmup = Double.parseDouble(value);
				case "--bytes" -> bytes = Integer.parseInt(value);
				case "--queues" -> queues = Integer.parseInt(value);
				case "--pid" -> pid = Long.parseLong(value);
				default -> throw new IllegalArgumentException("unknown option " + args[i]);
			}
		}
		List<Thread> threads = new ArrayList<>();
		if (mode.equals("queue")) {
			byte[] body = "m".repeat(bytes).getBytes(StandardCharsets.US_ASCII);
			for (int p = 0; p < producers; p++) {
				int first = p;
				threads.add(start("producer-" + p, () -> produce(first, body)));
			}
			for (int c = 0; c < consumers; c++) {
				int first = c;
				threads.add(start("consumer-" + c, () -> consume(first)));
			}
		}
		else if (mode.equals("noop")) {
			int n = (users > 0) ? users : producers + consumers;
			byte[] request = ("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nAccept: application/json\r\n\r\n")
				.getBytes(StandardCharsets.US_ASCII);
			for (int u = 0; u < n; u++) {
				threads.add(start("noop-" + u, () -> noop(request)));
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
			String[] urls = createSqsQueues();
			for (int p = 0; p < producers; p++) {
				int first = p;
				threads.add(start("producer-" + p, () -> produceSqs(first, urls, body)));
			}
			for (int c = 0; c < consumers; c++) {
				int first = c;
				threads.add(start("consumer-" + c, () -> consumeSqs(first, urls)));
			}
		}
		else {
			throw new IllegalArgumentException("mode is queue, sqs, noop or beanstalk");
		}
		Thread.sleep((long) (warmup * 1000));
		long[] cpuStart = cpuTicks(pid);
		long start = System.nanoTime();
		inWindow.set(true);
		Thread.sleep((long) (seconds * 1000));
		inWindow.set(false);
		long[] cpuEnd = cpuTicks(pid);
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
		// USER_HZ is 100 on Linux: a tick is 10 ms
		double userMs = (cpuEnd[0] - cpuStart[0]) * 10.0;
		double systemMs = (cpuEnd[1] - cpuStart[1]) * 10.0;
		double cpuMs = (pid > 0) ? userMs + systemMs : -1;
		System.out.printf(
				"{\"mode\":\"%s\",\"producers\":%d,\"consumers\":%d,\"window\":%.3f,\"requests\":%d,\"rps\":%.1f,"
						+ "\"pushes\":%d,\"polls\":%d,\"emptyPolls\":%d,\"completes\":%d,\"noops\":%d,\"errors\":%d,"
						+ "\"reconnects\":%d,\"serverCpuMs\":%.0f,\"serverUserMs\":%.0f,\"serverSystemMs\":%.0f,"
						+ "\"cpuUsPerRequest\":%.1f,\"cycles\":%d,\"cyclesPerSecond\":%.1f,\"cpuUsPerCycle\":%.1f,"
						+ "\"pushedTotal\":%d,\"completedTotal\":%d,\"lost\":%d}%n",
				mode, producers, consumers, window, requests, requests / window, pushes.sum(), polls.sum(),
				emptyPolls.sum(), completes.sum(), noops.sum(), errors.sum(), reconnects.sum(), cpuMs, userMs, systemMs,
				(pid > 0 && requests > 0) ? cpuMs * 1000 / requests : -1.0, completes.sum(), completes.sum() / window,
				(pid > 0 && completes.sum() > 0) ? cpuMs * 1000 / completes.sum() : -1.0, pushedTotal.sum(),
				completedTotal.sum(), pushedTotal.sum() - completedTotal.sum());
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

	/** utime and stime of the process, in clock ticks. */
	static long[] cpuTicks(long pid) throws IOException {
		if (pid <= 0) {
			return new long[2];
		}
		String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
		String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
		return new long[] { Long.parseLong(fields[11]), Long.parseLong(fields[12]) };
	}

	static String queue(long index) {
		return prefix + "-" + Math.floorMod(index, queues);
	}

	static void produce(int first, byte[] body) throws IOException {
		Connection connection = new Connection();
		byte[][] requests = new byte[queues][];
		for (int q = 0; q < queues; q++) {
			byte[] head = ("POST /queues/" + queue(q) + "/messages HTTP/1.1\r\nHost: " + host
					+ "\r\nAccept: application/json\r\nContent-Type: text/plain\r\nContent-Length: " + body.length
					+ "\r\n\r\n")
				.getBytes(StandardCharsets.US_ASCII);
			requests[q] = new byte[head.length + body.length];
			System.arraycopy(head, 0, requests[q], 0, head.length);
			System.arraycopy(body, 0, requests[q], head.length, body.length);
		}
		for (long n = first; producing.get() && !stop.get(); n++) {
			int status = connection.exchange(requests[(int) (n % queues)]);
			pushed(status, 201, connection);
		}
		connection.close();
	}

	static void consume(int first) throws IOException, InterruptedException {
		Connection connection = new Connection();
		byte[][] requests = new byte[queues][];
		for (int q = 0; q < queues; q++) {
			requests[q] = ("GET /queues/" + queue(q) + "/messages HTTP/1.1\r\nHost: " + host
					+ "\r\nAccept: application/json\r\n\r\n")
				.getBytes(StandardCharsets.US_ASCII);
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
			if (counted) {
				polls.increment();
			}
			long id = connection.jsonId();
			byte[] complete = ("DELETE /queues/" + queue(q) + "/messages/" + id + " HTTP/1.1\r\nHost: " + host
					+ "\r\nAccept: application/json\r\n\r\n")
				.getBytes(StandardCharsets.US_ASCII);
			completed(connection.exchange(complete), 204, connection);
		}
		connection.close();
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

	static void pushed(int status, int expected, Connection connection) {
		counted("push", status, expected, connection, pushedTotal, pushes);
	}

	static void completed(int status, int expected, Connection connection) {
		counted("complete", status, expected, connection, completedTotal, completes);
	}

	/** A push or completion answered: counted in all, and in the window if it is open. */
	static void counted(String what, int status, int expected, Connection connection, LongAdder total,
			LongAdder window) {
		if (status != expected) {
			error(what, status, connection);
			return;
		}
		total.increment();
		if (inWindow.get()) {
			window.increment();
		}
	}

	/** One SQS request: {@code POST /} with the action and its JSON members. */
	static byte[] sqsRequest(String action, String json) {
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
	static String[] createSqsQueues() throws IOException {
		Connection connection = new Connection();
		String[] urls = new String[queues];
		for (int q = 0; q < queues; q++) {
			int status = connection.exchange(sqsRequest("CreateQueue", "{\"QueueName\":\"" + queue(q) + "\"}"));
			urls[q] = connection.jsonString("QueueUrl");
			if (status != 200 || urls[q] == null) {
				throw new IOException("CreateQueue answered " + status + ": "
						+ new String(connection.body, 0, connection.bodyLength, StandardCharsets.UTF_8));
			}
		}
		connection.close();
		return urls;
	}

	static void produceSqs(int first, String[] urls, String body) throws IOException {
		Connection connection = new Connection();
		byte[][] requests = new byte[queues][];
		for (int q = 0; q < queues; q++) {
			requests[q] = sqsRequest("SendMessage",
					"{\"QueueUrl\":\"" + urls[q] + "\",\"MessageBody\":\"" + body + "\"}");
		}
		for (long n = first; producing.get() && !stop.get(); n++) {
			pushed(connection.exchange(requests[(int) (n % queues)]), 200, connection);
		}
		connection.close();
	}

	static void consumeSqs(int first, String[] urls) throws IOException, InterruptedException {
		Connection connection = new Connection();
		byte[][] requests = new byte[queues][];
		for (int q = 0; q < queues; q++) {
			requests[q] = sqsRequest("ReceiveMessage",
					"{\"QueueUrl\":\"" + urls[q] + "\",\"MaxNumberOfMessages\":1,\"WaitTimeSeconds\":0}");
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
					"{\"QueueUrl\":\"" + urls[q] + "\",\"ReceiptHandle\":\"" + handle + "\"}")), 200,
					connection);
		}
		connection.close();
	}

	static void noop(byte[] request) throws IOException {
		Connection connection = new Connection();
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

		static void produce(int first, byte[] body) throws IOException {
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
			for (long n = first; producing.get() && !stop.get(); n++) {
				String using = connection.send(requests[(int) (n % queues)]);
				String inserted = connection.readLine();
				if (!using.startsWith("USING ") || inserted == null || !inserted.startsWith("INSERTED ")) {
					connection.error("put", using + " / " + inserted);
				}
				else {
					pushedTotal.increment();
					if (inWindow.get()) {
						pushes.increment();
					}
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
					completedTotal.increment();
					if (inWindow.get()) {
						completes.increment();
					}
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

	/** One kept-alive connection, reopened when the server closes it. */
	static final class Connection {

		private Socket socket;

		private OutputStream out;

		private InputStream in;

		byte[] body = new byte[64 * 1024];

		int bodyLength;

		private final StringBuilder line = new StringBuilder();

		int exchange(byte[] request) throws IOException {
			if (this.socket == null) {
				open();
			}
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
			this.socket.connect(new InetSocketAddress(host, port));
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
