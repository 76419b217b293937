import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;

import static org.eclipse.jetty.util.thread.Invocable.InvocationType.NON_BLOCKING;

import io.github.qsbench.core.Completion;
import io.github.qsbench.core.Eviction;
import io.github.qsbench.core.Lease;
import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.strategy.Strategy;

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
 * headers, JSON), on the service's default strategy's core, without the service's
 * application layer, metrics or limits. Two ways: {@code core}, a Jetty core handler that
 * never blocks, which Jetty runs on the thread that read the request (no hand-off to a
 * worker: the path issue 48's profile argues for); {@code servlet}, the same routes as a
 * servlet filter, on virtual threads, as the service's own filter runs on Tomcat.
 * scripts/bench/jetty-hot-path.sh runs it beside the service and beanstalkd; the figures
 * are in docs/request-path-profile.md.
 *
 * <p>
 * A third way, {@code redis:<port>}: the same routes on the redis strategy's Lua scripts
 * through Lettuce's asynchronous API, answered from its callback (issue 49: what the
 * service on Redis could reach when no thread waits for Redis).
 *
 * <p>
 * Arguments: port, selector threads, {@code core}, {@code servlet} or
 * {@code redis:<port>}, and {@code virtual} for virtual threads.
 */
public final class JettyHotPath {

	/**
	 * The same three routes on the redis strategy's own Lua scripts (push.lua, lease.lua,
	 * complete.lua, called with the keys and arguments RedisQS gives them, as
	 * RequestPathLoad's redis-lua mode does), through Lettuce's asynchronous API: the
	 * handler sends the script and returns, and the answer is written from Lettuce's
	 * callback, so no thread waits for Redis.
	 */
	static final class RedisHotPath extends Handler.Abstract.NonBlocking {

		private final io.lettuce.core.api.async.RedisAsyncCommands<byte[], byte[]> redis;

		private final byte[] push;

		private final byte[] lease;

		private final byte[] complete;

		RedisHotPath(int redisPort) throws java.io.IOException {
			io.lettuce.core.RedisClient client = io.lettuce.core.RedisClient.create("redis://127.0.0.1:" + redisPort);
			io.lettuce.core.api.StatefulRedisConnection<byte[], byte[]> connection = client
				.connect(io.lettuce.core.codec.ByteArrayCodec.INSTANCE);
			this.redis = connection.async();
			this.push = load(connection, "push.lua");
			this.lease = load(connection, "lease.lua");
			this.complete = load(connection, "complete.lua");
		}

		private static byte[] load(io.lettuce.core.api.StatefulRedisConnection<byte[], byte[]> connection,
				String name) throws java.io.IOException {
			try (java.io.InputStream in = JettyHotPath.class.getResourceAsStream("/io/github/qsbench/redis/" + name)) {
				return connection.sync().scriptLoad(in.readAllBytes()).getBytes(StandardCharsets.US_ASCII);
			}
		}

		private static byte[] ascii(String text) {
			return text.getBytes(StandardCharsets.US_ASCII);
		}

		private static byte[][] keys(String queue, boolean plus) {
			String prefix = "probe:{" + queue + "}:";
			List<byte[]> keys = new java.util.ArrayList<>();
			for (String key : new String[] { "ready", "leased", "delayed", "bodies", "deliveries" }) {
				keys.add(ascii(prefix + key));
			}
			if (plus) {
				keys.add(ascii("probe:ids"));
				keys.add(ascii("probe:queues"));
			}
			return keys.toArray(new byte[0][]);
		}

		@Override
		public boolean handle(Request request, Response response, Callback callback) {
			String path = request.getHttpURI().getPath();
			if (!path.startsWith("/queues/")) {
				return false;
			}
			int nameEnd = path.indexOf('/', 8);
			String queue = path.substring(8, nameEnd);
			String method = request.getMethod();
			byte[] now = ascii(Long.toString(System.currentTimeMillis()));
			if (method.equals("POST")) {
				Content.Source.asByteArrayAsync(request, MAX_BODY, Promise.Invocable.from(NON_BLOCKING, (bytes, failure) -> {
					if (failure != null) {
						Response.writeError(request, response, callback, failure);
						return;
					}
					this.redis
						.<List<Object>>evalsha(new String(this.push, StandardCharsets.US_ASCII),
								io.lettuce.core.ScriptOutputType.MULTI, keys(queue, true), now, ascii("0"), ascii("0"),
								ascii("1000000"), ascii(queue), ascii("probe:pushed"), bytes)
						.whenComplete((reply, error) -> {
							if (error != null) {
								Response.writeError(request, response, callback, error);
								return;
							}
							long id = (Long) reply.get(0);
							response.setStatus(HttpStatus.CREATED_201);
							response.getHeaders().put(HttpHeader.LOCATION, "/queues/" + queue + "/messages/" + id);
							response.getHeaders().add(JSON);
							byte[] json = ("{\"id\":" + id + ",\"queue\":\"" + queue + "\"}")
								.getBytes(StandardCharsets.UTF_8);
							response.getHeaders().put(HttpHeader.CONTENT_LENGTH, json.length);
							response.write(true, ByteBuffer.wrap(json), callback);
						});
				}));
				return true;
			}
			if (method.equals("GET")) {
				this.redis
					.<List<Object>>evalsha(new String(this.lease, StandardCharsets.US_ASCII),
							io.lettuce.core.ScriptOutputType.MULTI, keys(queue, false), now, ascii("1"), ascii("30000"))
					.whenComplete((reply, error) -> {
						if (error != null) {
							Response.writeError(request, response, callback, error);
							return;
						}
						response.getHeaders().add(NO_STORE);
						if (reply.isEmpty()) {
							response.setStatus(HttpStatus.NO_CONTENT_204);
							response.write(true, null, callback);
							return;
						}
						long id = (Long) reply.get(0);
						long delivery = (Long) reply.get(1);
						String token = id + "." + delivery;
						response.getHeaders().put(HttpHeader.ETAG, "\"" + token + "\"");
						response.getHeaders().add(JSON);
						byte[] json = ("{\"id\":" + id + ",\"queue\":\"" + queue + "\",\"body\":\""
								+ new String((byte[]) reply.get(2), StandardCharsets.UTF_8) + "\",\"deliveries\":"
								+ delivery + ",\"lease\":\"" + token + "\"}")
							.getBytes(StandardCharsets.UTF_8);
						response.getHeaders().put(HttpHeader.CONTENT_LENGTH, json.length);
						response.write(true, ByteBuffer.wrap(json), callback);
					});
				return true;
			}
			if (method.equals("DELETE")) {
				String id = path.substring(nameEnd + 10);
				byte[][] keys = java.util.Arrays.copyOf(keys(queue, false), 6);
				keys[5] = ascii("probe:queues");
				this.redis
					.<List<Object>>evalsha(new String(this.complete, StandardCharsets.US_ASCII),
							io.lettuce.core.ScriptOutputType.MULTI, keys, ascii("complete"), now, ascii("30000"),
							ascii(queue), ascii(id), ascii("0"))
					.whenComplete((reply, error) -> {
						if (error != null) {
							Response.writeError(request, response, callback, error);
							return;
						}
						response.setStatus(((Long) reply.get(0) == 0) ? HttpStatus.NO_CONTENT_204 : HttpStatus.NOT_FOUND_404);
						response.write(true, null, callback);
					});
				return true;
			}
			return false;
		}

	}

	/** The same three routes as a servlet filter (blocking servlet API), as the service's is. */
	static final class ServletHotPath extends jakarta.servlet.http.HttpFilter {

		private final QueueServiceCore core;

		ServletHotPath(QueueServiceCore core) {
			this.core = core;
		}

		@Override
		protected void doFilter(jakarta.servlet.http.HttpServletRequest request,
				jakarta.servlet.http.HttpServletResponse response, jakarta.servlet.FilterChain chain)
				throws java.io.IOException, jakarta.servlet.ServletException {
			String path = request.getRequestURI();
			int nameEnd = path.indexOf('/', 8);
			String queue = path.substring(8, nameEnd);
			String method = request.getMethod();
			if (method.equals("POST")) {
				byte[] bytes = request.getInputStream().readAllBytes();
				long id = this.core.pushAll(queue, List.of(bytes)).get(0).id();
				response.setStatus(201);
				response.setHeader("Location", "/queues/" + queue + "/messages/" + id);
				response.setContentType("application/json");
				byte[] json = ("{\"id\":" + id + ",\"queue\":\"" + queue + "\"}").getBytes(StandardCharsets.UTF_8);
				response.setContentLength(json.length);
				response.getOutputStream().write(json);
				return;
			}
			if (method.equals("GET")) {
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
				response.setContentType("application/json");
				byte[] json = ("{\"id\":" + id + ",\"queue\":\"" + queue + "\",\"body\":\""
						+ new String(lease.message().body(), StandardCharsets.UTF_8) + "\",\"deliveries\":"
						+ lease.delivery() + ",\"lease\":\"" + token + "\"}")
					.getBytes(StandardCharsets.UTF_8);
				response.setContentLength(json.length);
				response.getOutputStream().write(json);
				return;
			}
			long id = Long.parseLong(path, nameEnd + 10, path.length(), 10);
			Completion done = this.core.complete(queue, id);
			response.setStatus((done == Completion.COMPLETED) ? 204 : 404);
		}

	}

	/** The service's limit on a message body (256 KiB). */
	static final int MAX_BODY = 262_144;

	static final HttpField JSON = new PreEncodedHttpField(HttpHeader.CONTENT_TYPE, "application/json");

	static final HttpField NO_STORE = new PreEncodedHttpField(HttpHeader.CACHE_CONTROL, "no-store");

	public static void main(String[] args) throws Exception {
		int port = Integer.parseInt(args[0]);
		int selectors = (args.length > 1) ? Integer.parseInt(args[1]) : 1;
		QueueServiceCore core = Strategy.CONCURRENT_ATOMIC
			.create(new QueueOptions(Duration.ofSeconds(30), Eviction.LAZY, InstantSource.system(), true));
		QueuedThreadPool pool = new QueuedThreadPool(16, 4);
		String mode = (args.length > 2) ? args[2] : "core";
		if (args.length > 3 && args[3].equals("virtual")) {
			pool.setVirtualThreadsExecutor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
		}
		Server server = new Server(pool);
		HttpConfiguration config = new HttpConfiguration();
		config.setSendServerVersion(false);
		ServerConnector connector = new ServerConnector(server, 1, selectors, new HttpConnectionFactory(config));
		connector.setHost("127.0.0.1");
		connector.setPort(port);
		server.addConnector(connector);
		if (mode.startsWith("redis:")) {
			server.setHandler(new RedisHotPath(Integer.parseInt(mode.substring(6))));
			server.start();
			System.out.println("jetty redis hot path up at " + port);
			server.join();
			return;
		}
		if (mode.equals("servlet")) {
			org.eclipse.jetty.ee11.servlet.ServletContextHandler context = new org.eclipse.jetty.ee11.servlet.ServletContextHandler();
			context.addFilter(new org.eclipse.jetty.ee11.servlet.FilterHolder(new ServletHotPath(core)), "/*",
					java.util.EnumSet.of(jakarta.servlet.DispatcherType.REQUEST));
			server.setHandler(context);
			server.start();
			System.out.println("jetty servlet hot path up at " + port);
			server.join();
			return;
		}
		server.setHandler(new Handler.Abstract.NonBlocking() {
			@Override
			public boolean handle(Request request, Response response, Callback callback) {
				String path = request.getHttpURI().getPath();
				if (!path.startsWith("/queues/")) {
					return false;
				}
				int nameEnd = path.indexOf('/', 8);
				String queue = path.substring(8, nameEnd);
				String method = request.getMethod();
				if (method.equals("POST")) {
					Content.Source.asByteArrayAsync(request, MAX_BODY, Promise.Invocable.from(NON_BLOCKING, (bytes, failure) -> {
						if (failure != null) {
							Response.writeError(request, response, callback, failure);
							return;
						}
						long id = core.pushAll(queue, List.of(bytes)).get(0).id();
						response.setStatus(HttpStatus.CREATED_201);
						response.getHeaders().put(HttpHeader.LOCATION, "/queues/" + queue + "/messages/" + id);
						response.getHeaders().add(JSON);
						byte[] json = ("{\"id\":" + id + ",\"queue\":\"" + queue + "\"}")
							.getBytes(StandardCharsets.UTF_8);
						response.getHeaders().put(HttpHeader.CONTENT_LENGTH, json.length);
						response.write(true, ByteBuffer.wrap(json), callback);
					}));
					return true;
				}
				if (method.equals("GET")) {
					List<Lease> leases = core.lease(queue, 1);
					response.getHeaders().add(NO_STORE);
					if (leases.isEmpty()) {
						response.setStatus(HttpStatus.NO_CONTENT_204);
						response.write(true, null, callback);
						return true;
					}
					Lease lease = leases.get(0);
					long id = lease.message().id();
					String token = id + "." + lease.delivery();
					response.getHeaders().put(HttpHeader.ETAG, "\"" + token + "\"");
					response.getHeaders().add(JSON);
					byte[] json = ("{\"id\":" + id + ",\"queue\":\"" + queue + "\",\"body\":\""
							+ new String(lease.message().body(), StandardCharsets.UTF_8) + "\",\"deliveries\":"
							+ lease.delivery() + ",\"lease\":\"" + token + "\"}")
						.getBytes(StandardCharsets.UTF_8);
					response.getHeaders().put(HttpHeader.CONTENT_LENGTH, json.length);
					response.write(true, ByteBuffer.wrap(json), callback);
					return true;
				}
				if (method.equals("DELETE")) {
					long id = Long.parseLong(path, nameEnd + 10, path.length(), 10);
					Completion done = core.complete(queue, id);
					response.setStatus((done == Completion.COMPLETED) ? HttpStatus.NO_CONTENT_204 : HttpStatus.NOT_FOUND_404);
					response.write(true, null, callback);
					return true;
				}
				return false;
			}
		});
		server.start();
		System.out.println("jetty hot path up at " + port + " pid " + ProcessHandle.current().pid());
		server.join();
	}

}
