import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.EventLoopGroupProvider;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.concurrent.EventExecutorGroup;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.netty.util.concurrent.SucceededFuture;

/**
 * A measurement probe, not the product (issue 49's first bar): the same three routes and
 * scripts as {@link JettyHotPath}'s redis ways, served by Netty's HTTP codec, with Lettuce
 * (the service's Redis client) either on the HTTP server's own event loops or on its own:
 * <ul>
 * <li>{@code netty-shared:<port>}: Lettuce is given the server's event loop group
 * ({@link ClientResources}' {@link EventLoopGroupProvider}) and opens connections until
 * each loop has one; a request's scripts go on the connection of the loop that read it,
 * so writing the command, reading the reply and writing the answer are that one thread's
 * work, as in {@code redis-inline}, but with a well-kept client (authentication, TLS,
 * reconnection, timeouts) rather than the probe's own RESP;
 * <li>{@code netty-apart:<port>}: Lettuce on its own event loops and one shared
 * connection, as the service uses it: every request handed from the server's loop to
 * Lettuce's and its answer back, as in {@code redis} (the Jetty async probe).
 * </ul>
 * Run through {@link JettyHotPath}'s main with the way as its third argument; the second
 * is the number of the server's event loops.
 */
final class NettyLoop {

	private NettyLoop() {
	}

	static void serve(int port, int loops, String way) throws Exception {
		int redisPort = Integer.parseInt(way.substring(way.indexOf(':') + 1));
		boolean shared = way.startsWith("netty-shared:");
		EventLoopGroup group = new NioEventLoopGroup(loops);
		RedisURI uri = RedisURI.create("127.0.0.1", redisPort);
		RedisClient client = RedisClient.create(shared ? ClientResources.builder()
			.eventLoopGroupProvider(new Given(group, loops))
			.build() : ClientResources.create(), uri);
		Scripts scripts = new Scripts(client.connect(ByteArrayCodec.INSTANCE));
		Map<Thread, RedisAsyncCommands<byte[], byte[]>> byLoop = new ConcurrentHashMap<>();
		if (shared) {
			// a connection's channel is registered on the group's next loop: open them
			// until each loop has one, and keep one a loop (the first whose reply it ran)
			for (int i = 0; byLoop.size() < loops; i++) {
				if (i > 8 * loops) {
					throw new IllegalStateException("no connection on each of " + loops + " loops");
				}
				StatefulRedisConnection<byte[], byte[]> connection = client.connect(ByteArrayCodec.INSTANCE);
				RedisAsyncCommands<byte[], byte[]> redis = connection.async();
				Thread loop = redis.ping().thenApply(pong -> Thread.currentThread()).toCompletableFuture().get();
				if (byLoop.putIfAbsent(loop, redis) != null) {
					connection.close();
				}
			}
		}
		RedisAsyncCommands<byte[], byte[]> apart = scripts.connection.async();
		new ServerBootstrap().group(group)
			.channel(NioServerSocketChannel.class)
			.childOption(ChannelOption.TCP_NODELAY, true)
			.childHandler(new ChannelInitializer<SocketChannel>() {
				@Override
				protected void initChannel(SocketChannel channel) {
					channel.pipeline()
						.addLast(new HttpServerCodec(), new HttpObjectAggregator(JettyHotPath.MAX_BODY),
								new Routes(scripts, shared ? byLoop : null, apart));
				}
			})
			.bind("127.0.0.1", port)
			.sync();
		System.out.println("probe (" + way + ", " + loops + " loops) up at " + port);
		Thread.currentThread().join();
	}

	/** The server's group, given to Lettuce, which must not shut it down. */
	record Given(EventLoopGroup group, int size) implements EventLoopGroupProvider {

		@Override
		@SuppressWarnings("unchecked")
		public <T extends EventLoopGroup> T allocate(Class<T> type) {
			return (T) this.group;
		}

		@Override
		public int threadPoolSize() {
			return this.size;
		}

		@Override
		public Future<Boolean> release(EventExecutorGroup eventLoopGroup, long quietPeriod, long timeout,
				TimeUnit unit) {
			return new SucceededFuture<>(ImmediateEventExecutor.INSTANCE, true);
		}

		@Override
		public Future<Boolean> shutdown(long quietPeriod, long timeout, TimeUnit unit) {
			return new SucceededFuture<>(ImmediateEventExecutor.INSTANCE, true);
		}

	}

	/** The strategy's three scripts, loaded once. */
	static final class Scripts {

		final StatefulRedisConnection<byte[], byte[]> connection;

		final String push;

		final String lease;

		final String complete;

		Scripts(StatefulRedisConnection<byte[], byte[]> connection) throws IOException {
			this.connection = connection;
			this.push = load("push.lua");
			this.lease = load("lease.lua");
			this.complete = load("complete.lua");
		}

		private String load(String name) throws IOException {
			try (InputStream in = NettyLoop.class.getResourceAsStream("/io/github/qsbench/redis/" + name)) {
				return this.connection.sync().scriptLoad(in.readAllBytes());
			}
		}

	}

	/**
	 * Push, poll and complete, with the keys and arguments of {@link JettyHotPath.OnRedis},
	 * answered from the reply's callback as the service answers them.
	 */
	static final class Routes extends SimpleChannelInboundHandler<FullHttpRequest> {

		private static final byte[] ZERO = JettyHotPath.ascii("0");

		private static final String QUEUES = "/queues/";

		private static final String MESSAGES = "/messages/";

		private final Scripts scripts;

		/** The connection of each of the server's loops, or {@code null}: {@link #apart}. */
		private final Map<Thread, RedisAsyncCommands<byte[], byte[]>> byLoop;

		private final RedisAsyncCommands<byte[], byte[]> apart;

		Routes(Scripts scripts, Map<Thread, RedisAsyncCommands<byte[], byte[]>> byLoop,
				RedisAsyncCommands<byte[], byte[]> apart) {
			this.scripts = scripts;
			this.byLoop = byLoop;
			this.apart = apart;
		}

		@Override
		protected void channelRead0(ChannelHandlerContext context, FullHttpRequest request) {
			boolean keepAlive = HttpUtil.isKeepAlive(request);
			String path = request.uri();
			int query = path.indexOf('?');
			if (query >= 0) {
				path = path.substring(0, query);
			}
			if (!path.startsWith(QUEUES)) {
				answer(context, keepAlive, HttpResponseStatus.NOT_FOUND, null);
				return;
			}
			int nameEnd = path.indexOf('/', QUEUES.length());
			String queue = path.substring(QUEUES.length(), nameEnd);
			RedisAsyncCommands<byte[], byte[]> redis = (this.byLoop != null)
					? this.byLoop.get(Thread.currentThread()) : this.apart;
			HttpMethod method = request.method();
			if (method.equals(HttpMethod.POST)) {
				byte[] body = new byte[request.content().readableBytes()];
				request.content().readBytes(body);
				run(redis, this.scripts.push, JettyHotPath.OnRedis.keys(queue, "probe:ids", "probe:queues"), now(),
						ZERO, ZERO, JettyHotPath.ascii("1000000"), JettyHotPath.ascii(queue),
						JettyHotPath.ascii("probe:pushed"), body)
					.whenComplete((reply, error) -> {
						if (error != null) {
							answer(context, keepAlive, HttpResponseStatus.SERVICE_UNAVAILABLE, null);
							return;
						}
						long id = (Long) reply.get(0);
						FullHttpResponse created = response(HttpResponseStatus.CREATED,
								"{\"id\":" + id + ",\"queue\":\"" + queue + "\"}");
						created.headers().set(HttpHeaderNames.LOCATION, "/queues/" + queue + "/messages/" + id);
						send(context, keepAlive, created);
					});
			}
			else if (method.equals(HttpMethod.GET)) {
				long now = System.currentTimeMillis();
				run(redis, this.scripts.lease, JettyHotPath.OnRedis.keys(queue),
						JettyHotPath.ascii(Long.toString(now)), JettyHotPath.ascii("1"),
						JettyHotPath.ascii(Long.toString(now + 30_000)))
					.whenComplete((reply, error) -> {
						if (error != null) {
							answer(context, keepAlive, HttpResponseStatus.SERVICE_UNAVAILABLE, null);
						}
						else if (reply.isEmpty()) {
							FullHttpResponse none = response(HttpResponseStatus.NO_CONTENT, null);
							none.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-store");
							send(context, keepAlive, none);
						}
						else {
							long id = (Long) reply.get(0);
							long delivery = (Long) reply.get(1);
							String token = id + "." + delivery;
							FullHttpResponse leased = response(HttpResponseStatus.OK, "{\"id\":" + id
									+ ",\"queue\":\"" + queue + "\",\"body\":\""
									+ new String((byte[]) reply.get(2), StandardCharsets.UTF_8) + "\",\"deliveries\":"
									+ delivery + ",\"lease\":\"" + token + "\"}");
							leased.headers()
								.set(HttpHeaderNames.CACHE_CONTROL, "no-store")
								.set(HttpHeaderNames.ETAG, "\"" + token + "\"");
							send(context, keepAlive, leased);
						}
					});
			}
			else if (method.equals(HttpMethod.DELETE)) {
				byte[] id = JettyHotPath.ascii(path.substring(nameEnd + MESSAGES.length()));
				run(redis, this.scripts.complete, JettyHotPath.OnRedis.keys(queue, "probe:queues"),
						JettyHotPath.ascii("complete"), now(), JettyHotPath.ascii("30000"), id, ZERO)
					.whenComplete((reply, error) -> answer(context, keepAlive,
							(error != null) ? HttpResponseStatus.SERVICE_UNAVAILABLE
									: ((Long) reply.get(0) == 0) ? HttpResponseStatus.NO_CONTENT
											: HttpResponseStatus.NOT_FOUND,
							null));
			}
			else {
				answer(context, keepAlive, HttpResponseStatus.METHOD_NOT_ALLOWED, null);
			}
		}

		private static CompletionStage<List<Object>> run(RedisAsyncCommands<byte[], byte[]> redis, String sha,
				byte[][] keys, byte[]... args) {
			return redis.<List<Object>>evalsha(sha, ScriptOutputType.MULTI, keys, args);
		}

		private static byte[] now() {
			return JettyHotPath.ascii(Long.toString(System.currentTimeMillis()));
		}

		private static FullHttpResponse response(HttpResponseStatus status, String json) {
			ByteBuf content = (json != null) ? Unpooled.wrappedBuffer(json.getBytes(StandardCharsets.UTF_8))
					: Unpooled.EMPTY_BUFFER;
			FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, content);
			if (json != null) {
				response.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON);
			}
			return response;
		}

		private static void answer(ChannelHandlerContext context, boolean keepAlive, HttpResponseStatus status,
				String json) {
			send(context, keepAlive, response(status, json));
		}

		/** Written on the context's loop: at once when the reply came in on it. */
		private static void send(ChannelHandlerContext context, boolean keepAlive, FullHttpResponse response) {
			if (response.status() != HttpResponseStatus.NO_CONTENT) {
				HttpUtil.setContentLength(response, response.content().readableBytes());
			}
			HttpUtil.setKeepAlive(response, keepAlive);
			context.writeAndFlush(response);
		}

	}

}
