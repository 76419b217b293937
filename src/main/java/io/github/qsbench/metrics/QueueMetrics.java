package io.github.qsbench.metrics;

import java.time.InstantSource;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

import io.github.qsbench.application.QueueEvents;
import io.github.qsbench.application.QuietCounts;
import io.github.qsbench.application.StoreGauges;
import io.github.qsbench.core.QueueServiceView;
import io.github.qsbench.core.Capacity;
import io.github.qsbench.core.Lease;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.BaseUnits;

/**
 * The {@code qs.*} meters, counted from the application layer's {@link QueueEvents} as it
 * reports them after each call into the core, so that the core (what JMH measures) pays
 * nothing for them and the application knows nothing of meters. Gauges are derived from
 * these counters and from the store's counts ({@link StoreGauges}: the core's lock-free
 * size reads in process, a snapshot kept current by the Redis store): a scrape never
 * takes a strategy's lock, nor runs a script per queue. No per-queue tag: queue names are
 * unbounded; but the fair-queue gauges ({@code qs.fair.*}) are per queue, tagged
 * {@code queue}, for the standard queues with message groups this instance saw, at most
 * {@value #MAX_FAIR_QUEUES} of them, each read once a second of the service's clock at
 * most, through the store ({@link StoreGauges#fairQueue}): in process a scrape reads the
 * queue's counts and browses its head; on Redis it reads the store's snapshot.
 */
@Component
public class QueueMetrics implements QueueEvents {

	private final Counter pushed;

	private final Counter firstDeliveries;

	private final Counter redeliveries;

	private final Counter emptyPolls;

	private final Counter completed;

	/** Purged messages never delivered. */
	private final Counter purgedReady;

	/** Purged messages that had been delivered: they leave the in-flight count. */
	private final Counter purgedInFlight;

	private final Counter purgedDelayed;

	private final Counter expiredReady;

	private final Counter expiredInFlight;

	private final Counter expiredDelayed;

	private final Map<Capacity.Limit, Counter> refused;

	private final Map<DeadLetterOutcome, Counter> deadLettered = new EnumMap<>(DeadLetterOutcome.class);

	private final Counter redriven;

	/** The most queues with fair-queue gauges: queue names are unbounded. */
	static final int MAX_FAIR_QUEUES = 100;

	/**
	 * How long one reading of a fair queue's counts serves its five gauges, by the
	 * service's clock.
	 */
	private static final long FAIR_READ_MILLIS = TimeUnit.SECONDS.toMillis(1);

	private final MeterRegistry registry;

	/** The fair-queue gauges, by queue. */
	private final Map<String, List<Meter>> fair = new ConcurrentHashMap<>();

	/** The held messages and queues, as the store keeps them for the gauges. */
	private final StoreGauges gauges;

	/** The service's clock: when a fair queue's counts were read. */
	private final InstantSource clock;

	/** Meters whose fair-queue readings follow the system clock (tests of the layer). */
	public QueueMetrics(MeterRegistry registry, QueueServiceView service) {
		this(registry, service, InstantSource.system());
	}

	/**
	 * Meters whose fair-queue readings are renewed at most once a second of
	 * {@code clock}, the service's.
	 */
	public QueueMetrics(MeterRegistry registry, QueueServiceView service, InstantSource clock) {
		this(registry, service, clock, StoreGauges.of(service));
	}

	/**
	 * Meters as the service wires them: the held messages and queues read from the
	 * store's gauges ({@link StoreGauges}), a snapshot for Redis.
	 */
	@Autowired
	public QueueMetrics(MeterRegistry registry, QueueServiceView service, InstantSource clock,
			ObjectProvider<StoreGauges> gauges) {
		this(registry, service, clock, gauges.getIfAvailable(() -> StoreGauges.of(service)));
	}

	private QueueMetrics(MeterRegistry registry, QueueServiceView service, InstantSource clock, StoreGauges gauges) {
		this.gauges = gauges;
		this.registry = registry;
		this.clock = clock;
		this.pushed = Counter.builder("qs.messages.pushed")
			.description("Messages accepted by a push")
			.register(registry);
		this.firstDeliveries = delivered(registry, false);
		this.redeliveries = delivered(registry, true);
		this.emptyPolls = Counter.builder("qs.polls.empty")
			.description("Polls answered 204 because nothing was ready; a long poll counts once, when its wait ends")
			.register(registry);
		this.completed = Counter.builder("qs.messages.completed")
			.description("Messages completed by their consumer")
			.register(registry);
		for (DeadLetterOutcome outcome : DeadLetterOutcome.values()) {
			this.deadLettered.put(outcome, Counter.builder("qs.messages.deadlettered")
				.description("Messages delivered maxDeliveries times whose last lease lapsed, by what became of them: "
						+ "moved to the dead-letter queue, or refused there by a cap (then they stay in their queue, "
						+ "delivered again when the lease of the poll that tried lapses)")
				.tag("outcome", outcome.name().toLowerCase(Locale.ROOT))
				.register(registry));
		}
		this.redriven = Counter.builder("qs.messages.redriven")
			.description("Messages moved out of a dead-letter queue by a redrive or a move task")
			.register(registry);
		this.purgedReady = purged(registry, "ready");
		this.purgedInFlight = purged(registry, "inflight");
		this.purgedDelayed = purged(registry, "delayed");
		this.expiredReady = expired(registry, "ready");
		this.expiredInFlight = expired(registry, "inflight");
		this.expiredDelayed = expired(registry, "delayed");
		Gauge.builder("qs.messages.ready", this, QueueMetrics::ready)
			.description("Messages held and never delivered")
			.register(registry);
		Gauge.builder("qs.messages.inflight", this, QueueMetrics::inflight)
			.description(
					"Messages delivered and not completed, including those whose lease lapsed and that await redelivery")
			.register(registry);
		Gauge.builder("qs.queues", gauges, StoreGauges::queueCount).description("Queues that exist").register(registry);
		service.capacity().ifPresent(capacity -> registerCapacity(registry, capacity));
		this.refused = new EnumMap<>(Capacity.Limit.class);
		for (Capacity.Limit limit : Capacity.Limit.values()) {
			this.refused.put(limit,
					Counter.builder("qs.pushes.refused")
						.description("Pushes answered 429 because a cap was reached")
						.tag("limit", limit.property())
						.register(registry));
		}
	}

	private static void registerCapacity(MeterRegistry registry, Capacity capacity) {
		Capacity.Limits limits = capacity.limits();
		Gauge.builder("qs.capacity.bytes.used", capacity, Capacity::heldBytes)
			.description("Heap charged for the messages held")
			.baseUnit(BaseUnits.BYTES)
			.register(registry);
		Gauge.builder("qs.capacity.bytes.max", limits, Capacity.Limits::maxTotalBytes)
			.description("Cap qs.limits.max-total-bytes")
			.baseUnit(BaseUnits.BYTES)
			.register(registry);
		Gauge.builder("qs.capacity.queues.used", capacity, Capacity::heldQueues)
			.description("Queues holding messages")
			.register(registry);
		Gauge.builder("qs.capacity.queues.max", limits, Capacity.Limits::maxQueues)
			.description("Cap qs.limits.max-queues")
			.register(registry);
		Gauge.builder("qs.capacity.messages.per.queue.max", limits, Capacity.Limits::maxMessagesPerQueue)
			.description("Cap qs.limits.max-messages-per-queue")
			.register(registry);
	}

	private static Counter purged(MeterRegistry registry, String state) {
		return Counter.builder("qs.messages.purged")
			.description("Messages removed by a purge or a queue's deletion, by what they were")
			.tag("state", state)
			.register(registry);
	}

	private static Counter expired(MeterRegistry registry, String state) {
		return Counter.builder("qs.messages.expired")
			.description("Messages dropped because they were older than their queue's retention, by what they were")
			.tag("state", state)
			.register(registry);
	}

	private static Counter delivered(MeterRegistry registry, boolean redelivery) {
		return Counter.builder("qs.messages.delivered")
			.description("Messages handed to a consumer by a poll")
			.tag("redelivery", Boolean.toString(redelivery))
			.register(registry);
	}

	@Override
	public void pushed(int messages) {
		this.pushed.increment(messages);
	}

	/** The messages one poll delivered, each counted as a first delivery or again. */
	@Override
	public void delivered(List<Lease> leases) {
		for (Lease lease : leases) {
			(lease.delivery() > 1 ? this.redeliveries : this.firstDeliveries).increment();
		}
	}

	@Override
	public void emptyPoll() {
		this.emptyPolls.increment();
	}

	/** A push or batch push refused: counts requests, not the messages they carried. */
	@Override
	public void refused(Capacity.Limit limit) {
		this.refused.get(limit).increment();
	}

	@Override
	public void purged(int ready, int inFlight, int delayed) {
		this.purgedReady.increment(ready);
		this.purgedInFlight.increment(inFlight);
		this.purgedDelayed.increment(delayed);
	}

	@Override
	public void expired(int ready, int inFlight, int delayed) {
		this.expiredReady.increment(ready);
		this.expiredInFlight.increment(inFlight);
		this.expiredDelayed.increment(delayed);
	}

	@Override
	public void deadLettered(DeadLetterOutcome outcome) {
		this.deadLettered.get(outcome).increment();
	}

	@Override
	public void redriven(int messages) {
		this.redriven.increment(messages);
	}

	@Override
	public void completed(int messages) {
		this.completed.increment(messages);
	}

	/**
	 * Delivered and not completed. Counters are read one after another, so the difference
	 * is clamped to what the service holds; an at-least-once strategy that delivers one
	 * message twice as "first" is also kept in bounds by the clamp.
	 */
	private double inflight() {
		double held = this.gauges.heldCount();
		return Math.max(0, Math.min(held, this.firstDeliveries.count() - this.completed.count()
				- this.purgedInFlight.count() - this.expiredInFlight.count() - deadLettered()));
	}

	/**
	 * Delivered messages that left their queue for its dead-letter queue (or tried to).
	 */
	private double deadLettered() {
		double total = 0;
		for (Counter counter : this.deadLettered.values()) {
			total += counter.count();
		}
		return total;
	}

	private double ready() {
		return Math.max(0, this.gauges.heldCount() - inflight());
	}

	/**
	 * Registers SQS's five fair-queue counts of a standard queue with groups as gauges
	 * tagged with its name, unless {@value #MAX_FAIR_QUEUES} queues have them already.
	 */
	@Override
	public void fairQueue(String queue, Supplier<QuietCounts> counts) {
		if (this.fair.size() >= MAX_FAIR_QUEUES || this.fair.containsKey(queue)) {
			return;
		}
		Reading reading = new Reading(this.gauges.fairQueue(queue, counts), this.clock);
		List<Meter> meters = List.of(
				fairGauge("qs.fair.groups.noisy", queue, reading, QuietCounts::noisyGroups, null,
						"Noisy message groups of a fair queue (SQS's ApproximateNumberOfNoisyGroups)"),
				fairGauge("qs.fair.quiet.messages.visible", queue, reading, QuietCounts::visible, null,
						"Messages of quiet groups ready (ApproximateNumberOfMessagesVisibleInQuietGroups)"),
				fairGauge("qs.fair.quiet.messages.notvisible", queue, reading, QuietCounts::notVisible, null,
						"Messages of quiet groups in flight (ApproximateNumberOfMessagesNotVisibleInQuietGroups)"),
				fairGauge("qs.fair.quiet.messages.delayed", queue, reading, QuietCounts::delayed, null,
						"Messages of quiet groups delayed (ApproximateNumberOfMessagesDelayedInQuietGroups)"),
				fairGauge("qs.fair.quiet.oldest.age", queue, reading, QuietCounts::oldestSeconds, "seconds",
						"Age of the oldest ready message of quiet groups (ApproximateAgeOfOldestMessageInQuietGroups)"));
		if (this.fair.putIfAbsent(queue, meters) != null) {
			meters.forEach(this.registry::remove);
		}
	}

	@Override
	public void fairQueueGone(String queue) {
		List<Meter> meters = this.fair.remove(queue);
		if (meters != null) {
			meters.forEach(this.registry::remove);
			this.gauges.fairQueueGone(queue);
		}
	}

	/** One of a fair queue's gauges; {@code baseUnit} {@code null} for a count. */
	private Meter fairGauge(String name, String queue, Reading reading, ToLongFunction<QuietCounts> value,
			String baseUnit, String description) {
		// held strongly: nothing else holds the reading, and a gauge whose object was
		// collected answers NaN
		return Gauge.builder(name, reading, one -> value.applyAsLong(one.get()))
			.tag("queue", queue)
			.strongReference(true)
			.baseUnit(baseUnit)
			.description(description)
			.register(this.registry);
	}

	/**
	 * One fair queue's counts, read at most once a second of the service's clock for its
	 * five gauges (again at once if the clock went back).
	 */
	private static final class Reading {

		private final Supplier<QuietCounts> counts;

		private final InstantSource clock;

		private QuietCounts last = QuietCounts.NONE;

		private long readMillis;

		private boolean read;

		Reading(Supplier<QuietCounts> counts, InstantSource clock) {
			this.counts = counts;
			this.clock = clock;
		}

		synchronized QuietCounts get() {
			long now = this.clock.millis();
			if (!this.read || now - this.readMillis >= FAIR_READ_MILLIS || now < this.readMillis) {
				this.last = this.counts.get();
				this.readMillis = now;
				this.read = true;
			}
			return this.last;
		}

	}

}
