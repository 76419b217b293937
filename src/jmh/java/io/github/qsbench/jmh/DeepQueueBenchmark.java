package io.github.qsbench.jmh;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.Eviction;
import io.github.qsbench.core.Message;
import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.QueueStats;
import io.github.qsbench.core.strategy.Strategy;

/**
 * One deep queue, as the service runs it (id lookup on): what a listing costs, and what a
 * poll and a completion cost, with {@code depth} messages held and {@code inFlight} of
 * them leased at the head (consumers that have not completed yet). Single-threaded: it
 * measures the work one request does while holding the strategy's guard, which under
 * {@code synchronized} every other request waits for.
 *
 * <p>
 * It uses only API the service has had since its first version, so the same file can be
 * run against an older build to compare: <pre>
 * java -cp "$CP" org.openjdk.jmh.Main DeepQueueBenchmark -p strategy=SYNCHRONIZED
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = { "-Xmx2g", "-Xms2g" })
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class DeepQueueBenchmark {

	private static final byte[] REFILL = "refill".getBytes(StandardCharsets.UTF_8);

	@Param({ "SYNCHRONIZED", "CONCURRENT_ATOMIC" })
	public Strategy strategy;

	@Param({ "LAZY", "EAGER" })
	public Eviction eviction;

	@Param("1000000")
	public int depth;

	@Param({ "0", "1000" })
	public int inFlight;

	private QueueServiceCore service;

	@Setup(Level.Trial)
	public void fill() {
		this.service = JmhCores.create(this.strategy,
				new QueueOptions(Duration.ofDays(999), this.eviction, InstantSource.system(), true));
		for (int i = 0; i < this.depth; i++) {
			this.service.push("deep", "message " + i);
		}
		for (int i = 0; i < this.inFlight; i++) {
			this.service.poll("deep");
		}
	}

	@TearDown(Level.Trial)
	public void close() {
		JmhCores.close(this.service);
	}

	/** {@code GET /queues}: every queue with its counts. */
	@Benchmark
	public List<QueueStats> listing() {
		return this.service.queues();
	}

	/**
	 * A consumer's cycle at a steady depth: poll the first ready message (past those in
	 * flight), complete it, and a producer's push keeps the depth.
	 */
	@Benchmark
	public boolean pollCompletePush() {
		Message message = this.service.poll("deep").orElseThrow();
		boolean completed = this.service.complete("deep", message);
		this.service.push("deep", REFILL);
		return completed;
	}

}
