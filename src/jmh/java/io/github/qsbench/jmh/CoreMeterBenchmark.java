package io.github.qsbench.jmh;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import io.github.qsbench.core.Eviction;
import io.github.qsbench.core.Lease;
import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.strategy.Strategy;
import io.github.qsbench.metrics.CoreTimedQueueService;

/**
 * What the core-time meter ({@code qs_core_seconds_total}) adds to a message's cycle as
 * the service makes it (push, lease, complete by id and delivery): the same cycle on the
 * strategy itself and through {@link CoreTimedQueueService}, two threads at once so that
 * the meter's striped adders meet each other. The difference is the meter's cost per
 * cycle, three timed calls. <pre>
 * java -cp "$CP" org.openjdk.jmh.Main CoreMeterBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Threads(2)
@Fork(value = 2, jvmArgsAppend = { "-Xmx2g", "-Xms2g" })
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class CoreMeterBenchmark {

	private static final byte[] BODY = "a message of the cycle".getBytes(StandardCharsets.UTF_8);

	@Param({ "CONCURRENT_ATOMIC", "LANE_ADAPTIVE" })
	public Strategy strategy;

	@Param({ "false", "true" })
	public boolean timed;

	private QueueServiceCore core;

	private QueueServiceCore service;

	@Setup
	public void create() {
		this.core = JmhCores.create(this.strategy,
				new QueueOptions(Duration.ofDays(1), Eviction.LAZY, InstantSource.system(), true));
		this.service = this.timed ? new CoreTimedQueueService(this.core, new SimpleMeterRegistry()) : this.core;
	}

	@TearDown
	public void close() {
		JmhCores.close(this.core);
	}

	/** One message's life: each thread on its own queue, so only the meter is shared. */
	@State(Scope.Thread)
	public static class Queue {

		final String name = "cycle-" + Thread.currentThread().getId();

	}

	@Benchmark
	public Object cycle(Queue queue) {
		this.service.push(queue.name, BODY);
		List<Lease> leased = this.service.lease(queue.name, 1);
		Lease lease = leased.get(0);
		return this.service.complete(queue.name, lease.message().id(), lease.delivery());
	}

}
