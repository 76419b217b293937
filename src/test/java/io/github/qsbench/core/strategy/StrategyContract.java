package io.github.qsbench.core.strategy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.qsbench.core.Eviction;
import io.github.qsbench.core.MutableClock;
import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.TestCores;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The contract suites' set-up, written once: each suite runs once per constant of
 * {@link Strategy}, on a {@link MutableClock} the test moves, with a fresh lazy-eviction
 * {@link #service} per test; every service a test made is closed after it (a dispatcher
 * runs a thread).
 */
@ParameterizedClass(name = "{0}")
@EnumSource(Strategy.class)
abstract class StrategyContract {

	static final Duration LEASE = Duration.ofSeconds(30);

	final MutableClock clock = new MutableClock();

	QueueServiceCore service;

	@Parameter
	Strategy strategy;

	private final List<QueueServiceCore> created = new ArrayList<>();

	/** The options {@link #newService(Eviction)} makes a service with. */
	QueueOptions options(Eviction eviction) {
		return new QueueOptions(LEASE, eviction, this.clock, true);
	}

	QueueServiceCore newService(Eviction eviction) {
		return newService(options(eviction));
	}

	QueueServiceCore newService(QueueOptions options) {
		QueueServiceCore made = TestCores.create(this.strategy, options);
		this.created.add(made);
		return made;
	}

	@BeforeEach
	void createService() {
		this.service = newService(Eviction.LAZY);
	}

	@AfterEach
	void closeServices() {
		this.created.forEach(QueueServiceCore::close);
	}

}
