package io.github.qsbench.core.lincheck;

import io.github.qsbench.core.strategy.SplitDispatcherQS;

import org.junit.jupiter.api.Test;

/**
 * The dispatcher strategy without its dispatcher thread, which Lincheck could neither
 * schedule nor stop (it makes a service per scenario): every message reaches its ready
 * queue through a poll that found nothing and dispatched it, the path that makes a push
 * pollable at once. The thread only adds a second taker of the same dispatch role.
 */
public class SplitDispatcherQSLincheckTests extends AbstractQueueServiceLincheckTests {

	public SplitDispatcherQSLincheckTests() {
		super(options -> new SplitDispatcherQS(options, false));
	}

	@Test
	void modelChecking_linearizable() {
		modelChecking().check(getClass());
	}

	@Test
	void stress_linearizable() {
		stress().check(getClass());
	}

}
