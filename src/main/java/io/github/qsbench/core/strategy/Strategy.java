package io.github.qsbench.core.strategy;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.Delivery;
import io.github.qsbench.core.Eviction;
import io.github.qsbench.core.QueueOptions;

/**
 * The thread-safety strategies: the one place a strategy is chosen, whether by a Spring
 * profile, a JMH {@code @Param} or a parameterized test. The thesis's four come first;
 * then its proposals (section 5.2 and appendix A) and the seeds' designs, those that keep
 * in-flight messages apart from ready ones (5.2.3.1) on
 * {@link io.github.qsbench.core.AbstractSplitQS}.
 */
public enum Strategy {

	SYNCHRONIZED("synchronized", "Synchronized", SynchronizedQS::new),

	READ_WRITE_LOCK("read-write-lock", "ReadWriteLock", ReadWriteLockedQS::new),

	CONCURRENT_POJO("concurrent-pojo", "ConcurrentPojo", ConcurrentQSWithPojoMessage::new),

	CONCURRENT_ATOMIC("concurrent-atomic", "ConcurrentAtomic", ConcurrentQSWithAtomicMessage::new),

	/** Thesis 5.2.2.1. */
	FAIR_READ_WRITE_LOCK("fair-read-write-lock", "FairReadWriteLock", FairReadWriteLockedQS::new),

	/** Thesis 5.2.2.2: {@link #SYNCHRONIZED} with a {@code ReentrantLock}. */
	REENTRANT_LOCK("reentrant-lock", "ReentrantLock", ReentrantLockedQS::new),

	/**
	 * Thesis appendix A: {@link #READ_WRITE_LOCK} with a {@code StampedLock} and
	 * optimistic lookups.
	 */
	STAMPED_LOCK("stamped-lock", "StampedLock", StampedLockedQS::new),

	/** Thesis 5.2.2.2: {@link #SYNCHRONIZED} on the concurrent strategies' structures. */
	SYNCHRONIZED_CONCURRENT_STRUCTURES("synchronized-concurrent-structures", "SynchronizedOnConcurrent",
			SynchronizedQSWithConcurrentStructures::new),

	/**
	 * Thesis 5.2.2.2: {@link #READ_WRITE_LOCK} on the concurrent strategies' structures.
	 */
	READ_WRITE_LOCK_CONCURRENT_STRUCTURES("read-write-lock-concurrent-structures", "ReadWriteLockOnConcurrent",
			ReadWriteLockedQSWithConcurrentStructures::new),

	/** Thesis 5.2.3.3: {@link #READ_WRITE_LOCK} with the read-then-write push. */
	READ_WRITE_LOCK_READ_PUSH("read-write-lock-read-push", "ReadWriteLockReadPush", ReadWriteLockedQSWithReadPush::new),

	/**
	 * Seed 001, Tomcat's {@code SynchronizedQueue}: an array ring under a monitor per
	 * queue.
	 */
	SYNCHRONIZED_ARRAY_QUEUE("synchronized-array-queue", "SynchronizedArrayQueue", SynchronizedArrayQueueQS::new),

	SPLIT_CONCURRENT("split-concurrent", "SplitConcurrent", SplitConcurrentQS::new),

	SPLIT_JCTOOLS("split-jctools", "SplitJCTools", SplitJCToolsQS::new),

	SPLIT_DISPATCHER("split-dispatcher", "SplitDispatcher", SplitDispatcherQS::new),

	/** Thesis 5.2.3.1 with a lock per queue over array rings. */
	LANE_LOCKED("lane-locked", "LaneLocked", LaneLockedQS::new),

	/** Lane-locked where the side that is behind spins for a lock and the other parks. */
	LANE_ADAPTIVE("lane-adaptive", "LaneAdaptive", LaneAdaptiveQS::new);

	private final String profile;

	private final String thesisName;

	private final Function<QueueOptions, QueueServiceCore> factory;

	Strategy(String profile, String thesisName, Function<QueueOptions, QueueServiceCore> factory) {
		this.profile = profile;
		this.thesisName = thesisName;
		this.factory = factory;
	}

	public QueueServiceCore create(QueueOptions options) {
		return this.factory.apply(options);
	}

	/** The Spring profile (and property value) that selects this strategy. */
	public String profile() {
		return this.profile;
	}

	/** The short name the thesis's tables use. */
	public String thesisName() {
		return this.thesisName;
	}

	/**
	 * What a consumer can count on. Exactly-once where every grab of a
	 * {@code PojoMessage} holds an exclusive lock (one monitor or lock for everything, or
	 * one per queue), or the message is an {@code AtomicMessage}. The read-write-locked
	 * strategies hold the queue's write lock to poll only with lazy eviction, which
	 * changes the queue; eager eviction lets polls share its read lock and race on a
	 * message, as the thesis notes for {@code ReadWriteLockedQS}.
	 */
	public Delivery delivery(Eviction eviction) {
		return switch (this) {
			case SYNCHRONIZED, CONCURRENT_ATOMIC, REENTRANT_LOCK, SYNCHRONIZED_CONCURRENT_STRUCTURES,
					SYNCHRONIZED_ARRAY_QUEUE, SPLIT_CONCURRENT, SPLIT_JCTOOLS, SPLIT_DISPATCHER, LANE_LOCKED,
					LANE_ADAPTIVE ->
				Delivery.EXACTLY_ONCE;
			case READ_WRITE_LOCK, FAIR_READ_WRITE_LOCK, STAMPED_LOCK, READ_WRITE_LOCK_CONCURRENT_STRUCTURES,
					READ_WRITE_LOCK_READ_PUSH ->
				(eviction == Eviction.LAZY) ? Delivery.EXACTLY_ONCE : Delivery.AT_LEAST_ONCE;
			case CONCURRENT_POJO -> Delivery.AT_LEAST_ONCE;
		};
	}

	public static Optional<Strategy> ofProfile(String profile) {
		return Arrays.stream(values()).filter(s -> s.profile.equals(profile)).findFirst();
	}

	public static List<String> profiles() {
		return Arrays.stream(values()).map(Strategy::profile).toList();
	}

}
