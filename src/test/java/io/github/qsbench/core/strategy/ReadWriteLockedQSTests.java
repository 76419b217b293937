package io.github.qsbench.core.strategy;

class ReadWriteLockedQSTests extends AbstractQueueServiceContractTests {

	@Override
	Strategy strategy() {
		return Strategy.READ_WRITE_LOCK;
	}

}
