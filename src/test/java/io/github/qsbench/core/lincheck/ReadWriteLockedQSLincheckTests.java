package io.github.qsbench.core.lincheck;

import io.github.qsbench.core.strategy.Strategy;

import org.junit.jupiter.api.Test;

public class ReadWriteLockedQSLincheckTests extends AbstractQueueServiceLincheckTests {

	public ReadWriteLockedQSLincheckTests() {
		super(Strategy.READ_WRITE_LOCK);
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
