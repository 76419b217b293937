package io.github.qsbench.redis;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import io.github.qsbench.application.QuietCounts;
import io.github.qsbench.application.StoreGauges;
import io.github.qsbench.application.queues.PeriodicPass;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gauges' counts of the redis strategy, as a snapshot: reading every queue's held
 * messages is a script per queue ({@link RedisQS#totals}, which may drop an empty queue's
 * name from the registry), too much for each scrape, so one thread of its own reads them
 * and a scrape reads the last snapshot (0 until the first reading; the last one while
 * Redis does not answer). After each reading the thread rests {@value #REFRESH_MILLIS}
 * ms, or nine times as long as the reading took if that is longer
 * ({@link PeriodicPass#A_TENTH}), so that however many queues there are it spends at most
 * a tenth of its time reading: the snapshot is then that much older. The readings start
 * with the first read of a gauge (the live page's sampler reads them each second from the
 * start) and end with {@link #close}.
 */
final class RedisGauges implements StoreGauges, AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(RedisGauges.class);

	static final long REFRESH_MILLIS = 1_000;

	private final RedisQS core;

	private final ScheduledExecutorService refresher;

	/** The readings after the first, on {@link #refresher}. */
	private final PeriodicPass readings;

	private final AtomicBoolean started = new AtomicBoolean();

	/** The last reading: held messages and queues, written by the refresher alone. */
	private volatile long[] snapshot = { 0, 0 };

	/** The fair queues whose gauges are registered: how to read each one's counts. */
	private final Map<String, Supplier<QuietCounts>> fairReaders = new ConcurrentHashMap<>();

	/** The fair queues' last readings, written by the refresher. */
	private final Map<String, QuietCounts> fairCounts = new ConcurrentHashMap<>();

	RedisGauges(RedisQS core) {
		this.core = core;
		this.refresher = new ScheduledThreadPoolExecutor(1, task -> {
			Thread thread = new Thread(task, "redis-gauges");
			thread.setDaemon(true);
			return thread;
		});
		this.readings = new PeriodicPass(this.refresher, Duration.ofMillis(REFRESH_MILLIS), PeriodicPass.A_TENTH,
				this::refresh, logger, "A reading of the gauges");
	}

	@Override
	public long heldCount() {
		started();
		return this.snapshot[0];
	}

	@Override
	public int queueCount() {
		started();
		return (int) this.snapshot[1];
	}

	/**
	 * The fair queue's counts as the last reading found them ({@link QuietCounts#NONE}
	 * until the first), renewed with the other counts.
	 */
	@Override
	public Supplier<QuietCounts> fairQueue(String queue, Supplier<QuietCounts> counts) {
		this.fairReaders.put(queue, counts);
		return () -> {
			started();
			return this.fairCounts.getOrDefault(queue, QuietCounts.NONE);
		};
	}

	@Override
	public void fairQueueGone(String queue) {
		this.fairReaders.remove(queue);
		this.fairCounts.remove(queue);
	}

	/**
	 * Starts the readings on the first read, so stores whose gauges nobody reads run
	 * none.
	 */
	private void started() {
		if (!this.started.get() && this.started.compareAndSet(false, true)) {
			this.refresher.execute(this::refresh);
			this.readings.start();
		}
	}

	/** Reads every queue's held messages once ({@link RedisQS#totals}). */
	void refresh() {
		try {
			RedisQueueStats.Totals totals = this.core.totals();
			this.snapshot = new long[] { totals.held(), totals.queues() };
		}
		catch (RuntimeException ex) {
			// Redis did not answer: the gauges keep the last reading, the fair queues'
			// are still read, and the next reading tries again (not logged each second
			// while Redis is away: Spring Boot's Redis health indicator says so)
		}
		for (Map.Entry<String, Supplier<QuietCounts>> fair : this.fairReaders.entrySet()) {
			try {
				QuietCounts counts = fair.getValue().get();
				if (this.fairReaders.get(fair.getKey()) == fair.getValue()) {
					this.fairCounts.put(fair.getKey(), counts);
				}
			}
			catch (RuntimeException ex) {
				// as above: this queue keeps its last reading
			}
		}
	}

	@Override
	public void close() {
		this.readings.stop();
		this.refresher.shutdownNow();
	}

}
