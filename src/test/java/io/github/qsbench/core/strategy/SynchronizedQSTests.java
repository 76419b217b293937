package io.github.qsbench.core.strategy;

class SynchronizedQSTests extends AbstractQueueServiceContractTests {

	@Override
	Strategy strategy() {
		return Strategy.SYNCHRONIZED;
	}

}
