package io.github.qsbench.core.lincheck;

import io.github.qsbench.core.strategy.Strategy;

import org.junit.jupiter.api.Test;

public class SplitConcurrentQSLincheckTests extends AbstractQueueServiceLincheckTests {

	public SplitConcurrentQSLincheckTests() {
		super(Strategy.SPLIT_CONCURRENT);
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
