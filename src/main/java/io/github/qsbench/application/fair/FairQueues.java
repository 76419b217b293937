package io.github.qsbench.application.fair;

import java.time.InstantSource;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.qsbench.application.Departures;
import io.github.qsbench.application.OutgoingMessage;
import io.github.qsbench.application.QueueEvents;
import io.github.qsbench.application.QuietCounts;
import io.github.qsbench.application.StoredMessage;
import io.github.qsbench.core.AsyncCore;
import io.github.qsbench.core.ByIdOperation;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.Lease;
import io.github.qsbench.core.Message;
import io.github.qsbench.core.Peeked;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.QueueStats;

/**
 * Fair queues, SQS's rule for standard queues whose messages carry a message group (a
 * tenant), written once above the core on what every strategy offers (a push held as a
 * delayed message, {@link ByIdOperation#END_DELAY}), so that no strategy changes.
 *
 * <p>
 * A grouped message sent without a delay is pushed held, then put in its group
 * ({@link FairGroups#append}): if the group is quiet it is released at once (its hold
 * ended: ready, wherever the core puts it; by the groups' store in the same step, where
 * it {@link FairGroups#endsHolds}), else it stays held. A receive that finds fewer ready
 * messages than it asks for (nothing else waits) releases held messages, one group after
 * another, and leases again ({@link #release}). So quiet groups' messages are delivered
 * first, and a noisy group is not capped: its messages go whenever nothing else waits. A
 * group counts what it has released until each leaves the queue ({@link #left}:
 * completed, moved to a dead-letter queue, purged, expired); the rule counts released
 * messages, ready or in flight, where SQS counts in-flight ones.
 *
 * <p>
 * What a queue without groups pays: on a push, the test of each message's group (the loop
 * that refuses deduplication ids on a standard queue makes it); on a receive that finds
 * fewer messages than it asks for, and on a completion, one look-up in {@link #known} (a
 * concurrent set of this instance's fair queues); on Redis, that set is refreshed from
 * the store at most once a second ({@link #REFRESH_NANOS}) by such a look-up that misses.
 */
public final class FairQueues implements Departures {

	/** How often the queues other instances announced are read again, at most. */
	static final long REFRESH_NANOS = TimeUnit.SECONDS.toNanos(1);

	/** Messages a browse reads for the age of the oldest message in quiet groups. */
	static final int AGE_SCAN = 100;

	private final QueueServiceCore core;

	private final FairGroups groups;

	/**
	 * The groups' and the core's calls without a thread waiting, where both have them
	 * (Redis); else {@code null}.
	 */
	private final AsyncFairGroups asyncGroups;

	private final AsyncCore asyncCore;

	private final InstantSource clock;

	private final QueueEvents events;

	/** The standard queues this instance knows to have groups. */
	private final Set<String> known = ConcurrentHashMap.newKeySet();

	private volatile long refreshedNanos = System.nanoTime() - REFRESH_NANOS;

	private final Executor refresher;

	/** Whether {@link #knownPlain} has a refresh under way on {@link #refresher}. */
	private final AtomicBoolean refreshing = new AtomicBoolean();

	/**
	 * @param refresher where {@link #knownPlain} has the queues other instances announced
	 * read again, when due, since its caller must not wait for the store
	 */
	public FairQueues(QueueServiceCore core, FairGroups groups, InstantSource clock, QueueEvents events,
			Executor refresher) {
		this.core = core;
		this.refresher = refresher;
		this.groups = groups;
		this.asyncCore = core.async().orElse(null);
		this.asyncGroups = (this.asyncCore != null && groups.endsHolds()) ? groups.async().orElse(null) : null;
		this.clock = clock;
		this.events = events;
	}

	/**
	 * Whether the queue has groups, as far as this instance knows: the constant-time
	 * check on the paths of every standard queue.
	 */
	public boolean tracks(String queue) {
		if (this.known.contains(queue)) {
			return true;
		}
		if (!this.groups.shared()) {
			return false;
		}
		long now = System.nanoTime();
		if (now - this.refreshedNanos < REFRESH_NANOS) {
			return false;
		}
		refresh(now);
		return this.known.contains(queue);
	}

	/** Learns the queues other instances announced. */
	private void refresh(long now) {
		this.refreshedNanos = now;
		for (String other : this.groups.queues()) {
			learn(other, false);
		}
	}

	/**
	 * Whether the queue has no groups, as far as this instance knows, answered without
	 * asking the store: when the queues other instances announced are due to be read
	 * again ({@link #tracks} would read them first), they are read on the refresher, and
	 * until then this answers from what it knew, as stale as {@link #tracks} may be.
	 */
	public boolean knownPlain(String queue) {
		if (this.known.contains(queue)) {
			return false;
		}
		if (this.groups.shared() && System.nanoTime() - this.refreshedNanos >= REFRESH_NANOS
				&& this.refreshing.compareAndSet(false, true)) {
			try {
				this.refresher.execute(() -> {
					try {
						refresh(System.nanoTime());
					}
					finally {
						this.refreshing.set(false);
					}
				});
			}
			catch (RejectedExecutionException shuttingDown) {
				this.refreshing.set(false);
			}
		}
		return true;
	}

	/**
	 * Whether {@link #pushAsync}, {@link #releaseAsync} and {@link #completeAsync} serve
	 * the queue: it has groups as this instance knows without asking the store (a queue
	 * it has not learned yet is served by the blocking calls, which learn it), and the
	 * groups and the core answer without a thread waiting.
	 */
	public boolean knownAsync(String queue) {
		return this.asyncGroups != null && this.known.contains(queue);
	}

	/**
	 * {@link #push} on a queue that {@link #knownAsync}, sent without waiting: one step
	 * of the groups' store ({@link AsyncFairGroups#push}).
	 */
	public CompletableFuture<List<Message>> pushAsync(String queue, List<OutgoingMessage> messages,
			List<byte[]> stored) {
		return this.asyncGroups.push(queue, stored, messages.stream().map(OutgoingMessage::group).toList());
	}

	/**
	 * {@link #release} on a queue that {@link #knownAsync}, sent without waiting: the
	 * release, then the lease, chained on the store's thread.
	 */
	public CompletableFuture<List<Lease>> releaseAsync(String queue, int max, long leaseMillis) {
		return this.asyncGroups.release(queue, max)
			.thenCompose(ids -> (ids.length == 0) ? CompletableFuture.completedFuture(List.of())
					: this.asyncCore.lease(queue, max, leaseMillis));
	}

	/**
	 * {@link #complete} on a queue that {@link #knownAsync}, sent without waiting.
	 */
	public CompletableFuture<List<Completion>> completeAsync(String queue, long[] ids, int[] deliveries) {
		return this.asyncGroups.complete(queue, ids, deliveries);
	}

	/** This instance saw a grouped message on a standard queue (sent or received). */
	public void learn(String queue) {
		if (!this.known.contains(queue)) {
			learn(queue, true);
		}
	}

	/**
	 * This instance received a grouped message on a standard queue, which the instance
	 * that pushed it announced ({@link #push}): learned here, announcing nothing, so
	 * without a call to the store.
	 */
	public void learnAnnounced(String queue) {
		if (!this.known.contains(queue)) {
			learn(queue, false);
		}
	}

	private void learn(String queue, boolean announce) {
		if (this.known.add(queue)) {
			if (announce) {
				this.groups.announce(queue);
			}
			this.events.fairQueue(queue, () -> quietCounts(queue));
		}
	}

	/**
	 * Pushes messages of which some have a group, without a delay, all or none: each
	 * pushed held, then ungrouped ones and those of quiet groups released. Where the
	 * groups' store {@link FairGroups#endsHolds}, it does all of that in one step
	 * ({@link FairGroups#push}); the core's timer then does not see the push.
	 * @return the pushed messages, in order
	 */
	public List<Message> push(String queue, List<OutgoingMessage> messages, List<byte[]> stored) {
		learn(queue);
		List<String> groupOf = messages.stream().map(OutgoingMessage::group).toList();
		if (this.groups.endsHolds()) {
			return this.groups.push(queue, stored, groupOf);
		}
		List<Message> pushed = this.core.pushAll(queue, stored, FairGroups.HOLD_MILLIS);
		long[] ids = pushed.stream().mapToLong(Message::id).toArray();
		boolean[] released = this.groups.append(queue, groupOf, ids);
		for (int i = 0; i < ids.length; i++) {
			if (released[i] && !this.core.byId(queue, ids[i], ByIdOperation.END_DELAY).done()
					&& groupOf.get(i) != null) {
				this.groups.remove(queue, ids[i]); // purged meanwhile
			}
		}
		return pushed;
	}

	/**
	 * Releases up to {@code max} held messages of the queue (when nothing else waits) and
	 * leases what is ready then.
	 */
	public List<Lease> release(String queue, int max, long leaseMillis) {
		long[] ids = this.groups.release(queue, max);
		if (ids.length == 0) {
			return List.of();
		}
		if (!this.groups.endsHolds()) {
			for (long id : ids) {
				if (!this.core.byId(queue, id, ByIdOperation.END_DELAY).done()) {
					this.groups.remove(queue, id); // removed meanwhile (purged, expired)
				}
			}
		}
		return this.core.lease(queue, max, leaseMillis);
	}

	/**
	 * Whether {@link #complete} serves completions on the queue: it has groups, as far as
	 * this instance knows ({@link #tracks}), and their store
	 * {@link FairGroups#endsHolds}. Else the caller completes, and tells {@link #left} of
	 * each message completed.
	 */
	public boolean completesInOneStep(String queue) {
		return this.groups.endsHolds() && tracks(queue);
	}

	/**
	 * Completes messages of a queue that {@link #completesInOneStep} and takes those
	 * completed out of their groups, in one step ({@link FairGroups#complete}); the
	 * core's timer then does not see the completion.
	 * @param deliveries the delivery each completion names (0: any)
	 * @return each message's outcome, in order
	 */
	public List<Completion> complete(String queue, long[] ids, int[] deliveries) {
		return this.groups.complete(queue, ids, deliveries);
	}

	@Override
	public void left(String queue, long id) {
		if (tracks(queue)) {
			this.groups.remove(queue, id);
		}
	}

	/** Forgets a deleted queue's groups. */
	public void forget(String queue) {
		if (this.known.remove(queue)) {
			this.events.fairQueueGone(queue);
		}
		this.groups.forget(queue);
	}

	/**
	 * The queue's counts as a consumer sees them: held messages are visible (they wait
	 * for a receive), not delayed as the core counts them.
	 */
	public QueueStats stats(QueueStats core) {
		if (!this.known.contains(core.name())) {
			return core;
		}
		long held = this.groups.counts(core.name()).held();
		int moved = (int) Math.min(held, core.delayed());
		return new QueueStats(core.name(), core.ready() + moved, core.inflight(), core.delayed() - moved);
	}

	/**
	 * The queue's fair-queue counts, SQS's five; {@link QuietCounts#NONE} without groups.
	 */
	public QuietCounts quietCounts(String queue) {
		FairGroups.Counts counts = tracks(queue) ? this.groups.counts(queue) : FairGroups.Counts.NONE;
		QueueStats stats = this.core.queue(queue).orElse(new QueueStats(queue, 0, 0));
		// The noisy groups' released messages are taken to be in flight first: they
		// were delivered before the quiet ones that came while they were held.
		long noisyInFlight = Math.min(counts.releasedNoisy(), stats.inflight());
		long noisyVisible = counts.releasedNoisy() - noisyInFlight;
		// The groups and the core are read one after the other, not at one moment: a
		// difference of the two may be briefly negative, and is answered as none.
		long visible = Math.max(0, stats.ready() - noisyVisible);
		long notVisible = stats.inflight() - noisyInFlight;
		long delayed = Math.max(0, stats.delayed() - counts.held());
		return new QuietCounts(counts.noisyGroups().size(), visible, notVisible, delayed,
				oldestQuietSeconds(queue, counts));
	}

	/**
	 * The age of the oldest ready message among the first {@value #AGE_SCAN} from the
	 * queue's head whose group is not noisy (0 if none).
	 */
	private long oldestQuietSeconds(String queue, FairGroups.Counts counts) {
		long now = this.clock.millis();
		long oldest = now;
		Set<String> noisy = counts.noisyGroups();
		for (Peeked peeked : this.core.peek(queue, AGE_SCAN)) {
			if (peeked.state() != Peeked.State.READY) {
				continue;
			}
			StoredMessage.SystemAttributes system = StoredMessage.read(peeked.message().body()).system();
			if (system.sentMillis() > 0 && (system.group() == null || !noisy.contains(system.group()))) {
				oldest = Math.min(oldest, system.sentMillis());
			}
		}
		return TimeUnit.MILLISECONDS.toSeconds(now - oldest);
	}

}
