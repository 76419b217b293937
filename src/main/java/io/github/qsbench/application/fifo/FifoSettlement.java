package io.github.qsbench.application.fifo;

import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;

import io.github.qsbench.application.QueueNames;
import io.github.qsbench.application.queues.ExplicitQueues;
import io.github.qsbench.application.queues.PeriodicPass;
import io.github.qsbench.core.ByIdOutcome;
import io.github.qsbench.core.QueueServiceCore;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Settles the FIFO sends that their instance's death cut between the push and the commit
 * ({@link FifoSends}): while started, every second on the application's scheduler (less
 * often where a pass takes more than a tenth of that: {@link PeriodicPass}), takes from
 * every FIFO queue the records older than the bound and discards their messages through
 * the core. Such a message was never answered (its send did not commit, and a commit is
 * refused once the bound has passed) and never joined its group, so discarding it loses
 * nothing acknowledged and breaks no group's order, where appending it would put it
 * behind later messages of its group and beside the copy a retry may have sent. On
 * whichever instance runs first: taking is atomic, a discard idempotent. In the same
 * pass, where groups release their heads themselves ({@link FifoHeads}), it takes out of
 * their groups the heads that left the queue without leaving their group
 * ({@link FifoHeads#heal}: an instance killed between a completion and its removal from
 * the group), whose groups would stay blocked: a slice of each queue's groups per pass,
 * so a cycle over a queue of many groups takes a pass per slice. {@link #settle()} is one
 * pass; tests call it after moving the clock. Where no send is recorded (in process) it
 * never runs.
 */
public final class FifoSettlement implements SmartLifecycle {

	private static final Logger logger = LoggerFactory.getLogger(FifoSettlement.class);

	private final QueueServiceCore core;

	/** Where sends are recorded, {@code null} in process. */
	private final FifoSends sends;

	/** Where groups release their heads themselves, {@code null} in process. */
	private final FifoHeads heads;

	/** Where the FIFO queues are listed (a FIFO queue is created explicitly). */
	private final ExplicitQueues explicit;

	private final InstantSource clock;

	/**
	 * Per FIFO queue, where its next {@link FifoHeads#heal} pass starts: each pass looks
	 * at a slice of its groups.
	 */
	private final Map<String, String> healCursors = new ConcurrentHashMap<>();

	/** The passes, a second apart, or nine times a pass's time. */
	private final PeriodicPass passes;

	/**
	 * @param core the core the application layer calls
	 * @param groups the FIFO groups' store, which records the sends
	 * ({@link FifoGroups#sends})
	 * @param explicit the queues created explicitly, FIFO queues among them
	 * @param clock the core's clock
	 * @param scheduler the application's scheduler, which runs the passes
	 */
	public FifoSettlement(QueueServiceCore core, FifoGroups groups, ExplicitQueues explicit, InstantSource clock,
			ScheduledExecutorService scheduler) {
		this.core = core;
		this.sends = groups.sends();
		this.heads = groups.heads();
		this.explicit = explicit;
		this.clock = clock;
		this.passes = new PeriodicPass(scheduler, Duration.ofSeconds(1), PeriodicPass.A_TENTH, this::settle, logger,
				"A settlement of cut FIFO sends");
	}

	/**
	 * Discards the messages of every FIFO queue's sends recorded longer ago than the
	 * bound, and forgets their records. Not to be called concurrently with itself.
	 * @return how many messages it discarded
	 */
	public int settle() {
		List<String> queues = this.explicit.names().stream().filter(QueueNames::isFifo).toList();
		long now = this.clock.millis();
		int discarded = 0;
		List<List<Long>> taken = this.sends.take(queues, now);
		for (int i = 0; i < queues.size(); i++) {
			List<Long> ids = taken.get(i);
			if (ids.isEmpty()) {
				continue;
			}
			String queue = queues.get(i);
			for (ByIdOutcome outcome : this.core.discardAll(queue, ids.stream().mapToLong(Long::longValue).toArray())) {
				discarded += outcome.done() ? 1 : 0;
			}
			this.sends.forget(queue, ids);
		}
		if (this.heads != null) {
			List<String> cursors = queues.stream()
				.map(queue -> this.healCursors.getOrDefault(queue, FifoHeads.HEAL_START))
				.toList();
			List<String> next = this.heads.heal(queues, now, cursors);
			this.healCursors.clear();
			for (int i = 0; i < queues.size(); i++) {
				this.healCursors.put(queues.get(i), next.get(i));
			}
		}
		return discarded;
	}

	/** Schedules the passes, where sends are recorded. */
	@Override
	public void start() {
		if (this.sends != null) {
			this.passes.start();
		}
	}

	@Override
	public void stop() {
		this.passes.stop();
	}

	@Override
	public boolean isRunning() {
		return this.passes.isRunning();
	}

}
