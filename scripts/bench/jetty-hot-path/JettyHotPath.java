import static org.eclipse.jetty.util.thread.Invocable.InvocationType.NON_BLOCKING;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.github.qsbench.core.Completion;
import io.github.qsbench.core.Eviction;
import io.github.qsbench.core.Lease;
import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.strategy.Strategy;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.eclipse.jetty.ee11.servlet.FilterHolder;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.http.PreEncodedHttpField;
import org.eclipse.jetty.io.AbstractConnection;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.ManagedSelector;
import org.eclipse.jetty.io.SelectableChannelEndPoint;
import org.eclipse.jetty.io.SelectorManager;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * A measurement probe, not the product (issue 48): what push, poll and complete of the
 * REST API ({@code POST} and {@code GET /queues/q/messages}, {@code DELETE
 * /queues/q/messages/id}) cost on Jetty 12, answered as the service answers them (status,
 * headers, JSON), without the service's application layer, metrics or limits. Three ways:
 * <ul>
 * <li>{@code core}: a Jetty core handler that never blocks, on the service's default
 * strategy's core, which Jetty runs on the thread that read the request (no hand-off to a
 * worker: the path issue 48's profile argues for);
 * <li>{@code servlet}: the same routes as a servlet filter, as the service's own filter
 * runs on Tomcat (with {@code virtual}: on virtual threads);
 * <li>{@code redis:<port>}: the core handler on the redis strategy's own Lua scripts
 * through Lettuce's asynchronous API, answered from its callback (issue 49: what the
 * service on Redis could reach when no thread waits for Redis);
 * <li>{@code redis-inline:<port>}: the same scripts over one Redis connection that Jetty's
 * own selector watches ({@link InlineRedis}): the command written on the thread that read
 * the request, the reply read and the answer written by that same selector, so that no
 * thread hands anything to another (issue 49's one-loop design, measured before it is
 * built into the service);
 * <li>{@code redis-pass:<port>}: the same, with the commands of all the requests one pass
 * of the selector read written together at the end of the pass (pipelined);
 * <li>{@code redis-group:<port>}: the same, with the operations of all the requests one
 * pass read sent at its end as one script ({@code group.lua}, on any queues): a group
 * commit across queues in which no thread waits;
 * <li>{@code netty-shared:<port>} and {@code netty-apart:<port>}: the redis way on Netty's
 * HTTP server, with Lettuce on the server's own event loops or on its own
 * ({@link NettyLoop}).
 * </ul>
 * scripts/bench/jetty-hot-path.sh and redis.sh's {@code async-probe} setup run it; the
 * figures are in docs/request-path-profile.md and docs/redis.md.
 *
 * <p>
 * Arguments: port, selector threads, the way, and {@code virtual} for virtual threads.
 */
public final class JettyHotPath {

	/** The service's limit on a message body (256 KiB). */
	static final int MAX_BODY = 262_144;

	static final HttpField JSON = new PreEncodedHttpField(HttpHeader.CONTENT_TYPE, "application/json");

	static final HttpField NO_STORE = new PreEncodedHttpField(HttpHeader.CACHE_CONTROL, "no-store");

	/** The jobs (connections' resumes) that the answer being written executed, run after it. */
	static final ThreadLocal<List<Runnable>> RESUMES = new ThreadLocal<>();

	/**
	 * Writes an answer on a thread that did not read its request, then runs here the
	 * connection's resume (the read of its next request) that Jetty would hand to a pool
	 * thread, as the service's ResumeInline.answering does.
	 */
	static void answering(Runnable answer) {
		List<Runnable> resumes = new ArrayList<>(1);
		RESUMES.set(resumes);
		try {
			answer.run();
		}
		finally {
			RESUMES.remove();
		}
		resumes.forEach(Runnable::run);
	}

	public static void main(String[] args) throws Exception {
		int port = Integer.parseInt(args[0]);
		int selectors = (args.length > 1) ? Integer.parseInt(args[1]) : 1;
		String way = (args.length > 2) ? args[2] : "core";
		if (way.startsWith("netty-")) {
			NettyLoop.serve(port, selectors, way);
			return;
		}
		QueuedThreadPool pool = new QueuedThreadPool(16, 4) {
			@Override
			public void execute(Runnable job) {
				List<Runnable> deferred = RESUMES.get();
				if (deferred != null) {
					deferred.add(job);
				}
				else {
					super.execute(job);
				}
			}
		};
		if (args.length > 3 && args[3].equals("virtual")) {
			pool.setVirtualThreadsExecutor(Executors.newVirtualThreadPerTaskExecutor());
		}
		Server server = new Server(pool);
		HttpConfiguration config = new HttpConfiguration();
		config.setSendServerVersion(false);
		ServerConnector connector = new InlineConnector(server, selectors, new HttpConnectionFactory(config));
		connector.setHost("127.0.0.1");
		connector.setPort(port);
		server.addConnector(connector);
		OnRedis inline = null;
		if (way.startsWith("redis:")) {
			int redisPort = Integer.parseInt(way.substring("redis:".length()));
			OnRedis onRedis = new OnRedis(redisPort);
			onRedis.eval = onRedis.lettuce();
			server.setHandler(onRedis);
		}
		else if (way.startsWith("redis-inline:") || way.startsWith("redis-pass:") || way.startsWith("redis-group:")) {
			inline = new OnRedis(Integer.parseInt(way.substring(way.indexOf(':') + 1)));
			server.setHandler(inline);
		}
		else if (way.equals("servlet")) {
			ServletContextHandler context = new ServletContextHandler();
			context.addFilter(new FilterHolder(new AsServletFilter(core())), "/*", EnumSet.of(DispatcherType.REQUEST));
			server.setHandler(context);
		}
		else {
			server.setHandler(new OnCore(core()));
		}
		server.start();
		if (inline != null) {
			inline.eval = InlineRedis.open(connector.getSelectorManager(), selectors, inline.redisPort,
					way.substring(0, way.indexOf(':')), inline.group);
		}
		System.out.println("probe (" + way + ") up at " + port);
		server.join();
	}

	static QueueServiceCore core() {
		return Strategy.CONCURRENT_ATOMIC
			.create(new QueueOptions(Duration.ofSeconds(30), Eviction.LAZY, InstantSource.system(), true));
	}

	/**
	 * The three routes as a Jetty core handler that never blocks: the request's queue and
	 * method read here, the body read without blocking, and the work left to a subclass,
	 * which answers through {@link #pushed} and {@link #leased} now or later.
	 */
	abstract static class HotRoutes extends Handler.Abstract.NonBlocking {

		private static final String QUEUES = "/queues/";

		private static final String MESSAGES = "/messages/";

		@Override
		public boolean handle(Request request, Response response, Callback callback) {
			String path = request.getHttpURI().getPath();
			if (!path.startsWith(QUEUES)) {
				return false;
			}
			int nameEnd = path.indexOf('/', QUEUES.length());
			String queue = path.substring(QUEUES.length(), nameEnd);
			switch (request.getMethod()) {
				case "POST" -> Content.Source.asByteArrayAsync(request, MAX_BODY,
						Promise.Invocable.from(NON_BLOCKING, (body, failure) -> {
							if (failure != null) {
								Response.writeError(request, response, callback, failure);
							}
							else {
								push(queue, body, response, callback);
							}
						}));
				case "GET" -> poll(queue, response, callback);
				case "DELETE" -> complete(queue, path.substring(nameEnd + MESSAGES.length()), response, callback);
				default -> {
					return false;
				}
			}
			return true;
		}

		abstract void push(String queue, byte[] body, Response response, Callback callback);

		abstract void poll(String queue, Response response, Callback callback);

		abstract void complete(String queue, String id, Response response, Callback callback);

		/** Answers a push as the service does: 201, where the message is, its id. */
		static void pushed(Response response, Callback callback, String queue, long id) {
			response.setStatus(HttpStatus.CREATED_201);
			response.getHeaders().put(HttpHeader.LOCATION, "/queues/" + queue + "/messages/" + id);
			response.getHeaders().add(JSON);
			byte[] json = ("{\"id\":" + id + ",\"queue\":\"" + queue + "\"}").getBytes(StandardCharsets.UTF_8);
			response.getHeaders().put(HttpHeader.CONTENT_LENGTH, json.length);
			response.write(true, ByteBuffer.wrap(json), callback);
		}

		/**
		 * Answers a poll as the service does: 204 if {@code body} is {@code null}, else 200
		 * with the message, its delivery and its lease.
		 */
		static void leased(Response response, Callback callback, String queue, long id, int delivery, byte[] body) {
			response.getHeaders().add(NO_STORE);
			if (body == null) {
				response.setStatus(HttpStatus.NO_CONTENT_204);
				response.write(true, null, callback);
				return;
			}
			String token = id + "." + delivery;
			response.getHeaders().put(HttpHeader.ETAG, "\"" + token + "\"");
			response.getHeaders().add(JSON);
			byte[] json = ("{\"id\":" + id + ",\"queue\":\"" + queue + "\",\"body\":\""
					+ new String(body, StandardCharsets.UTF_8) + "\",\"deliveries\":" + delivery + ",\"lease\":\""
					+ token + "\"}")
				.getBytes(StandardCharsets.UTF_8);
			response.getHeaders().put(HttpHeader.CONTENT_LENGTH, json.length);
			response.write(true, ByteBuffer.wrap(json), callback);
		}

		/** Answers a completion: 204, or 404 if it did not complete. */
		static void completed(Response response, Callback callback, boolean done) {
			response.setStatus(done ? HttpStatus.NO_CONTENT_204 : HttpStatus.NOT_FOUND_404);
			response.write(true, null, callback);
		}

	}

	/** On the in-process core, answered on the thread that read the request. */
	static final class OnCore extends HotRoutes {

		private final QueueServiceCore core;

		OnCore(QueueServiceCore core) {
			this.core = core;
		}

		@Override
		void push(String queue, byte[] body, Response response, Callback callback) {
			pushed(response, callback, queue, this.core.pushAll(queue, List.of(body)).get(0).id());
		}

		@Override
		void poll(String queue, Response response, Callback callback) {
			List<Lease> leases = this.core.lease(queue, 1);
			if (leases.isEmpty()) {
				leased(response, callback, queue, 0, 0, null);
			}
			else {
				Lease lease = leases.get(0);
				leased(response, callback, queue, lease.message().id(), lease.delivery(), lease.message().body());
			}
		}

		@Override
		void complete(String queue, String id, Response response, Callback callback) {
			completed(response, callback, this.core.complete(queue, Long.parseLong(id)) == Completion.COMPLETED);
		}

	}

	/** Sends {@code EVALSHA} of a script with its keys and arguments; completes with its reply. */
	interface Eval {

		CompletionStage<List<Object>> evalsha(String sha, byte[][] keys, byte[]... args);

		/** Where a request's commands go: this, unless the way has a connection per selector. */
		default Eval of(Response response) {
			return this;
		}

		/**
		 * One push ('p'), poll ('l') or completion ('c') on {@code queue}, with its body or
		 * id: the script {@code sha} with {@code keys} and {@code args}, unless the way
		 * groups operations (redis-group).
		 */
		default CompletionStage<List<Object>> op(char kind, String queue, byte[] value, String sha, byte[][] keys,
				byte[]... args) {
			return evalsha(sha, keys, args);
		}

	}

	/**
	 * On the redis strategy's own Lua scripts (push.lua, lease.lua, complete.lua, with the
	 * keys and arguments RedisQS gives them, as RequestPathLoad's redis-lua mode calls
	 * them), sent by {@link #eval} without waiting: the answer is written from the reply's
	 * callback, so no thread waits for Redis.
	 */
	static final class OnRedis extends HotRoutes {

		private static final byte[] ZERO = ascii("0");

		final int redisPort;

		private final StatefulRedisConnection<byte[], byte[]> connection;

		private final String push;

		private final String lease;

		private final String complete;

		/** group.lua, the probe's own script for redis-group. */
		final String group;

		/** How the scripts are sent: set before the first request. */
		volatile Eval eval;

		OnRedis(int redisPort) throws IOException {
			this.redisPort = redisPort;
			this.connection = RedisClient.create("redis://127.0.0.1:" + redisPort).connect(ByteArrayCodec.INSTANCE);
			this.push = load(this.connection, "push.lua");
			this.lease = load(this.connection, "lease.lua");
			this.complete = load(this.connection, "complete.lua");
			try (InputStream in = JettyHotPath.class.getResourceAsStream("/group.lua")) {
				this.group = this.connection.sync().scriptLoad(in.readAllBytes());
			}
		}

		/** Through Lettuce's asynchronous API, whose event loop writes, reads and calls back. */
		Eval lettuce() {
			RedisAsyncCommands<byte[], byte[]> redis = this.connection.async();
			return (sha, keys, args) -> redis.<List<Object>>evalsha(sha, ScriptOutputType.MULTI, keys, args);
		}

		private static String load(StatefulRedisConnection<byte[], byte[]> connection, String name)
				throws IOException {
			try (InputStream in = JettyHotPath.class.getResourceAsStream("/io/github/qsbench/redis/" + name)) {
				return connection.sync().scriptLoad(in.readAllBytes());
			}
		}

		private static byte[] now() {
			return ascii(Long.toString(System.currentTimeMillis()));
		}

		/** lease.lua's arguments for one message leased for 30 s: now, 1 and when it ends. */
		private static byte[][] leaseArgs() {
			long now = System.currentTimeMillis();
			return new byte[][] { ascii(Long.toString(now)), ascii("1"), ascii(Long.toString(now + 30_000)) };
		}

		/** The queue's keys as RedisQS names them, then {@code more}. */
		static byte[][] keys(String queue, String... more) {
			String prefix = "probe:{" + queue + "}:";
			String[] names = { "ready", "leased", "delayed", "bodies", "deliveries" };
			byte[][] keys = new byte[names.length + more.length][];
			for (int i = 0; i < names.length; i++) {
				keys[i] = ascii(prefix + names[i]);
			}
			for (int i = 0; i < more.length; i++) {
				keys[names.length + i] = ascii(more[i]);
			}
			return keys;
		}

		@Override
		void push(String queue, byte[] body, Response response, Callback callback) {
			this.eval.of(response)
				.op('p', queue, body, this.push, keys(queue, "probe:ids", "probe:queues"), now(), ZERO, ZERO,
						ascii("1000000"), ascii(queue), ascii("probe:pushed"), body)
				.whenComplete((reply, error) -> answering(() -> {
					if (error != null) {
						callback.failed(error);
					}
					else {
						pushed(response, callback, queue, (Long) reply.get(0));
					}
				}));
		}

		@Override
		void poll(String queue, Response response, Callback callback) {
			this.eval.of(response)
				.op('l', queue, new byte[0], this.lease, keys(queue), leaseArgs())
				.whenComplete((reply, error) -> answering(() -> {
					if (error != null) {
						callback.failed(error);
					}
					else if (reply.isEmpty()) {
						leased(response, callback, queue, 0, 0, null);
					}
					else {
						leased(response, callback, queue, (Long) reply.get(0), ((Long) reply.get(1)).intValue(),
								(byte[]) reply.get(2));
					}
				}));
		}

		@Override
		void complete(String queue, String id, Response response, Callback callback) {
			this.eval.of(response)
				.op('c', queue, ascii(id), this.complete, keys(queue, "probe:queues"), ascii("complete"), now(),
						ascii("30000"), ascii(id), ZERO)
				.whenComplete((reply, error) -> answering(() -> {
					if (error != null) {
						callback.failed(error);
					}
					else {
						completed(response, callback, (Long) reply.get(0) == 0);
					}
				}));
		}

	}

	static byte[] ascii(String text) {
		return text.getBytes(StandardCharsets.US_ASCII);
	}

	/**
	 * The probe's connector, whose selectors also serve {@link InlineRedis}: a channel given
	 * to its selector manager with a future as attachment becomes that connection, not HTTP.
	 */
	static final class InlineConnector extends ServerConnector {

		InlineConnector(Server server, int selectors, HttpConnectionFactory http) {
			super(server, 1, selectors, http);
		}

		@Override
		protected SelectorManager newSelectorManager(Executor executor, Scheduler scheduler, int selectors) {
			return new ServerConnectorManager(executor, scheduler, selectors) {
				@Override
				public Connection newConnection(SelectableChannel channel, EndPoint endPoint, Object attachment)
						throws IOException {
					if (attachment instanceof CompletableFuture<?> opened) {
						InlineRedis redis = new InlineRedis(endPoint, getExecutor());
						@SuppressWarnings("unchecked")
						CompletableFuture<InlineRedis> connected = (CompletableFuture<InlineRedis>) opened;
						connected.complete(redis);
						return redis;
					}
					return super.newConnection(channel, endPoint, attachment);
				}
			};
		}

	}

	/**
	 * One Redis connection watched by one of Jetty's selectors, beside the HTTP connections
	 * it watches. A command is written by the thread that sends it (the selector's own, for a
	 * request read there), and the reply is read by the selector, which completes the
	 * command's future and so writes the HTTP answer: one thread, no hand-off. Replies come
	 * in the order the commands were written (RESP), so the futures wait in that order;
	 * a command sent while another is being written waits in {@code unsent} and goes with the
	 * next write. A probe's client: RESP 2 arrays, integers and bulk strings, no reconnect.
	 */
	static final class InlineRedis extends AbstractConnection.NonBlocking implements Eval {

		private static final Object INCOMPLETE = new Object();

		private static final byte[] EVALSHA = ascii("EVALSHA");

		private final ArrayDeque<CompletableFuture<List<Object>>> waiting = new ArrayDeque<>();

		private final ArrayDeque<ByteBuffer> unsent = new ArrayDeque<>();

		private ByteBuffer in = BufferUtil.allocate(1 << 16);

		private boolean writing;

		/** Whether commands wait for the end of the selector's pass ({@code redis-pass}). */
		private boolean perPass;

		/** Whether a write of the pass's commands is queued with the selector. */
		private boolean flushQueued;

		/** group.lua's SHA-1 in redis-group, else null. */
		private String group;

		/** The operations of the pass, sent at its end as one group.lua (redis-group). */
		private final List<Operation> grouped = new ArrayList<>();

		private record Operation(char kind, String queue, byte[] value, CompletableFuture<List<Object>> reply) {
		}

		InlineRedis(EndPoint endPoint, Executor executor) {
			super(endPoint, executor);
		}

		/**
		 * Connects to Redis once for each of the {@code count} selectors (which the manager
		 * chooses round robin) and sends a request's commands on its own selector's connection.
		 */
		static Eval open(SelectorManager selectors, int count, int port, String way, String group) throws Exception {
			Map<Object, InlineRedis> bySelector = new HashMap<>();
			for (int i = 0; i < count; i++) {
				SocketChannel channel = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
				channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
				channel.configureBlocking(false);
				CompletableFuture<InlineRedis> opened = new CompletableFuture<>();
				selectors.accept(channel, opened);
				InlineRedis redis = opened.get(10, TimeUnit.SECONDS);
				redis.perPass = way.equals("redis-pass");
				redis.group = way.equals("redis-group") ? group : null;
				bySelector.put(selectorOf(redis.getEndPoint()), redis);
			}
			InlineRedis any = bySelector.values().iterator().next();
			return new Eval() {
				@Override
				public CompletionStage<List<Object>> evalsha(String sha, byte[][] keys, byte[]... args) {
					return any.evalsha(sha, keys, args);
				}

				@Override
				public CompletionStage<List<Object>> op(char kind, String queue, byte[] value, String sha,
						byte[][] keys, byte[]... args) {
					return any.op(kind, queue, value, sha, keys, args);
				}

				@Override
				public Eval of(Response response) {
					Object selector = selectorOf(response.getRequest().getConnectionMetaData().getConnection().getEndPoint());
					return bySelector.getOrDefault(selector, any);
				}
			};
		}

		/** The selector that watches an endpoint (Jetty keeps it private: a probe may look). */
		static Object selectorOf(EndPoint endPoint) {
			try {
				return SELECTOR.get(endPoint);
			}
			catch (IllegalAccessException ex) {
				throw new IllegalStateException(ex);
			}
		}

		private static final Field SELECTOR;

		static {
			try {
				SELECTOR = SelectableChannelEndPoint.class.getDeclaredField("_selector");
				SELECTOR.setAccessible(true);
			}
			catch (NoSuchFieldException ex) {
				throw new ExceptionInInitializerError(ex);
			}
		}

		@Override
		public void onOpen() {
			super.onOpen();
			fillInterested();
		}

		@Override
		public boolean onIdleExpired(TimeoutException timeout) {
			return false;
		}

		@Override
		public CompletionStage<List<Object>> evalsha(String sha, byte[][] keys, byte[]... args) {
			ByteArrayOutputStream out = new ByteArrayOutputStream(256);
			head(out, '*', 3 + keys.length + args.length);
			bulk(out, EVALSHA);
			bulk(out, ascii(sha));
			bulk(out, ascii(Integer.toString(keys.length)));
			for (byte[] key : keys) {
				bulk(out, key);
			}
			for (byte[] arg : args) {
				bulk(out, arg);
			}
			ByteBuffer command = ByteBuffer.wrap(out.toByteArray());
			CompletableFuture<List<Object>> reply = new CompletableFuture<>();
			boolean queueFlush = false;
			synchronized (this) {
				this.waiting.add(reply);
				if (this.writing || this.perPass) {
					this.unsent.add(command);
					queueFlush = this.perPass && !this.writing && !this.flushQueued;
					this.flushQueued |= queueFlush;
					if (!queueFlush) {
						return reply;
					}
				}
				else {
					this.writing = true;
				}
			}
			if (queueFlush) {
				// the selector runs its queued updates once it has served every key it selected
				((ManagedSelector) selectorOf(getEndPoint())).submit((selector) -> flush());
			}
			else {
				write(command);
			}
			return reply;
		}

		@Override
		public CompletionStage<List<Object>> op(char kind, String queue, byte[] value, String sha, byte[][] keys,
				byte[]... args) {
			if (this.group == null) {
				return evalsha(sha, keys, args);
			}
			CompletableFuture<List<Object>> reply = new CompletableFuture<>();
			boolean first;
			synchronized (this) {
				first = this.grouped.isEmpty();
				this.grouped.add(new Operation(kind, queue, value, reply));
			}
			if (first) {
				((ManagedSelector) selectorOf(getEndPoint())).submit((selector) -> sendGroup());
			}
			return reply;
		}

		/** Sends the pass's operations as one group.lua and answers each from its part of the reply. */
		private void sendGroup() {
			List<Operation> operations;
			synchronized (this) {
				operations = List.copyOf(this.grouped);
				this.grouped.clear();
			}
			byte[][] keys = new byte[2 + 5 * operations.size()][];
			byte[][] args = new byte[4 + 3 * operations.size()][];
			keys[0] = ascii("probe:ids");
			keys[1] = ascii("probe:queues");
			args[0] = ascii(Long.toString(System.currentTimeMillis()));
			args[1] = ascii("30000");
			args[2] = ascii("1000000");
			args[3] = ascii("probe:pushed");
			for (int i = 0; i < operations.size(); i++) {
				Operation operation = operations.get(i);
				byte[][] queueKeys = OnRedis.keys(operation.queue());
				System.arraycopy(queueKeys, 0, keys, 2 + 5 * i, 5);
				args[4 + 3 * i] = new byte[] { (byte) operation.kind() };
				args[5 + 3 * i] = ascii(operation.queue());
				args[6 + 3 * i] = operation.value();
			}
			evalsha(this.group, keys, args).whenComplete((replies, error) -> {
				for (int i = 0; i < operations.size(); i++) {
					CompletableFuture<List<Object>> reply = operations.get(i).reply();
					if (error != null) {
						reply.completeExceptionally(error);
					}
					else if (replies.get(i) instanceof List<?> list) {
						@SuppressWarnings("unchecked")
						List<Object> answer = (List<Object>) list;
						reply.complete(answer);
					}
					else {
						reply.completeExceptionally(new IOException("Redis answered " + replies.get(i)));
					}
				}
			});
		}

		/** Writes the pass's commands, in one write, unless a write is out (which will). */
		private void flush() {
			ByteBuffer[] commands;
			synchronized (this) {
				this.flushQueued = false;
				if (this.writing || this.unsent.isEmpty()) {
					return;
				}
				this.writing = true;
				commands = this.unsent.toArray(new ByteBuffer[0]);
				this.unsent.clear();
			}
			write(commands);
		}

		private void write(ByteBuffer... commands) {
			getEndPoint().write(Callback.from(NON_BLOCKING, this::written, this::failed), commands);
		}

		/** The last write is out: sends what came meanwhile, all in one write. */
		private void written() {
			ByteBuffer[] next;
			synchronized (this) {
				if (this.unsent.isEmpty()) {
					this.writing = false;
					return;
				}
				next = this.unsent.toArray(new ByteBuffer[0]);
				this.unsent.clear();
			}
			write(next);
		}

		@Override
		public void onFillable() {
			try {
				while (true) {
					BufferUtil.compact(this.in);
					if (BufferUtil.space(this.in) == 0) {
						ByteBuffer larger = BufferUtil.allocate(this.in.capacity() * 2);
						BufferUtil.append(larger, this.in);
						this.in = larger;
					}
					int filled = getEndPoint().fill(this.in);
					if (filled < 0) {
						failed(new EOFException("Redis closed the connection"));
						return;
					}
					answer();
					if (filled == 0) {
						fillInterested();
						return;
					}
				}
			}
			catch (IOException ex) {
				failed(ex);
			}
		}

		/** Completes a waiting command's future with each whole reply read. */
		@SuppressWarnings("unchecked")
		private void answer() {
			while (this.in.hasRemaining()) {
				int start = this.in.position();
				Object reply = parse(this.in);
				if (reply == INCOMPLETE) {
					this.in.position(start);
					return;
				}
				CompletableFuture<List<Object>> next;
				synchronized (this) {
					next = this.waiting.poll();
				}
				if (reply instanceof List<?> list) {
					next.complete((List<Object>) list);
				}
				else {
					next.completeExceptionally(new IOException("Redis answered " + reply));
				}
			}
		}

		private void failed(Throwable failure) {
			List<CompletableFuture<List<Object>>> failing;
			synchronized (this) {
				failing = new ArrayList<>(this.waiting);
				this.waiting.clear();
			}
			failing.forEach((future) -> future.completeExceptionally(failure));
			close();
		}

		/** One RESP 2 reply from {@code in}, or {@link #INCOMPLETE}. */
		private static Object parse(ByteBuffer in) {
			if (!in.hasRemaining()) {
				return INCOMPLETE;
			}
			byte type = in.get();
			if (type == '+' || type == '-') {
				int end = crlf(in);
				if (end < 0) {
					return INCOMPLETE;
				}
				String text = StandardCharsets.UTF_8.decode(in.slice(in.position(), end - in.position())).toString();
				in.position(end + 2);
				return (char) type + text;
			}
			Long number = line(in);
			if (number == null) {
				return INCOMPLETE;
			}
			if (type == ':') {
				return number;
			}
			if (type == '$') {
				if (number < 0) {
					return null;
				}
				if (in.remaining() < number + 2) {
					return INCOMPLETE;
				}
				byte[] bulk = new byte[number.intValue()];
				in.get(bulk);
				in.position(in.position() + 2);
				return bulk;
			}
			List<Object> array = new ArrayList<>(number.intValue());
			for (int i = 0; i < number; i++) {
				Object element = parse(in);
				if (element == INCOMPLETE) {
					return INCOMPLETE;
				}
				array.add(element);
			}
			return array;
		}

		/** The number on the line at {@code in}'s position, which then follows it; null if not all there. */
		private static Long line(ByteBuffer in) {
			int end = crlf(in);
			if (end < 0) {
				return null;
			}
			long number = 0;
			boolean negative = in.get(in.position()) == '-';
			for (int i = in.position() + (negative ? 1 : 0); i < end; i++) {
				number = number * 10 + (in.get(i) - '0');
			}
			in.position(end + 2);
			return negative ? -number : number;
		}

		private static int crlf(ByteBuffer in) {
			for (int i = in.position(); i + 1 < in.limit(); i++) {
				if (in.get(i) == '\r' && in.get(i + 1) == '\n') {
					return i;
				}
			}
			return -1;
		}

		private static void head(ByteArrayOutputStream out, char type, int count) {
			out.write(type);
			out.writeBytes(ascii(Integer.toString(count)));
			out.write('\r');
			out.write('\n');
		}

		private static void bulk(ByteArrayOutputStream out, byte[] value) {
			head(out, '$', value.length);
			out.writeBytes(value);
			out.write('\r');
			out.write('\n');
		}

	}

	/** The same three routes as a servlet filter (blocking servlet API), as the service's is. */
	static final class AsServletFilter extends HttpFilter {

		private static final long serialVersionUID = 1L;

		private final transient QueueServiceCore core;

		AsServletFilter(QueueServiceCore core) {
			this.core = core;
		}

		@Override
		protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
				throws IOException {
			String path = request.getRequestURI();
			int nameEnd = path.indexOf('/', "/queues/".length());
			String queue = path.substring("/queues/".length(), nameEnd);
			switch (request.getMethod()) {
				case "POST" -> {
					long id = this.core.pushAll(queue, List.of(request.getInputStream().readAllBytes())).get(0).id();
					response.setStatus(201);
					response.setHeader("Location", "/queues/" + queue + "/messages/" + id);
					write(response, "{\"id\":" + id + ",\"queue\":\"" + queue + "\"}");
				}
				case "GET" -> {
					List<Lease> leases = this.core.lease(queue, 1);
					response.setHeader("Cache-Control", "no-store");
					if (leases.isEmpty()) {
						response.setStatus(204);
						return;
					}
					Lease lease = leases.get(0);
					long id = lease.message().id();
					String token = id + "." + lease.delivery();
					response.setHeader("ETag", "\"" + token + "\"");
					write(response, "{\"id\":" + id + ",\"queue\":\"" + queue + "\",\"body\":\""
							+ new String(lease.message().body(), StandardCharsets.UTF_8) + "\",\"deliveries\":"
							+ lease.delivery() + ",\"lease\":\"" + token + "\"}");
				}
				default -> {
					long id = Long.parseLong(path, nameEnd + "/messages/".length(), path.length(), 10);
					response.setStatus((this.core.complete(queue, id) == Completion.COMPLETED) ? 204 : 404);
				}
			}
		}

		private static void write(HttpServletResponse response, String json) throws IOException {
			byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
			response.setContentType("application/json");
			response.setContentLength(bytes.length);
			response.getOutputStream().write(bytes);
		}

	}

}
