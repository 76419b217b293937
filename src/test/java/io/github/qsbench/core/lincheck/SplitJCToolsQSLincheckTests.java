package io.github.qsbench.core.lincheck;

import io.github.qsbench.core.strategy.Strategy;

import org.junit.jupiter.api.Test;

public class SplitJCToolsQSLincheckTests extends AbstractQueueServiceLincheckTests {

	public SplitJCToolsQSLincheckTests() {
		super(Strategy.SPLIT_JCTOOLS);
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
