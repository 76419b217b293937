package io.github.qsbench.core.lincheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.Completion;
import io.github.qsbench.core.Delivery;
import io.github.qsbench.core.Eviction;
import io.github.qsbench.core.Message;
import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.lanes.SplitDispatcherQS;
import io.github.qsbench.core.strategy.Strategy;

import kotlin.Unit;
import kotlin.reflect.KFunction;
import kotlin.reflect.jvm.ReflectJvmMapping;

import org.jetbrains.lincheck.LincheckAssertionError;
import org.jetbrains.lincheck.datastructures.DSLThreadScenario;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.LongGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Options;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Lincheck on every strategy's push, poll and complete-by-id, checked for linearizability
 * against {@link QueueModel}, in model-checking and stress mode, run once per constant of
 * {@link Strategy} but {@link Strategy#REDIS}, whose operations are scripts that Redis
 * runs one at a time, outside the threads Lincheck controls
 * ({@code ConcurrentDeliveryTests} and the instances' tests count its losses and
 * duplicates). What a strategy must show follows from
 * {@link Strategy#delivery(Eviction)}: an exactly-once strategy must be linearizable; for
 * an at-least-once one, model checking must find that two polls can hand out one message
 * (which the exactly-once model forbids) and nothing else, and whatever stress reports
 * must be that double delivery too.
 *
 * <p>
 * Lincheck builds the object under test itself, through a no-arg constructor
 * ({@link Operations}); the strategy reaches it through {@link Operations#services}, set
 * just before each check. JUnit runs this JVM's tests one at a time (no parallel
 * execution is configured), so one check never sees another's strategy.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(value = Strategy.class, names = "REDIS", mode = EnumSource.Mode.EXCLUDE)
public class QueueServiceLincheckTests {

	static final boolean LONG = Boolean.getBoolean("lincheck.long");

	/**
	 * Scenarios per mode; {@code -Dlincheck.long=true} raises the CI default, the
	 * property overrides both.
	 */
	static final int ITERATIONS = Integer.getInteger("lincheck.iterations", LONG ? 50 : 8);

	/** Interleavings (model checking) or runs (stress) per scenario. */
	static final int INVOCATIONS = Integer.getInteger("lincheck.invocations", LONG ? 1_000 : 250);

	/**
	 * Stress runs of an at-least-once strategy before it counts as not showing its race.
	 */
	static final int STRESS_ROUNDS = 3;

	private static final Pattern POLLED = Pattern.compile("poll\\((\\d+)\\): (\\d+)");

	@Parameter
	Strategy strategy;

	@Test
	void modelChecking() {
		LincheckAssertionError error = check(modelCheckingOptions(), services(this.strategy));
		if (this.strategy.delivery(Eviction.LAZY) == Delivery.EXACTLY_ONCE) {
			assertThat(error).as("linearizable").isNull();
			return;
		}
		assertThat(error).as("model checking finds the at-least-once race").isNotNull();
		System.out.println(this.strategy.profile() + ", model checking found (expected):\n" + error.getMessage());
		assertThat(doubleDeliveries(error.getMessage())).as("a message polled twice").isNotEmpty();
	}

	/**
	 * For an at-least-once strategy a stress run that finds nothing has checked nothing
	 * (the race it must show did not happen), so it runs again, up to
	 * {@value #STRESS_ROUNDS} times, and fails if the race never shows.
	 */
	@Test
	void stress() {
		LincheckAssertionError error = check(stressOptions(), services(this.strategy));
		if (this.strategy.delivery(Eviction.LAZY) == Delivery.EXACTLY_ONCE) {
			assertThat(error).as("linearizable").isNull();
			return;
		}
		for (int round = 1; error == null && round < STRESS_ROUNDS; round++) {
			error = check(stressOptions(), services(this.strategy));
		}
		assertThat(error)
			.as("%d stress runs, none found the at-least-once race; more invocations "
					+ "(-Dlincheck.invocations) make it likelier", STRESS_ROUNDS)
			.isNotNull();
		System.out.println(this.strategy.profile() + ", stress found (expected):\n" + error.getMessage());
		assertThat(doubleDeliveries(error.getMessage())).as("a message polled twice").isNotEmpty();
	}

	/**
	 * How Lincheck gets a service of that strategy: as the service builds it, except the
	 * dispatcher strategy, without its dispatcher thread, which Lincheck could neither
	 * schedule nor stop (it makes a service per scenario). Every message then reaches its
	 * ready queue through a poll that found nothing and dispatched it, the path that
	 * makes a push pollable at once; the thread only adds a second taker of the same
	 * role.
	 */
	static Function<QueueOptions, QueueServiceCore> services(Strategy strategy) {
		return (strategy == Strategy.SPLIT_DISPATCHER) ? options -> new SplitDispatcherQS(options, false)
				: strategy::create;
	}

	/**
	 * Runs the check on services that {@code service} builds; the failure it reports, or
	 * null.
	 */
	static LincheckAssertionError check(Options<?, ?> options, Function<QueueOptions, QueueServiceCore> service) {
		Operations.services = service;
		try {
			options.check(Operations.class);
			return null;
		}
		catch (LincheckAssertionError error) {
			return error;
		}
		finally {
			Operations.services = null;
		}
	}

	/**
	 * Model checking over random scenarios plus the written ones of
	 * {@link #withRacesOfTheContract}.
	 */
	static ModelCheckingOptions modelCheckingOptions() {
		return withRacesOfTheContract(new ModelCheckingOptions()).iterations(ITERATIONS)
			.invocationsPerIteration(INVOCATIONS)
			.threads(2)
			.actorsPerThread(3)
			.actorsBefore(2)
			.actorsAfter(1);
	}

	/**
	 * Stress runs over random scenarios plus the written ones of
	 * {@link #withRacesOfTheContract}.
	 */
	static StressOptions stressOptions() {
		return withRacesOfTheContract(new StressOptions()).iterations(ITERATIONS)
			.invocationsPerIteration(INVOCATIONS)
			.threads(2)
			.actorsPerThread(3)
			.actorsBefore(2)
			.actorsAfter(1);
	}

	/**
	 * Adds the sequential specification and two written scenarios that make sure the
	 * races the contract is about are tried whatever the random draw: two consumers
	 * polling one ready message, and completions emptying a queue (ids 1 and 3) while a
	 * producer pushes to it and a consumer polls, whose walk evicts and may remove the
	 * queue.
	 */
	static <O extends Options<O, ?>> O withRacesOfTheContract(O options) {
		return options.sequentialSpecification(QueueModel.class).addCustomScenario(scenario -> {
			scenario.initial(t -> actor(t, "push", 0));
			scenario.parallel(p -> {
				p.thread(t -> actor(t, "poll", 0));
				p.thread(t -> actor(t, "poll", 0));
				return Unit.INSTANCE;
			});
			return Unit.INSTANCE;
		}).addCustomScenario(scenario -> {
			scenario.initial(t -> {
				actor(t, "push", 0);
				return actor(t, "poll", 0);
			});
			scenario.parallel(p -> {
				p.thread(t -> {
					actor(t, "complete", 0, 1L);
					return actor(t, "complete", 0, 3L);
				});
				p.thread(t -> {
					actor(t, "push", 0);
					return actor(t, "poll", 0);
				});
				return Unit.INSTANCE;
			});
			scenario.post(t -> actor(t, "poll", 0));
			return Unit.INSTANCE;
		});
	}

	private static Unit actor(DSLThreadScenario thread, String operation, Object... arguments) {
		KFunction<?> function = Arrays.stream(Operations.class.getDeclaredMethods())
			.filter(method -> method.getName().equals(operation))
			.map(ReflectJvmMapping::getKotlinFunction)
			.findFirst()
			.orElseThrow();
		thread.actor(function, arguments);
		return Unit.INSTANCE;
	}

	/** Queue-and-id pairs that more than one poll of the reported scenario returned. */
	static List<String> doubleDeliveries(String report) {
		String results = report.contains("The following interleaving")
				? report.substring(0, report.indexOf("The following interleaving")) : report;
		Set<String> seen = new HashSet<>();
		List<String> twice = new ArrayList<>();
		Matcher polled = POLLED.matcher(results);
		while (polled.find()) {
			String delivery = "queue " + polled.group(1) + " id " + polled.group(2);
			if (!seen.add(delivery)) {
				twice.add(delivery);
			}
		}
		return twice;
	}

	/**
	 * What Lincheck runs: one strategy's service. Two queues and ids 1 to 6 keep
	 * scenarios small enough that threads meet on the same message. The clock is fixed
	 * and the lease long, so a message polled twice can only be a race.
	 *
	 * <p>
	 * The constructor (like the model's) pushes and polls one message per queue, ids 1
	 * and 2, so both queues exist before Lincheck starts watching. Lincheck 3.7's model
	 * checker treats an object first published through {@code ConcurrentHashMap.compute}
	 * as thread-local and never switches threads on its fields: a queue created inside
	 * the run hides the concurrent-pojo double grab from it, a queue created here does
	 * not. Completing id 1 or 2 still lets a queue empty, be removed and be created again
	 * within a run.
	 */
	@Param(name = "queue", gen = IntGen.class, conf = "0:1")
	@Param(name = "id", gen = LongGen.class, conf = "1:6")
	public static class Operations {

		/** Builds the service of the next instances; set by a test around its check. */
		static volatile Function<QueueOptions, QueueServiceCore> services;

		private static final InstantSource CLOCK = InstantSource.fixed(Instant.parse("2017-06-01T00:00:00Z"));

		private final QueueServiceCore service;

		/** Ids a push or a poll has returned: the only ids a client can know. */
		private final Set<Long> known = ConcurrentHashMap.newKeySet();

		public Operations() {
			this.service = services.apply(new QueueOptions(Duration.ofDays(1), Eviction.LAZY, CLOCK, true));
			for (int queue = 0; queue < QueueModel.QUEUES; queue++) {
				this.known.add(this.service.push(name(queue), "body").id());
				this.service.poll(name(queue));
			}
		}

		/**
		 * Pushes come from one thread at a time (plus the sequential parts):
		 * {@code AbstractQS} takes the id before the message becomes visible, so of two
		 * overlapping pushes the one with the higher id can be queued, and polled, first.
		 * Nothing is lost or delivered twice, but no model that numbers pushes in order
		 * explains it; {@link IdOrderLincheckTests} shows it.
		 */
		@Operation(nonParallelGroup = "producer")
		public Long push(@Param(name = "queue") int queue) {
			long id = this.service.push(name(queue), "body").id();
			this.known.add(id);
			return id;
		}

		@Operation
		public Long poll(@Param(name = "queue") int queue) {
			Long id = this.service.poll(name(queue)).map(Message::id).orElse(null);
			if (id != null) {
				this.known.add(id);
			}
			return id;
		}

		/**
		 * Completes by id, but only an id some push or poll has returned; otherwise
		 * answers null, as the model does for an id beyond the last push.
		 * {@code AbstractQS.push} indexes a message before it queues it (so that whoever
		 * polls it can complete it), and in that window a client guessing the id gets
		 * NOT_DELIVERED while a poll still finds nothing: not linearizable, but outside
		 * what a client can do without guessing; {@link IdOrderLincheckTests} shows it.
		 */
		@Operation
		public Completion complete(@Param(name = "queue") int queue, @Param(name = "id") long id) {
			return this.known.contains(id) ? this.service.complete(name(queue), id) : null;
		}

		private static String name(int queue) {
			return "q" + queue;
		}

	}

}
