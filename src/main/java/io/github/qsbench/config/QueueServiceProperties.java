package io.github.qsbench.config;

import java.time.Duration;
import java.time.InstantSource;
import java.util.List;

import io.github.qsbench.core.Capacity;
import io.github.qsbench.core.Eviction;
import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.strategy.Strategy;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Settings of the queue service, under {@code qs.*}. Each strategy profile sets only
 * {@code qs.strategy}.
 *
 * @param strategy the thread-safety strategy; set by the profile of the same name
 * @param leaseTimeout how long a polled message stays in flight before it is delivered
 * again
 * @param eviction when completed messages leave their queue
 * @param maxMessageSize the largest message a push accepts, body and attributes (SQS's 1
 * MiB by default, {@code Limits.MAX_MESSAGE_BYTES}); a queue may set a smaller one of its
 * own
 * @param otherProfiles profiles that may be active beside a strategy profile; any other
 * active profile stops start-up, so a misspelt strategy cannot silently fall back to the
 * default
 * @param limits caps on what the service holds; a push over one answers 429
 * @param redis where the {@code redis} strategy keeps its queues (the connection itself
 * is Spring Boot's {@code spring.data.redis.*})
 */
@ConfigurationProperties("qs")
public record QueueServiceProperties(@DefaultValue("concurrent-atomic") Strategy strategy,
		@DefaultValue("30s") Duration leaseTimeout, @DefaultValue("lazy") Eviction eviction,
		@DefaultValue("1MB") DataSize maxMessageSize, @DefaultValue List<String> otherProfiles,
		@DefaultValue Limits limits, @DefaultValue Redis redis) {

	public QueueServiceProperties {
		if (leaseTimeout.isNegative() || leaseTimeout.isZero()) {
			throw new IllegalArgumentException("qs.lease-timeout must be positive, was " + leaseTimeout);
		}
		if (maxMessageSize.toBytes() < 1 || maxMessageSize.toBytes() > Integer.MAX_VALUE - 8) {
			throw new IllegalArgumentException("qs.max-message-size must be between 1B and 2GB, was " + maxMessageSize);
		}
	}

	QueueOptions toOptions(InstantSource clock) {
		return new QueueOptions(this.leaseTimeout, this.eviction, clock, true,
				this.limits.resolve(Runtime.getRuntime().maxMemory()));
	}

	/**
	 * Caps under {@code qs.limits}; each one left unset takes its default from
	 * {@link Capacity.Limits#forHeap(long)}, sized from the JVM's max heap.
	 *
	 * @param maxQueues queues that may hold messages at once
	 * @param maxMessagesPerQueue messages one queue may hold
	 * @param maxTotalBytes heap all held messages may be charged: two bytes per character
	 * plus {@value Capacity#MESSAGE_OVERHEAD_BYTES} bytes per message
	 */
	public record Limits(Integer maxQueues, Integer maxMessagesPerQueue, DataSize maxTotalBytes) {

		Capacity.Limits resolve(long maxHeapBytes) {
			Capacity.Limits defaults = Capacity.Limits.forHeap(maxHeapBytes);
			return new Capacity.Limits((this.maxQueues != null) ? this.maxQueues : defaults.maxQueues(),
					(this.maxMessagesPerQueue != null) ? this.maxMessagesPerQueue : defaults.maxMessagesPerQueue(),
					(this.maxTotalBytes != null) ? this.maxTotalBytes.toBytes() : defaults.maxTotalBytes());
		}

	}

	/**
	 * The {@code redis} strategy's keys.
	 *
	 * @param namespace the prefix of every key and of the pub/sub channel: instances with
	 * the same namespace on one Redis serve the same queues
	 * @param groupCommit whether concurrent pushes, polls and completions on one queue
	 * through an instance are coalesced into one script each (a group commit; off by
	 * default: on 2 cores it saved scripts but cost more CPU per message than it saved,
	 * docs/redis.md)
	 * @param replicasToAcknowledge how many replicas must have a push, a lease, a
	 * completion, a queue's settings or a move task before it is answered (Redis's
	 * {@code WAIT}; 0, the default: answered once the master has it, which a failover may
	 * lose); in a cluster, replicas of the queue's master
	 * @param replicationTimeout how long an answer waits for them before it is answered
	 * 503; under {@code spring.data.redis.timeout}
	 * @param acknowledgedWrites which answers wait for those replicas: every one (the
	 * default), or pushes only, for consumers that take a redelivery after a failover
	 */
	public record Redis(@DefaultValue("qs:") String namespace, @DefaultValue("false") boolean groupCommit,
			@DefaultValue("0") int replicasToAcknowledge, @DefaultValue("1s") Duration replicationTimeout,
			@DefaultValue("all") AcknowledgedWrites acknowledgedWrites) {

		public Redis {
			if (replicasToAcknowledge < 0 || replicationTimeout.isNegative() || replicationTimeout.isZero()) {
				throw new IllegalArgumentException("qs.redis.replicas-to-acknowledge must be 0 or more and "
						+ "qs.redis.replication-timeout positive, not " + replicasToAcknowledge + " and "
						+ replicationTimeout);
			}
		}

	}

	/**
	 * Which writes {@code qs.redis.replicas-to-acknowledge} holds until replicas have
	 * them.
	 */
	public enum AcknowledgedWrites {

		/**
		 * Pushes, leases and completions, and lease changes and discards: a failover
		 * loses no push answered and undoes no lease or completion answered.
		 */
		ALL,

		/**
		 * Pushes only, at about 1.4x the cycles a second of {@link #ALL} (docs/redis.md):
		 * a failover loses no push answered, but may undo a lease or a completion, so
		 * that its message is delivered again under a delivery number already given.
		 */
		PUSHES

	}

}
