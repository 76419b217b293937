package io.github.qsbench.application.queues;

import java.time.Duration;
import java.time.InstantSource;
import java.util.Collections;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.github.qsbench.application.Departures;
import io.github.qsbench.application.QueueEvents;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.QueueServiceCore;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Retention (SQS's {@code MessageRetentionPeriod}), written once above the core on what
 * every strategy offers (browse, discard): while started, a sweep every second (less
 * often where a sweep takes more than a tenth of that: {@link PeriodicPass}), on the
 * application's scheduler, drops from every queue with a retention the messages pushed
 * longer ago than it. {@link #expire()} is one sweep; tests call it after moving the
 * clock.
 */
public final class Retention implements SmartLifecycle {

	private static final Logger logger = LoggerFactory.getLogger(Retention.class);

	private final QueueServiceCore core;

	private final ExplicitQueues explicit;

	private final QueueEvents events;

	/** Told of each message a sweep drops. */
	private final Departures departures;

	/** The core's clock. */
	private final InstantSource clock;

	/** When messages were pushed; touched by one sweep at a time. */
	private final PushTimeline timeline = new PushTimeline();

	/** The sweeps, a second apart, or nine times a sweep's time. */
	private final PeriodicPass sweeps;

	/**
	 * @param core the core the application layer calls
	 * @param explicit where the queues' retentions are kept
	 * @param clock the core's clock
	 * @param departures told of each message a sweep drops
	 * @param scheduler the application's scheduler, which runs the sweeps
	 */
	public Retention(QueueServiceCore core, ExplicitQueues explicit, QueueEvents events, InstantSource clock,
			Departures departures, ScheduledExecutorService scheduler) {
		this.core = core;
		this.departures = departures;
		this.explicit = explicit;
		this.events = events;
		this.clock = clock;
		this.sweeps = new PeriodicPass(scheduler, Duration.ofSeconds(1), PeriodicPass.A_TENTH, this::expire, logger,
				"A retention sweep");
	}

	/**
	 * Drops, from every queue with a retention, the messages pushed longer ago than it,
	 * whatever their state: a holder of one gets {@link Completion#NOT_FOUND}. Push times
	 * come from a {@link PushTimeline} sampled here, so a message goes at most a sampling
	 * interval (a second, for retentions of a few hours) after its time, and the core's
	 * {@link QueueServiceCore#lastIdLagMillis lag} (a second on Redis), never before; it
	 * is found by a browse of its queue's head (the oldest messages), so one held behind
	 * more than {@value Sweep#SCAN} younger deliveries waits until it gets nearer the
	 * head. Not to be called concurrently with itself.
	 * @return how many messages it dropped
	 */
	public int expire() {
		Map<String, Integer> retentions = this.explicit.retentions();
		if (retentions.isEmpty()) {
			return 0;
		}
		long now = this.clock.millis();
		// every id up to a sample's was pushed by its time, or by the lag after it where
		// ids come in blocks: each cut-off that much earlier
		long lag = this.core.lastIdLagMillis();
		long longest = TimeUnit.SECONDS.toMillis(Collections.max(retentions.values())) + lag;
		this.timeline.sample(now, this.core.lastId(), longest);
		Sweep expired = new Sweep(this.core, this.departures);
		retentions.forEach((queue, seconds) -> {
			long lastId = this.timeline.lastIdAtOrBefore(now - TimeUnit.SECONDS.toMillis(seconds) - lag);
			if (lastId > 0) {
				expired.discardAll(queue, lastId);
			}
		});
		this.events.expired(expired.ready, expired.inFlight, expired.delayed);
		return expired.total();
	}

	@Override
	public void start() {
		this.sweeps.start();
	}

	@Override
	public void stop() {
		this.sweeps.stop();
	}

	@Override
	public boolean isRunning() {
		return this.sweeps.isRunning();
	}

}
