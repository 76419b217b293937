package io.github.qsbench.core.strategy;

import io.github.qsbench.core.lanes.LaneAdaptiveQS;
import io.github.qsbench.core.lanes.LaneLockedQS;
import io.github.qsbench.core.lanes.SplitConcurrentQS;
import io.github.qsbench.core.lanes.SplitDispatcherQS;
import io.github.qsbench.core.lanes.SplitJCToolsQS;
import io.github.qsbench.core.thesis.ConcurrentQSWithAtomicMessage;
import io.github.qsbench.core.thesis.ConcurrentQSWithPojoMessage;
import io.github.qsbench.core.thesis.FairReadWriteLockedQS;
import io.github.qsbench.core.thesis.ReadWriteLockedQS;
import io.github.qsbench.core.thesis.ReadWriteLockedQSWithConcurrentStructures;
import io.github.qsbench.core.thesis.ReadWriteLockedQSWithReadPush;
import io.github.qsbench.core.thesis.ReentrantLockedQS;
import io.github.qsbench.core.thesis.StampedLockedQS;
import io.github.qsbench.core.thesis.SynchronizedArrayQueueQS;
import io.github.qsbench.core.thesis.SynchronizedQS;
import io.github.qsbench.core.thesis.SynchronizedQSWithConcurrentStructures;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

import io.github.qsbench.core.lanes.AbstractLaneLockedQS;
import io.github.qsbench.core.thesis.AbstractQS;
import io.github.qsbench.core.lanes.AbstractSplitQS;
import io.github.qsbench.core.Delivery;
import io.github.qsbench.core.Eviction;
import io.github.qsbench.core.ExternalStore;
import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.QueueServiceCore;

/**
 * The thread-safety strategies: the one place a strategy is chosen, whether by a Spring
 * profile, a JMH {@code @Param} or a parameterized test, and the one place its guarantees
 * are recorded, as data that the service and the tests read instead of switching on
 * names: its framework, its delivery guarantee, and how its threads wait for one another.
 * The thesis's four come first; then its proposals (section 5.2 and appendix A) and the
 * seeds' designs: those on the thesis's framework ({@link AbstractQS}), and those that
 * keep in-flight messages apart from ready ones (5.2.3.1), lock-free on
 * {@link AbstractSplitQS} or with a lock per queue on {@link AbstractLaneLockedQS}.
 *
 * <p>
 * Every strategy is built here ({@link #create(Context)}), from its options and, for one
 * kept out of process, the store that keeps it ({@link ExternalStore}), which this
 * catalogue knows only by that interface.
 *
 * <p>
 * Adding a strategy: its class, its constant here, and its profile file
 * {@code application-<profile>.properties}; the strategy tables in the docs must name it
 * ({@code StrategyTableTests}).
 */
public enum Strategy {

	SYNCHRONIZED("synchronized", "Synchronized", SynchronizedQS::new, Framework.THESIS, Guarantee.EXACTLY_ONCE,
			Waits.MONITORS),

	READ_WRITE_LOCK("read-write-lock", "ReadWriteLock", ReadWriteLockedQS::new, Framework.THESIS,
			Guarantee.EXACTLY_ONCE_IF_LAZY, Waits.PARKS),

	CONCURRENT_POJO("concurrent-pojo", "ConcurrentPojo", ConcurrentQSWithPojoMessage::new, Framework.THESIS,
			Guarantee.AT_LEAST_ONCE, Waits.NONE),

	CONCURRENT_ATOMIC("concurrent-atomic", "ConcurrentAtomic", ConcurrentQSWithAtomicMessage::new, Framework.THESIS,
			Guarantee.EXACTLY_ONCE, Waits.NONE),

	/** Thesis 5.2.2.1. */
	FAIR_READ_WRITE_LOCK("fair-read-write-lock", "FairReadWriteLock", FairReadWriteLockedQS::new, Framework.THESIS,
			Guarantee.EXACTLY_ONCE_IF_LAZY, Waits.PARKS),

	/** Thesis 5.2.2.2: {@link #SYNCHRONIZED} with a {@code ReentrantLock}. */
	REENTRANT_LOCK("reentrant-lock", "ReentrantLock", ReentrantLockedQS::new, Framework.THESIS, Guarantee.EXACTLY_ONCE,
			Waits.PARKS),

	/**
	 * Thesis appendix A: {@link #READ_WRITE_LOCK} with a {@code StampedLock} and
	 * optimistic lookups.
	 */
	STAMPED_LOCK("stamped-lock", "StampedLock", StampedLockedQS::new, Framework.THESIS, Guarantee.EXACTLY_ONCE_IF_LAZY,
			Waits.PARKS),

	/** Thesis 5.2.2.2: {@link #SYNCHRONIZED} on the concurrent strategies' structures. */
	SYNCHRONIZED_CONCURRENT_STRUCTURES("synchronized-concurrent-structures", "SynchronizedOnConcurrent",
			SynchronizedQSWithConcurrentStructures::new, Framework.THESIS, Guarantee.EXACTLY_ONCE, Waits.MONITORS),

	/**
	 * Thesis 5.2.2.2: {@link #READ_WRITE_LOCK} on the concurrent strategies' structures.
	 */
	READ_WRITE_LOCK_CONCURRENT_STRUCTURES("read-write-lock-concurrent-structures", "ReadWriteLockOnConcurrent",
			ReadWriteLockedQSWithConcurrentStructures::new, Framework.THESIS, Guarantee.EXACTLY_ONCE_IF_LAZY,
			Waits.PARKS),

	/** Thesis 5.2.3.3: {@link #READ_WRITE_LOCK} with the read-then-write push. */
	READ_WRITE_LOCK_READ_PUSH("read-write-lock-read-push", "ReadWriteLockReadPush", ReadWriteLockedQSWithReadPush::new,
			Framework.THESIS, Guarantee.EXACTLY_ONCE_IF_LAZY, Waits.PARKS),

	/**
	 * Seed 001, Tomcat's {@code SynchronizedQueue}: an array ring under a monitor per
	 * queue.
	 */
	SYNCHRONIZED_ARRAY_QUEUE("synchronized-array-queue", "SynchronizedArrayQueue", SynchronizedArrayQueueQS::new,
			Framework.THESIS, Guarantee.EXACTLY_ONCE, Waits.MONITORS),

	SPLIT_CONCURRENT("split-concurrent", "SplitConcurrent", SplitConcurrentQS::new, Framework.SPLIT,
			Guarantee.EXACTLY_ONCE, Waits.NONE),

	SPLIT_JCTOOLS("split-jctools", "SplitJCTools", SplitJCToolsQS::new, Framework.SPLIT, Guarantee.EXACTLY_ONCE,
			Waits.NONE),

	/** Its producers register under a monitor, once each. */
	SPLIT_DISPATCHER("split-dispatcher", "SplitDispatcher", SplitDispatcherQS::new, Framework.SPLIT,
			Guarantee.EXACTLY_ONCE, Waits.MONITORS),

	/** Thesis 5.2.3.1 with a lock per queue over array rings. */
	LANE_LOCKED("lane-locked", "LaneLocked", LaneLockedQS::new, Framework.LANE_LOCKED, Guarantee.EXACTLY_ONCE,
			Waits.PARKS),

	/** Lane-locked where the side that is behind spins for a lock and the other parks. */
	LANE_ADAPTIVE("lane-adaptive", "LaneAdaptive", LaneAdaptiveQS::new, Framework.LANE_LOCKED, Guarantee.EXACTLY_ONCE,
			Waits.PARKS),

	/**
	 * Out of process: Redis runs one script at a time. Opened on the context's store
	 * ({@code io.github.qsbench.redis.RedisStore}).
	 */
	REDIS("redis", "Redis", Framework.EXTERNAL, Guarantee.EXACTLY_ONCE, Waits.SERVER);

	private final String profile;

	private final String tableName;

	private final Factory factory;

	private final Framework framework;

	private final Guarantee guarantee;

	private final Waits waits;

	/** A strategy in this process, built by {@code inProcess}. */
	Strategy(String profile, String tableName, Function<QueueOptions, QueueServiceCore> inProcess, Framework framework,
			Guarantee guarantee, Waits waits) {
		this((context) -> inProcess.apply(context.options()), profile, tableName, framework, guarantee, waits);
	}

	/** A strategy kept out of process: opened on the context's store. */
	Strategy(String profile, String tableName, Framework framework, Guarantee guarantee, Waits waits) {
		this(Context::open, profile, tableName, framework, guarantee, waits);
	}

	private Strategy(Factory factory, String profile, String tableName, Framework framework, Guarantee guarantee,
			Waits waits) {
		this.profile = profile;
		this.tableName = tableName;
		this.factory = factory;
		this.framework = framework;
		this.guarantee = guarantee;
		this.waits = waits;
	}

	/** Builds the strategy. */
	public QueueServiceCore create(Context context) {
		return this.factory.create(context);
	}

	/**
	 * Builds the strategy with no store outside this process.
	 * @throws IllegalStateException for a strategy kept in a store ({@link #REDIS})
	 */
	public QueueServiceCore create(QueueOptions options) {
		return create(new Context(options, Context.NO_STORE));
	}

	/** The Spring profile (and property value) that selects this strategy. */
	public String profile() {
		return this.profile;
	}

	/**
	 * The short name in the JMH report's tables. For the thesis's four strategies it is
	 * the name its published tables use (the report matches its results by it); the
	 * others, which the thesis did not measure, have one in the same style.
	 */
	public String tableName() {
		return this.tableName;
	}

	public Framework framework() {
		return this.framework;
	}

	public Guarantee guarantee() {
		return this.guarantee;
	}

	public Waits waits() {
		return this.waits;
	}

	/** What a consumer can count on with that eviction: {@link #guarantee()}'s answer. */
	public Delivery delivery(Eviction eviction) {
		return this.guarantee.delivery(eviction);
	}

	public static Optional<Strategy> ofProfile(String profile) {
		return Arrays.stream(values()).filter(s -> s.profile.equals(profile)).findFirst();
	}

	public static List<String> profiles() {
		return Arrays.stream(values()).map(Strategy::profile).toList();
	}

	/**
	 * What every strategy is built from.
	 *
	 * @param options the options every strategy takes
	 * @param store the store that keeps a strategy out of process, asked for only by such
	 * a strategy ({@link #REDIS}), so that the others need none
	 */
	public record Context(QueueOptions options, Supplier<? extends ExternalStore> store) {

		/** For strategies in this process only. */
		public static final Supplier<ExternalStore> NO_STORE = () -> {
			throw new IllegalStateException(
					"this strategy is kept in a store outside the process (Redis): build it with Strategy.Context's store");
		};

		QueueServiceCore open() {
			return this.store.get().open(this.options);
		}

	}

	/** How a strategy is built. */
	@FunctionalInterface
	interface Factory {

		QueueServiceCore create(Context context);

	}

	/** The framework a strategy is built on. */
	public enum Framework {

		/** The thesis's: messages in flight stay in their queue. */
		THESIS(AbstractQS.class),

		/** Messages in flight apart, lock-free. */
		SPLIT(AbstractSplitQS.class),

		/** Messages in flight apart, a lock per queue. */
		LANE_LOCKED(AbstractLaneLockedQS.class),

		/**
		 * Messages in a store outside this process (Redis, each operation a script),
		 * opened by its {@link ExternalStore}.
		 */
		EXTERNAL(QueueServiceCore.class);

		private final Class<? extends QueueServiceCore> type;

		Framework(Class<? extends QueueServiceCore> type) {
			this.type = type;
		}

		/** The framework's class, which every strategy on it extends. */
		public Class<? extends QueueServiceCore> type() {
			return this.type;
		}

	}

	/** What a consumer can count on, as long as it completes within its lease. */
	public enum Guarantee {

		/**
		 * Every grab of a {@code PojoMessage} holds an exclusive lock (one monitor or
		 * lock for everything, or one per queue), or the message decides by
		 * compare-and-set.
		 */
		EXACTLY_ONCE,

		/**
		 * The read-write-locked strategies: a poll holds the queue's write lock only with
		 * lazy eviction, which changes the queue; eager eviction lets polls share its
		 * read lock and race on a {@code PojoMessage}, as the thesis notes for
		 * {@code ReadWriteLockedQS}.
		 */
		EXACTLY_ONCE_IF_LAZY,

		/** Two polls may grab one {@code PojoMessage} at once. */
		AT_LEAST_ONCE;

		public Delivery delivery(Eviction eviction) {
			return switch (this) {
				case EXACTLY_ONCE -> Delivery.EXACTLY_ONCE;
				case EXACTLY_ONCE_IF_LAZY ->
					(eviction == Eviction.LAZY) ? Delivery.EXACTLY_ONCE : Delivery.AT_LEAST_ONCE;
				case AT_LEAST_ONCE -> Delivery.AT_LEAST_ONCE;
			};
		}

	}

	/**
	 * How a strategy's threads wait for one another inside the core, which decides what a
	 * meter of the core's contention can see of it. The map bins that
	 * {@code ConcurrentHashMap.compute} locks (pushes to a new queue, the caps) are left
	 * out: every strategy takes them, rarely.
	 */
	public enum Waits {

		/**
		 * Blocks on monitors ({@code synchronized}), maybe parks on locks too. A virtual
		 * thread blocked on a monitor unmounts and leaves no trace a meter can read (JEP
		 * 491), so only platform threads' waits can be metered.
		 */
		MONITORS(false),

		/**
		 * Parks on {@code java.util.concurrent} locks: metered on platform threads, and
		 * on virtual threads where the JVM can trace the park (JDK 25's method tracing).
		 */
		PARKS(true),

		/**
		 * Never waits: lock-free, a failed compare-and-set is retried at once. Its meter
		 * reads about 0, which is the finding, not a blind spot.
		 */
		NONE(true),

		/**
		 * Waits for a server's answer (Redis), never for another thread of this process:
		 * its meter reads about 0 too.
		 */
		SERVER(true);

		private final boolean meteredOnVirtualThreads;

		Waits(boolean meteredOnVirtualThreads) {
			this.meteredOnVirtualThreads = meteredOnVirtualThreads;
		}

		/**
		 * Whether its waits can be metered when they are virtual threads' (given a JVM
		 * that traces parks).
		 */
		public boolean meteredOnVirtualThreads() {
			return this.meteredOnVirtualThreads;
		}

	}

}
