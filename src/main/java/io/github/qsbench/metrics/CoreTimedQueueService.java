package io.github.qsbench.metrics;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;

import io.github.qsbench.core.AsyncCore;
import io.github.qsbench.core.ByIdOperation;
import io.github.qsbench.core.ByIdOutcome;
import io.github.qsbench.core.Capacity;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.CompletionFence;
import io.github.qsbench.core.Lease;
import io.github.qsbench.core.Message;
import io.github.qsbench.core.Peeked;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.QueueStats;

/**
 * {@code qs.core.seconds} (Prometheus {@code qs_core_seconds_total{operation}}): the time
 * the service's threads spent inside calls into the queue core, per operation. Set beside
 * {@code http_server_requests_seconds_sum} it is the core's share of a request, the part
 * of the request that the strategy decides; beside the messages moved, the core's time
 * per message.
 *
 * <p>
 * It wraps the strategy from above: the service's configuration hands it to the
 * application layer as the core to call ({@code io.github.qsbench.application}), and each
 * call costs two {@link System#nanoTime()} reads and one {@link LongAdder#add} (striped,
 * so request threads do not contend on one counter), no allocation on the hot paths (the
 * rest may allocate one small lambda beside what they build). The core itself stays
 * uninstrumented, so JMH measures what it always did. The time includes whatever the call
 * waited for a strategy's lock, which is why {@code qs_contention_seconds_total} reads
 * beside it: contention is a part of this. The lock-free reads the gauges make
 * ({@link #queueCount()}, {@link #heldCount()}, {@link #capacity()}) are not timed: they
 * are not requests' work.
 *
 * <p>
 * Off with {@code qs.metrics.core-time.enabled=false}, where the application layer calls
 * the strategy directly (see docs/metrics.md#core-time for what the meter costs).
 */
public final class CoreTimedQueueService implements QueueServiceCore {

	/** The core's operations, each the value of the meter's {@code operation} tag. */
	enum Operation {

		PUSH, PUSH_BATCH, POLL, LEASE, COMPLETE, COMPLETE_BATCH, QUEUES, QUEUE, HAS_READY, PEEK;

		String tag() {
			return tag(this);
		}

		/** The tag of an operation, also of each {@link ByIdOperation}. */
		static String tag(Enum<?> operation) {
			return operation.name().toLowerCase(Locale.ROOT);
		}

	}

	private final QueueServiceCore core;

	private final LongAdder[] nanos = new LongAdder[Operation.values().length];

	/**
	 * Each {@link ByIdOperation}'s, by its ordinal: a new one is timed with no change.
	 */
	private final LongAdder[] byIdNanos = new LongAdder[ByIdOperation.values().length];

	private final LongSupplier ticker;

	public CoreTimedQueueService(QueueServiceCore core, MeterRegistry registry) {
		this(core, registry, System::nanoTime);
	}

	/**
	 * @param ticker nanoseconds, {@link System#nanoTime()} but where a test moves time
	 */
	CoreTimedQueueService(QueueServiceCore core, MeterRegistry registry, LongSupplier ticker) {
		this.core = core;
		this.ticker = ticker;
		for (Operation operation : Operation.values()) {
			this.nanos[operation.ordinal()] = register(registry, operation);
		}
		for (ByIdOperation operation : ByIdOperation.values()) {
			this.byIdNanos[operation.ordinal()] = register(registry, operation);
		}
	}

	private static LongAdder register(MeterRegistry registry, Enum<?> operation) {
		LongAdder adder = new LongAdder();
		FunctionCounter.builder("qs.core", adder, (spent) -> spent.sum() / 1e9)
			.description("Time spent inside calls into the queue core, measured around each call by the layer "
					+ "above it (includes waits for the strategy's locks)")
			.baseUnit("seconds")
			.tag("operation", Operation.tag(operation))
			.register(registry);
		return adder;
	}

	private void spent(Operation operation, long start) {
		this.nanos[operation.ordinal()].add(this.ticker.getAsLong() - start);
	}

	/**
	 * Times one call. Its capturing lambda may allocate, so the hot paths (push, poll,
	 * lease, complete, which JMH measures, and a long poll's has-ready) write this
	 * try/finally out instead.
	 */
	private <R> R timed(Operation operation, Supplier<R> call) {
		long start = this.ticker.getAsLong();
		try {
			return call.get();
		}
		finally {
			spent(operation, start);
		}
	}

	/** Seconds spent in one operation so far. */
	double seconds(Operation operation) {
		return this.nanos[operation.ordinal()].sum() / 1e9;
	}

	/** Seconds spent in one operation by id so far. */
	double seconds(ByIdOperation operation) {
		return this.byIdNanos[operation.ordinal()].sum() / 1e9;
	}

	@Override
	public Message push(String queue, byte[] body) {
		long start = this.ticker.getAsLong();
		try {
			return this.core.push(queue, body);
		}
		finally {
			spent(Operation.PUSH, start);
		}
	}

	@Override
	public List<Message> pushAll(String queue, List<byte[]> bodies) {
		return timed(Operation.PUSH_BATCH, () -> this.core.pushAll(queue, bodies));
	}

	@Override
	public List<Message> pushAll(String queue, List<byte[]> bodies, long delayMillis) {
		return timed(Operation.PUSH_BATCH, () -> this.core.pushAll(queue, bodies, delayMillis));
	}

	/** Not timed: one counter's increment, no request's work of its own. */
	@Override
	public long reserveIds(int count) {
		return this.core.reserveIds(count);
	}

	@Override
	public List<Message> pushAs(String queue, long firstId, List<byte[]> bodies, long delayMillis) {
		return timed((bodies.size() == 1) ? Operation.PUSH : Operation.PUSH_BATCH,
				() -> this.core.pushAs(queue, firstId, bodies, delayMillis));
	}

	/** Timed under the operation's own tag, written out as the hot paths are. */
	@Override
	public ByIdOutcome byId(String queue, long id, ByIdOperation operation, int delivery, long leaseMillis) {
		long start = this.ticker.getAsLong();
		try {
			return this.core.byId(queue, id, operation, delivery, leaseMillis);
		}
		finally {
			this.byIdNanos[operation.ordinal()].add(this.ticker.getAsLong() - start);
		}
	}

	@Override
	public Optional<Message> poll(String queue) {
		long start = this.ticker.getAsLong();
		try {
			return this.core.poll(queue);
		}
		finally {
			spent(Operation.POLL, start);
		}
	}

	@Override
	public List<Lease> lease(String queue, int max) {
		long start = this.ticker.getAsLong();
		try {
			return this.core.lease(queue, max);
		}
		finally {
			spent(Operation.LEASE, start);
		}
	}

	@Override
	public List<Lease> lease(String queue, int max, long leaseMillis) {
		long start = this.ticker.getAsLong();
		try {
			return this.core.lease(queue, max, leaseMillis);
		}
		finally {
			spent(Operation.LEASE, start);
		}
	}

	@Override
	public boolean complete(String queue, Message message) {
		long start = this.ticker.getAsLong();
		try {
			return this.core.complete(queue, message);
		}
		finally {
			spent(Operation.COMPLETE, start);
		}
	}

	@Override
	public Completion complete(String queue, long id) {
		long start = this.ticker.getAsLong();
		try {
			return this.core.complete(queue, id);
		}
		finally {
			spent(Operation.COMPLETE, start);
		}
	}

	@Override
	public Completion complete(String queue, long id, int delivery) {
		long start = this.ticker.getAsLong();
		try {
			return this.core.complete(queue, id, delivery);
		}
		finally {
			spent(Operation.COMPLETE, start);
		}
	}

	/** Timed as a completion: one message's. */
	@Override
	public Optional<Completion> completeFenced(String queue, long id, int delivery, CompletionFence fence) {
		return timed(Operation.COMPLETE, () -> this.core.completeFenced(queue, id, delivery, fence));
	}

	@Override
	public List<Completion> completeAll(String queue, long[] ids, int[] deliveries) {
		return timed(Operation.COMPLETE_BATCH, () -> this.core.completeAll(queue, ids, deliveries));
	}

	/** Timed as discards by id. */
	@Override
	public List<ByIdOutcome> discardAll(String queue, long[] ids) {
		return timedById(ByIdOperation.DISCARD, () -> this.core.discardAll(queue, ids));
	}

	/** Timed as lease changes by id. */
	@Override
	public List<ByIdOutcome> changeLeaseAll(String queue, long[] ids, int[] deliveries, long leaseMillis) {
		return timedById(ByIdOperation.CHANGE_LEASE,
				() -> this.core.changeLeaseAll(queue, ids, deliveries, leaseMillis));
	}

	private <T> T timedById(ByIdOperation operation, Supplier<T> call) {
		long start = this.ticker.getAsLong();
		try {
			return call.get();
		}
		finally {
			this.byIdNanos[operation.ordinal()].add(this.ticker.getAsLong() - start);
		}
	}

	@Override
	public List<QueueStats> queues() {
		return timed(Operation.QUEUES, () -> this.core.queues());
	}

	@Override
	public Optional<QueueStats> queue(String name) {
		return timed(Operation.QUEUE, () -> this.core.queue(name));
	}

	@Override
	public boolean hasReady(String name) {
		long start = this.ticker.getAsLong();
		try {
			return this.core.hasReady(name);
		}
		finally {
			spent(Operation.HAS_READY, start);
		}
	}

	@Override
	public List<Peeked> peek(String queue, int max) {
		return timed(Operation.PEEK, () -> this.core.peek(queue, max));
	}

	@Override
	public long lastId() {
		return this.core.lastId();
	}

	@Override
	public long lastIdLagMillis() {
		return this.core.lastIdLagMillis();
	}

	@Override
	public int queueCount() {
		return this.core.queueCount();
	}

	@Override
	public long heldCount() {
		return this.core.heldCount();
	}

	@Override
	public boolean external() {
		return this.core.external();
	}

	/**
	 * The core's own, untimed: no thread of the service waits in an asynchronous call,
	 * which is the time this meter counts.
	 */
	@Override
	public Optional<AsyncCore> async() {
		return this.core.async();
	}

	@Override
	public Optional<Capacity> capacity() {
		return this.core.capacity();
	}

	@Override
	public void onPushes(PushListener listener) {
		this.core.onPushes(listener);
	}

	@Override
	public void close() {
		this.core.close();
	}

}
