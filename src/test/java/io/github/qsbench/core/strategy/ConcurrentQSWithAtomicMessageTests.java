package io.github.qsbench.core.strategy;

class ConcurrentQSWithAtomicMessageTests extends AbstractQueueServiceContractTests {

	@Override
	Strategy strategy() {
		return Strategy.CONCURRENT_ATOMIC;
	}

}
