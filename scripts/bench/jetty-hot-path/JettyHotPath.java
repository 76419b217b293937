import static org.eclipse.jetty.util.thread.Invocable.InvocationType.NON_BLOCKING;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.InstantSource;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.Executors;

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
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

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
 * service on Redis could reach when no thread waits for Redis).
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

	public static void main(String[] args) throws Exception {
		int port = Integer.parseInt(args[0]);
		int selectors = (args.length > 1) ? Integer.parseInt(args[1]) : 1;
		String way = (args.length > 2) ? args[2] : "core";
		QueuedThreadPool pool = new QueuedThreadPool(16, 4);
		if (args.length > 3 && args[3].equals("virtual")) {
			pool.setVirtualThreadsExecutor(Executors.newVirtualThreadPerTaskExecutor());
		}
		Server server = new Server(pool);
		HttpConfiguration config = new HttpConfiguration();
		config.setSendServerVersion(false);
		ServerConnector connector = new ServerConnector(server, 1, selectors, new HttpConnectionFactory(config));
		connector.setHost("127.0.0.1");
		connector.setPort(port);
		server.addConnector(connector);
		if (way.startsWith("redis:")) {
			server.setHandler(new OnRedis(Integer.parseInt(way.substring("redis:".length()))));
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

	/**
	 * On the redis strategy's own Lua scripts (push.lua, lease.lua, complete.lua, with the
	 * keys and arguments RedisQS gives them, as RequestPathLoad's redis-lua mode calls
	 * them), through Lettuce's asynchronous API: the handler sends the script and returns,
	 * and the answer is written from Lettuce's callback, so no thread waits for Redis.
	 */
	static final class OnRedis extends HotRoutes {

		private static final byte[] ZERO = ascii("0");

		private final RedisAsyncCommands<byte[], byte[]> redis;

		private final String push;

		private final String lease;

		private final String complete;

		OnRedis(int redisPort) throws IOException {
			StatefulRedisConnection<byte[], byte[]> connection = RedisClient.create("redis://127.0.0.1:" + redisPort)
				.connect(ByteArrayCodec.INSTANCE);
			this.redis = connection.async();
			this.push = load(connection, "push.lua");
			this.lease = load(connection, "lease.lua");
			this.complete = load(connection, "complete.lua");
		}

		private static String load(StatefulRedisConnection<byte[], byte[]> connection, String name)
				throws IOException {
			try (InputStream in = JettyHotPath.class.getResourceAsStream("/io/github/qsbench/redis/" + name)) {
				return connection.sync().scriptLoad(in.readAllBytes());
			}
		}

		private static byte[] ascii(String text) {
			return text.getBytes(StandardCharsets.US_ASCII);
		}

		private static byte[] now() {
			return ascii(Long.toString(System.currentTimeMillis()));
		}

		/** The queue's keys as RedisQS names them, then {@code more}. */
		private static byte[][] keys(String queue, String... more) {
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
			this.redis
				.<List<Object>>evalsha(this.push, ScriptOutputType.MULTI, keys(queue, "probe:ids", "probe:queues"), now(),
						ZERO, ZERO, ascii("1000000"), ascii(queue), ascii("probe:pushed"), body)
				.whenComplete((reply, error) -> {
					if (error != null) {
						callback.failed(error);
					}
					else {
						pushed(response, callback, queue, (Long) reply.get(0));
					}
				});
		}

		@Override
		void poll(String queue, Response response, Callback callback) {
			this.redis
				.<List<Object>>evalsha(this.lease, ScriptOutputType.MULTI, keys(queue), now(), ascii("1"),
						ascii("30000"))
				.whenComplete((reply, error) -> {
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
				});
		}

		@Override
		void complete(String queue, String id, Response response, Callback callback) {
			this.redis
				.<List<Object>>evalsha(this.complete, ScriptOutputType.MULTI, keys(queue, "probe:queues"),
						ascii("complete"), now(), ascii("30000"), ascii(queue), ascii(id), ZERO)
				.whenComplete((reply, error) -> {
					if (error != null) {
						callback.failed(error);
					}
					else {
						completed(response, callback, (Long) reply.get(0) == 0);
					}
				});
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
