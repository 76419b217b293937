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
 * The four thread-safety strategies of the thesis, then those built on the framework it
 * proposes in 5.2.3.1 ({@link io.github.qsbench.core.AbstractSplitQS}): the one place a
 * strategy is chosen, whether by a Spring profile, a JMH {@code @Param} or a
 * parameterized test.
 */
public enum Strategy {

	SYNCHRONIZED("synchronized", "Synchronized", SynchronizedQS::new),

	READ_WRITE_LOCK("read-write-lock", "ReadWriteLock", ReadWriteLockedQS::new),

	CONCURRENT_POJO("concurrent-pojo", "ConcurrentPojo", ConcurrentQSWithPojoMessage::new),

	CONCURRENT_ATOMIC("concurrent-atomic", "ConcurrentAtomic", ConcurrentQSWithAtomicMessage::new),

	SPLIT_CONCURRENT("split-concurrent", "SplitConcurrent", SplitConcurrentQS::new),

	SPLIT_JCTOOLS("split-jctools", "SplitJCTools", SplitJCToolsQS::new),

	SPLIT_DISPATCHER("split-dispatcher", "SplitDispatcher", SplitDispatcherQS::new);

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

	public Delivery delivery(Eviction eviction) {
		return switch (this) {
			case SYNCHRONIZED, CONCURRENT_ATOMIC, SPLIT_CONCURRENT, SPLIT_JCTOOLS, SPLIT_DISPATCHER ->
				Delivery.EXACTLY_ONCE;
			case READ_WRITE_LOCK -> (eviction == Eviction.LAZY) ? Delivery.EXACTLY_ONCE : Delivery.AT_LEAST_ONCE;
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
