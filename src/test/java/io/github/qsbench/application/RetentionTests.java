package io.github.qsbench.application;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import io.github.qsbench.application.queues.QueueSettings;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.strategy.Strategy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Retention, written once above the core on what every strategy offers (browse, discard),
 * held to its contract for every strategy: a message older than its queue's retention is
 * dropped whatever its state, a younger one never, and a queue without retention is
 * untouched. Sweeps are called directly after the clock moves (the service runs one a
 * second); a sweep samples the push timeline, so one runs after the pushes it must date.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(Strategy.class)
class RetentionTests extends OperationsPerStrategy {

	private static final Duration RETENTION = Duration.ofSeconds(60);

	@Test
	void olderThanTheRetention_droppedInAnyState_youngerKept() {
		this.operations.configure("q", new QueueSettings.Change(null, null, (int) RETENTION.toSeconds(), null));
		this.messages.push("q", utf8("ready"));
		this.messages.push("q", utf8("held"));
		Received held = this.messages.lease("q", 1).get(0);
		this.messages.send("q", OutgoingMessage.of(utf8("delayed")), 120);
		this.messages.push("none", utf8("no retention"));
		assertThat(this.retention.expire()).as("dates the pushes; nothing is old yet").isZero();

		this.clock.advance(RETENTION.dividedBy(2));
		Sent young = this.messages.push("q", utf8("young"));
		assertThat(this.retention.expire()).isZero();
		this.clock.advance(RETENTION.dividedBy(2));
		long lag = this.core.lastIdLagMillis();
		if (lag > 0) {
			// a store that hands out ids in blocks: an id sampled now may be pushed up to
			// the lag later
			assertThat(this.retention.expire()).as("not before the ids' lag").isZero();
			this.clock.advance(Duration.ofMillis(lag));
		}

		assertThat(this.retention.expire()).isEqualTo(3);
		assertThat(this.registry.get("qs.messages.expired").tag("state", "ready").counter().count()).isOne();
		assertThat(this.registry.get("qs.messages.expired").tag("state", "inflight").counter().count()).isOne();
		assertThat(this.registry.get("qs.messages.expired").tag("state", "delayed").counter().count()).isOne();
		assertThat(this.messages.complete("q", held.id(), null)).as("its holder").isEqualTo(Completion.NOT_FOUND);
		List<Received> left = this.messages.lease("q", 10);
		assertThat(left).extracting(lease -> lease.id()).containsExactly(young.id());
		assertThat(this.messages.lease("none", 10)).as("a queue without retention").hasSize(1);

		this.clock.advance(RETENTION);
		assertThat(this.retention.expire()).isOne();
		assertThat(this.operations.queue("q")).isEmpty();
		assertThat(this.operations.isExplicit("q")).as("the queue stays").isTrue();
	}

	@Test
	void noQueueWithRetention_nothingSampledOrDropped() {
		this.messages.push("q", utf8("kept"));
		this.clock.advance(Duration.ofDays(30));

		assertThat(this.retention.expire()).isZero();
		assertThat(this.messages.lease("q", 1)).hasSize(1);
	}

}
