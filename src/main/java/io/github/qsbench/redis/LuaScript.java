package io.github.qsbench.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.github.qsbench.core.Capacity;
import io.github.qsbench.core.CapacityExceededException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.ReturnType;

/**
 * A Lua script read once from the classpath, with its SHA-1, by which Redis knows it: run
 * by that digest, its source is sent only when Redis does not know it (first use, or a
 * restarted Redis), so one round trip either way but the first.
 */
public final class LuaScript {

	private final byte[] source;

	private final String sha1;

	private final ReturnType type;

	/** {@link #type} as Lettuce names it, for {@link #runAsync}. */
	private final ScriptOutputType output;

	private LuaScript(byte[] source, ReturnType type) {
		this.source = source;
		this.sha1 = sha1(source);
		this.type = type;
		this.output = ScriptOutputType.valueOf(type.name());
	}

	/** The script {@code name.lua} in the package of {@code owner}. */
	public static LuaScript of(Class<?> owner, String name, ReturnType type) {
		return new LuaScript(read(owner, name), type);
	}

	/**
	 * The script {@code name.lua} in the package of {@code owner}, which runs other
	 * scripts there in the same step: each of {@code parts} ({@code part.lua}) comes
	 * before it as a local function named as the part ({@code -} read as {@code _}) whose
	 * parameters are {@code KEYS} and {@code ARGV}, so that each part runs unchanged on
	 * the keys and arguments the script hands it.
	 */
	static LuaScript composed(Class<?> owner, String name, ReturnType type, String... parts) {
		StringBuilder source = new StringBuilder();
		for (String part : parts) {
			source.append("local function ")
				.append(part.replace('-', '_'))
				.append("(KEYS, ARGV)\n")
				.append(new String(read(owner, part), StandardCharsets.UTF_8))
				.append("\nend\n");
		}
		source.append(new String(read(owner, name), StandardCharsets.UTF_8));
		return new LuaScript(source.toString().getBytes(StandardCharsets.UTF_8), type);
	}

	private static byte[] read(Class<?> owner, String name) {
		try (InputStream in = owner.getResourceAsStream(name + ".lua")) {
			if (in == null) {
				throw new IllegalStateException("no script " + name + ".lua beside " + owner.getName());
			}
			return in.readAllBytes();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("the script " + name + ".lua", ex);
		}
	}

	/**
	 * Runs the script on {@code redis}: {@code EVALSHA}, then {@code EVAL} on NOSCRIPT.
	 */
	public <T> T run(RedisConnection redis, List<byte[]> keys, byte[]... args) {
		byte[][] keysAndArgs = new byte[keys.size() + args.length][];
		for (int i = 0; i < keys.size(); i++) {
			keysAndArgs[i] = keys.get(i);
		}
		System.arraycopy(args, 0, keysAndArgs, keys.size(), args.length);
		try {
			return redis.scriptingCommands().evalSha(this.sha1, this.type, keys.size(), keysAndArgs);
		}
		catch (DataAccessException ex) {
			if (!said(ex, "NOSCRIPT")) {
				throw ex;
			}
			return redis.scriptingCommands().eval(this.source, this.type, keys.size(), keysAndArgs);
		}
	}

	/**
	 * Runs the script as {@link #run} does, without waiting: {@code EVALSHA}, then
	 * {@code EVAL} on NOSCRIPT; the stage completes on the connection's event loop, with
	 * Lettuce's own failure if it fails.
	 */
	<T> CompletableFuture<T> runAsync(RedisClusterAsyncCommands<byte[], byte[]> redis, List<byte[]> keys,
			byte[]... args) {
		byte[][] keyArray = keys.toArray(new byte[0][]);
		return redis.<T>evalsha(this.sha1, this.output, keyArray, args)
			.toCompletableFuture()
			.exceptionallyCompose(failure -> said(failure, "NOSCRIPT")
					? redis.<T>eval(this.source, this.output, keyArray, args).toCompletableFuture()
					: CompletableFuture.failedFuture(failure));
	}

	/**
	 * Whether Redis's error, wrapped in {@code ex}, is that code (Redis's own, such as
	 * {@code OOM}, or one a script raised): the error begins with it, or, as Redis before
	 * 7.0 reports an error of a command a script called, it follows the script's location
	 * ({@code "ERR Error running script ...: @user_script:12: -OOM ..."}).
	 */
	public static boolean said(Throwable ex, String code) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			String message = String.valueOf(cause.getMessage());
			if (message.startsWith(code) || message.contains(": -" + code + " ")) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Redis's refusal for memory ("OOM": {@code maxmemory} reached with
	 * {@code noeviction}) as a reached cap, which the API answers {@code 429}; any other
	 * failure unchanged.
	 */
	public static RuntimeException refusal(DataAccessException ex) {
		return said(ex, "OOM") ? new CapacityExceededException(Capacity.Limit.STORE_MEMORY, 0) : ex;
	}

	private static String sha1(byte[] source) {
		try {
			return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(source));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("every JDK has SHA-1", ex);
		}
	}

}
