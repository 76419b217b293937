package io.github.qsbench.jmh;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Group;
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

import io.github.qsbench.core.thesis.AbstractMessage;
import io.github.qsbench.core.thesis.AbstractQS;
import io.github.qsbench.core.Eviction;
import io.github.qsbench.core.Message;
import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.QueueService;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.strategy.Strategy;

/**
 * The workload of the thesis's QueueServiceBenchmark (section 3.2.3), in-process: an
 * asymmetric group of writers that push and readers that poll and complete at once, over
 * a fixed set of queue names that each thread walks in its own order, shuffled once per
 * trial. Every measurement iteration gets a fresh queue service with a lease of 999 days,
 * so no message is ever redelivered.
 *
 * <p>
 * One invocation is one operation, as in the thesis: a push, or a poll whether or not it
 * found a message. {@link PollCounters} tells the two kinds of poll apart.
 *
 * <p>
 * The nested classes run the same workload in the thesis's three modes; the study uses
 * {@link Thrpt}. Readers and writers per group come from {@code -tg READERS,WRITERS} (JMH
 * orders a group's methods by name: {@code reader} before {@code writer}). The whole
 * study, every strategy in the setups 1-1, 4-1, 1-4 and 4-4, under two JDKs and two
 * collectors, with its report: <pre>
 * scripts/jmh-study.sh                     # default, about 20 minutes on 2 cores per four strategies
 * scripts/jmh-study.sh --thesis            # 20 warmups, 20 iterations, 10 forks
 * scripts/jmh-study.sh --help
 * </pre> One run by hand, after {@code ./mvnw test-compile}: <pre>
 * java -cp "$CP" org.openjdk.jmh.Main 'QueueServiceBenchmark.Thrpt' -tg 4,1 -prof gc \
 *   -jvmArgs '-Djava.io.tmpdir=target/jmh-tmp -XX:+UseParallelGC' -rf json -rff target/jmh/run.json
 * </pre> {@code strategy=REDIS} measures the core on a redis-server, whose port the forks
 * need in {@code -Dqs.redis.port} (the study script starts one and passes it; see
 * {@link JmhCores}); each iteration's service gets a namespace of its own, emptied after.
 */
public abstract class QueueServiceBenchmark {

	/**
	 * Lease of the thesis's benchmark: long enough that nothing is redelivered during a
	 * run.
	 */
	static final Duration LEASE = Duration.ofDays(999);

	/**
	 * The queue service under test, shared by every thread and replaced before each
	 * iteration.
	 */
	@State(Scope.Benchmark)
	public static class Service {

		@Param
		public Strategy strategy;

		/** Number of queue names shared by all threads (thesis: 8). */
		@Param("8")
		public int queues;

		/**
		 * {@code false} is the thesis's service (no id index); {@code true} also indexes
		 * every message by id and is what the HTTP service runs.
		 */
		@Param("false")
		public boolean idLookup;

		/**
		 * How a reader completes what it polled: {@code GUARDED} through the service
		 * ({@link QueueService#complete(String, Message)}, under the strategy's guard:
		 * for {@code SynchronizedQS} a second entry of the map's monitor per delivered
		 * message); {@code THESIS} as the thesis's {@code AbstractQS.complete()} did, see
		 * {@link CompletionMode#THESIS}.
		 */
		@Param("GUARDED")
		public CompletionMode completion;

		/**
		 * {@code LAZY} is the thesis's eviction (walkers remove completed messages);
		 * {@code EAGER} removes a message at its completion (thesis 5.2.3.2).
		 */
		@Param("LAZY")
		public Eviction eviction;

		QueueServiceCore service;

		@Setup(Level.Iteration)
		public void newService() {
			this.service = JmhCores.create(this.strategy,
					new QueueOptions(LEASE, this.eviction, InstantSource.system(), this.idLookup));
			if (this.completion == CompletionMode.THESIS && (this.idLookup || !(this.service instanceof AbstractQS))) {
				JmhCores.close(this.service);
				throw new IllegalArgumentException(
						"completion=THESIS needs a strategy on AbstractQS and idLookup=false, not " + this.strategy
								+ " with idLookup=" + this.idLookup);
			}
		}

		/**
		 * Stops what the service runs of its own, such as a dispatcher thread; for Redis,
		 * deletes its keys and closes its connection.
		 */
		@TearDown(Level.Iteration)
		public void closeService() {
			JmhCores.close(this.service);
		}

	}

	/** How the benchmark's readers complete a message. */
	public enum CompletionMode {

		/**
		 * Through the service, under the strategy's guard: what the HTTP service does.
		 */
		GUARDED,

		/**
		 * The thesis's completion, exactly: {@code message.complete()} with no guard at
		 * all ({@link AbstractMessage#complete()}, the message's own method, which the
		 * service otherwise calls only under its guard). <b>Racy by design</b> for the
		 * plain-field {@code PojoMessage}: its completed mark (a plain field) is written
		 * without the lock that walkers read it under, so a walk may see it late and
		 * evict the message a walk later; it cannot be delivered twice, because the lease
		 * the grab wrote under the guard has not expired. Only strategies on
		 * {@code AbstractQS} have such a completion; for the others (whose completion in
		 * this setting is already a compare-and-set on the message and no lock) it is
		 * refused.
		 */
		THESIS

	}

	/**
	 * One thread's queue order, shuffled once per trial, and the one body a writer pushes
	 * over and over.
	 */
	@State(Scope.Thread)
	public static class Cursor {

		private String[] order;

		private int next;

		byte[] body;

		@Setup(Level.Trial)
		public void shuffle(Service service) {
			List<String> names = new ArrayList<>(IntStream.range(0, service.queues).mapToObj(i -> "q" + i).toList());
			Collections.shuffle(names);
			this.order = names.toArray(String[]::new);
			this.body = ("message of " + Thread.currentThread().getName()).getBytes(StandardCharsets.UTF_8);
		}

		String nextQueue() {
			String queue = this.order[this.next];
			this.next = (this.next + 1 == this.order.length) ? 0 : this.next + 1;
			return queue;
		}

	}

	/**
	 * A reader's polls split by outcome. The thesis counted an empty poll as an operation
	 * like any other; these counters show how much of a reader's score is such polls.
	 */
	@State(Scope.Thread)
	@AuxCounters(AuxCounters.Type.OPERATIONS)
	public static class PollCounters {

		public long delivered;

		public long empty;

		@Setup(Level.Iteration)
		public void reset() {
			this.delivered = 0;
			this.empty = 0;
		}

	}

	@Benchmark
	@Group("queue")
	public Message writer(Service service, Cursor cursor) {
		return service.service.push(cursor.nextQueue(), cursor.body);
	}

	@Benchmark
	@Group("queue")
	public boolean reader(Service service, Cursor cursor, PollCounters counters) {
		QueueService qs = service.service;
		String queue = cursor.nextQueue();
		Optional<Message> message = qs.poll(queue);
		if (message.isEmpty()) {
			counters.empty++;
			return false;
		}
		counters.delivered++;
		if (service.completion == CompletionMode.THESIS) {
			return ((AbstractMessage) message.get()).complete();
		}
		return qs.complete(queue, message.get());
	}

	/** The study's mode: operations per microsecond. */
	@BenchmarkMode(Mode.Throughput)
	@OutputTimeUnit(TimeUnit.MICROSECONDS)
	public static class Thrpt extends QueueServiceBenchmark {

	}

	/** Microseconds per operation over a fixed time, kept as the thesis did. */
	@BenchmarkMode(Mode.AverageTime)
	@OutputTimeUnit(TimeUnit.MICROSECONDS)
	public static class Avgt extends QueueServiceBenchmark {

	}

	/** Microseconds per batch of a fixed number of operations (thesis appendix D). */
	@BenchmarkMode(Mode.SingleShotTime)
	@OutputTimeUnit(TimeUnit.MICROSECONDS)
	@Warmup(batchSize = SingleShot.BATCH)
	@Measurement(batchSize = SingleShot.BATCH)
	public static class SingleShot extends QueueServiceBenchmark {

		static final int BATCH = 1000;

	}

}
