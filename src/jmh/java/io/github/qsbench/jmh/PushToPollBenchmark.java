package io.github.qsbench.jmh;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import io.github.qsbench.core.Eviction;
import io.github.qsbench.core.Message;
import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.strategy.Strategy;

/**
 * The latency side of the dispatcher's trade (issue 10; the throughput side is
 * {@link QueueServiceBenchmark}): how long a push takes to reach the consumer that polls
 * right after it, sampled per round trip (push, poll until it comes, complete). Alone,
 * and beside flooding writers that push to other queues with nobody polling them, so that
 * a dispatcher has a backlog to move. Run, after {@code ./mvnw test-compile}: <pre>
 * java -cp "$CP" org.openjdk.jmh.Main 'PushToPollBenchmark' -tg 2,1 \
 *   -p strategy=CONCURRENT_ATOMIC,SPLIT_JCTOOLS,SPLIT_DISPATCHER -jvmArgs '-Xms2g -Xmx2g'
 * </pre> ({@code -tg FLOODERS,1}: JMH orders a group's methods by name, {@code flood}
 * before {@code probe}).
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
public class PushToPollBenchmark {

	private static final byte[] PING = "ping".getBytes(StandardCharsets.UTF_8);

	private static final String[] FLOODED = { "f0", "f1", "f2", "f3", "f4", "f5", "f6", "f7" };

	@Param
	public Strategy strategy;

	private QueueServiceCore service;

	@Setup(Level.Iteration)
	public void newService() {
		this.service = JmhCores.create(this.strategy,
				new QueueOptions(Duration.ofDays(999), Eviction.LAZY, InstantSource.system(), false));
	}

	@TearDown(Level.Iteration)
	public void closeService() {
		JmhCores.close(this.service);
	}

	/** A writer's own place in the flooded queues. */
	@State(Scope.Thread)
	public static class Flooder {

		int next;

	}

	@Benchmark
	public Message alone() {
		return roundTrip("alone");
	}

	@Benchmark
	@Group("loaded")
	public Message flood(Flooder flooder) {
		flooder.next = (flooder.next + 1) & 7;
		return this.service.push(FLOODED[flooder.next], "flood");
	}

	@Benchmark
	@Group("loaded")
	public Message probe() {
		return roundTrip("probe");
	}

	private Message roundTrip(String queue) {
		this.service.push(queue, PING);
		Optional<Message> polled;
		while ((polled = this.service.poll(queue)).isEmpty()) {
			Thread.onSpinWait();
		}
		this.service.complete(queue, polled.get());
		return polled.get();
	}

}
