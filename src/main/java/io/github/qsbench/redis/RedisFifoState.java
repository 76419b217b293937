package io.github.qsbench.redis;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

import io.github.qsbench.application.Received;
import io.github.qsbench.application.Sent;
import io.github.qsbench.application.StoredMessage;
import io.github.qsbench.application.fifo.FifoSends;
import io.github.qsbench.application.fifo.FifoState;
import io.github.qsbench.core.Lease;
import io.github.qsbench.core.Message;

import org.springframework.data.redis.connection.ReturnType;

/**
 * FIFO queues' sequence numbers, deduplication window and receive attempts in Redis (see
 * {@link FifoState}), shared by every instance on the namespace. Per queue, on its slot:
 * {@code fifo:sequence} (a counter, {@code INCRBY} per send), {@code fifo:window} (a
 * hash: {@code d:<key>} holds a deduplication key's {@code id:sequence}, or {@code p}
 * while a send has claimed it and not settled; {@code a:<attempt>} {@code p} while the
 * first receive with that attempt id runs, then that receive's deliveries) and
 * {@code fifo:expiry} (a sorted set: each field of the window by when it leaves it, by
 * the service's clock, as in memory). A claim first removes what left the window, so the
 * window follows the service's clock; both keys also expire in Redis once a queue has
 * been quiet for longer than the window. A claim is one script ({@code fifo-claim.lua})
 * that claims nothing while any key is pending, a settlement and an attempt one more
 * ({@code fifo-settle.lua}): each atomic, so two instances never both claim one key. A
 * claim left pending by an instance that died before it settled lapses after
 * {@link #PENDING_MILLIS}; the commit of a send stalled longer than that is refused
 * ({@link RedisFifoSends}) and its messages discarded, so a retry that claimed the key
 * since sends it once.
 */
final class RedisFifoState implements FifoState {

	/** How long a claim stays pending before another send may claim the key. */
	static final long PENDING_MILLIS = 10_000;

	/** SQS's deduplication interval, as {@code FifoQueues} keeps it. */
	static final long WINDOW_MILLIS = 5 * 60_000;

	private static final LuaScript CLAIM = LuaScript.of(RedisFifoState.class, "fifo-claim", ReturnType.MULTI);

	private static final LuaScript SETTLE = LuaScript.of(RedisFifoState.class, "fifo-settle", ReturnType.INTEGER);

	private static final LuaScript ATTEMPTED = LuaScript.of(RedisFifoState.class, "fifo-attempted", ReturnType.VALUE);

	private static final List<String> ALL = List.of("fifo:sequence", "fifo:window", "fifo:expiry");

	/**
	 * The window and its expiry, which a send's commit writes too
	 * ({@link RedisFifoSends}).
	 */
	static final List<String> WINDOW = ALL.subList(1, 3);

	/** Those of a claim that records the send ({@link #claimRecording}). */
	private static final List<String> RECORDING = List.of(ALL.get(0), ALL.get(1), ALL.get(2),
			RedisFifoSends.KEYS.get(0));

	private final RedisStore store;

	RedisFifoState(RedisStore store) {
		this.store = store;
	}

	@Override
	public Claim claim(String queue, List<String> keys, long nowMillis) {
		return claim(queue, keys, nowMillis, this.store.queueKeys(queue, ALL), 0).claim();
	}

	/**
	 * A claim that also records the messages of the keys it claims as sends in progress
	 * ({@link RedisFifoSends#claim}), under the ids from {@code firstId} on, or, if it is
	 * 0, under ids the script takes from the counter (a standalone Redis): one script.
	 */
	FifoSends.Claimed claimRecording(String queue, List<String> keys, long nowMillis, long firstId) {
		return claim(queue, keys, nowMillis, this.store.queueKeys(queue, RECORDING, this.store.idsKey()), firstId);
	}

	private FifoSends.Claimed claim(String queue, List<String> keys, long nowMillis, List<byte[]> scriptKeys,
			long firstId) {
		byte[][] args = new byte[4 + keys.size()][];
		args[0] = ascii(nowMillis);
		args[1] = ascii(WINDOW_MILLIS);
		args[2] = ascii(PENDING_MILLIS);
		args[3] = ascii(firstId);
		for (int i = 0; i < keys.size(); i++) {
			args[4 + i] = RedisStore.utf8(keys.get(i));
		}
		List<Object> answer = this.store.run(CLAIM, scriptKeys, args);
		List<Sent> found = new ArrayList<>(keys.size());
		for (Object one : answer.subList(2, answer.size())) {
			String value = RedisStore.utf8((byte[]) one);
			if (value.isEmpty()) {
				found.add(null);
			}
			else if (value.equals("p")) {
				found.add(PENDING);
			}
			else {
				int colon = value.indexOf(':');
				found.add(new Sent(Long.parseLong(value.substring(0, colon)),
						Long.parseLong(value.substring(colon + 1))));
			}
		}
		return new FifoSends.Claimed(new Claim(found, number(answer.get(0))), number(answer.get(1)));
	}

	@Override
	public void settle(String queue, List<String> keys, List<Sent> sent, long sentMillis) {
		List<byte[]> args = new ArrayList<>(1 + 3 * keys.size());
		args.add(ascii(WINDOW_MILLIS + PENDING_MILLIS));
		for (int i = 0; i < keys.size(); i++) {
			Sent one = sent.get(i);
			args.add(RedisStore.utf8("d:" + keys.get(i)));
			args.add(RedisStore.utf8((one != null) ? one.id() + ":" + one.sequenceNumber() : ""));
			args.add(ascii(sentMillis + WINDOW_MILLIS));
		}
		this.store.run(SETTLE, this.store.queueKeys(queue, WINDOW), args.toArray(byte[][]::new));
	}

	@Override
	public List<Received> attempted(String queue, String attemptId, long nowMillis, long pendingUntilMillis) {
		byte[] encoded = this.store.run(ATTEMPTED, this.store.queueKeys(queue, WINDOW),
				RedisStore.utf8("a:" + attemptId), ascii(nowMillis), ascii(pendingUntilMillis),
				ascii(WINDOW_MILLIS + PENDING_MILLIS));
		if (encoded == null || encoded.length == 0) {
			return null;
		}
		return (encoded.length == 1 && encoded[0] == 'p') ? ATTEMPT_PENDING : decode(encoded);
	}

	@Override
	public void dropAttempt(String queue, String attemptId) {
		this.store.run(SETTLE, this.store.queueKeys(queue, WINDOW), ascii(WINDOW_MILLIS + PENDING_MILLIS),
				RedisStore.utf8("a:" + attemptId), new byte[0], ascii(0));
	}

	@Override
	public void attempt(String queue, String attemptId, List<Received> received, long atMillis) {
		this.store.run(SETTLE, this.store.queueKeys(queue, WINDOW), ascii(WINDOW_MILLIS + PENDING_MILLIS),
				RedisStore.utf8("a:" + attemptId), encode(received), ascii(atMillis + WINDOW_MILLIS));
	}

	/** Forgets the sends' records too ({@link RedisFifoSends}). */
	@Override
	public void forget(String queue) {
		List<String> suffixes = new ArrayList<>(ALL);
		suffixes.addAll(RedisFifoSends.KEYS);
		byte[][] keys = this.store.queueKeys(queue, suffixes).toArray(byte[][]::new);
		this.store.call(redis -> redis.keyCommands().del(keys));
	}

	/** Deliveries as the attempt keeps them: per message its id, numbers and body. */
	private static byte[] encode(List<Received> received) {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		try (DataOutputStream out = new DataOutputStream(bytes)) {
			out.writeInt(received.size());
			for (Received one : received) {
				Message message = one.lease().message();
				out.writeLong(message.id());
				out.writeInt(one.delivery());
				out.writeInt(message.deliveries());
				out.writeInt(message.body().length);
				out.write(message.body());
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return bytes.toByteArray();
	}

	private static List<Received> decode(byte[] encoded) {
		try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(encoded))) {
			int count = in.readInt();
			List<Received> received = new ArrayList<>(count);
			for (int i = 0; i < count; i++) {
				long id = in.readLong();
				int delivery = in.readInt();
				int deliveries = in.readInt();
				byte[] body = in.readNBytes(in.readInt());
				received.add(new Received(new Lease(new Attempted(id, body, deliveries), delivery),
						StoredMessage.read(body)));
			}
			return received;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static long number(Object answer) {
		return Long.parseLong(RedisStore.utf8((byte[]) answer));
	}

	private static byte[] ascii(long number) {
		return RedisStore.utf8(Long.toString(number));
	}

	/** A message as an attempt remembered it. */
	private record Attempted(long id, byte[] body, int deliveries) implements Message {
	}

}
